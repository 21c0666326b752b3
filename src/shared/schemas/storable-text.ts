/**
 * Text PostgreSQL stores exactly as it was sent. Two kinds of character are not:
 * - NUL (U+0000): refused in `text` and `jsonb` alike, which would make a request fail late;
 * - a lone UTF-16 surrogate (half of a pair, e.g. "\ud800" in JSON): not encodable as UTF-8, so
 *   it would reach the database as U+FFFD, and what the user saved would differ from what they sent.
 * Every request part the server parses is checked for them once, in `parse` (server/lib/validate.ts).
 */

export const UNSTORABLE_TEXT_MESSAGE = 'Contains a character that cannot be saved';

const NUL = '\u0000';
/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isStorableText = (value: string): boolean => !value.includes(NUL) && !LONE_SURROGATE.test(value);

type Path = (string | number)[];
/** A value met on the walk and how it was reached; the path is built only for a finding. */
interface Visit {
  value: unknown;
  key: string | number | null;
  parent: Visit | null;
}

function pathOf(visit: Visit): Path {
  const path: Path = [];
  for (let v: Visit | null = visit; v && v.key !== null; v = v.parent) path.push(v.key);
  return path.reverse();
}

function childrenOf(visit: Visit): Visit[] {
  const { value } = visit;
  if (Array.isArray(value)) return value.map((item, i) => ({ value: item, key: i, parent: visit }));
  if (typeof value === 'object' && value !== null) {
    return Object.keys(value).map((key) => ({ value: (value as Record<string, unknown>)[key], key, parent: visit }));
  }
  return [];
}

/**
 * The paths (as zod reports them: member names and array indexes) of every string that cannot be
 * stored, anywhere in a parsed body, query or params, in document order. The walk uses its own
 * stack: a 1 MB body of nested arrays would overflow the call stack of a recursive one.
 */
export function unstorablePaths(input: unknown): Path[] {
  const found: Path[] = [];
  const stack: Visit[] = [{ value: input, key: null, parent: null }];
  while (stack.length) {
    const visit = stack.pop()!;
    if (typeof visit.value === 'string') {
      if (!isStorableText(visit.value)) found.push(pathOf(visit));
      continue;
    }
    const children = childrenOf(visit);
    // reversed onto the stack, so the first member is visited first
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return found;
}
