import type { z } from 'zod';
import { UNSTORABLE_TEXT_MESSAGE, unstorablePaths } from '../../shared/schemas/storable-text';
import { DomainError, badRequest } from './errors';

const fieldKey = (path: readonly PropertyKey[]) => (path.length ? path.map(String).join('.') : '_');

/**
 * Parses a request part with a shared schema. On failure: 400 with the first message as
 * `message` and one message per field in `errors` (the same texts the forms show).
 *
 * Every string anywhere in the input must also be storable text (shared/schemas/storable-text.ts):
 * checked here, once, so no route can hand PostgreSQL a NUL (a 500) or a lone surrogate (saved
 * altered). Such a field is reported first and with that message only: whatever else its schema
 * says about it (an invalid URL, say) follows from the character.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = issuesAsDomainError(schema, input);
  if (parsed instanceof DomainError) throw parsed;
  return parsed.value;
}

/** `parse`, with the refusal returned rather than thrown (the routes' validator, lib/contract.ts). */
export function issuesAsDomainError<S extends z.ZodType>(schema: S, input: unknown): { value: z.output<S> } | DomainError {
  const unstorable = unstorablePaths(input);
  // no body at all reads as an empty object; a JSON null is not an object and is refused
  const result = schema.safeParse(input === undefined ? {} : input);
  if (result.success && unstorable.length === 0) return { value: result.data };
  const errors: Record<string, string> = {};
  for (const path of unstorable) errors[fieldKey(path)] = UNSTORABLE_TEXT_MESSAGE;
  const issues = result.error?.issues ?? [];
  for (const issue of issues) errors[fieldKey(issue.path)] ??= issue.message;
  const first = unstorable.length ? UNSTORABLE_TEXT_MESSAGE : (issues[0]?.message ?? 'Invalid input');
  return badRequest('invalid_input', first, errors);
}
