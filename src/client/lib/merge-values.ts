/**
 * A form's values merged from two copies that started from one (decision 019): `base` is the copy
 * the form was opened on, `mine` what it holds now, `theirs` the newer copy a save was refused for.
 */
export interface ValuesMerge<T> {
  /** what only the newer copy changed takes its value; everything else keeps this form's */
  values: T;
  /** fields only the newer copy changed */
  fromTheirs: (keyof T & string)[];
  /** fields only this form changed */
  fromMine: (keyof T & string)[];
  /** fields both changed, differently: this form's value is kept (the newer one is shown) */
  both: (keyof T & string)[];
}

// the server trims what it stores: "Acme " typed and "Acme" stored are the same answer
const normal = (v: unknown): unknown =>
  typeof v === 'string' ? v.trim() : Array.isArray(v) ? v.map(normal) : v;
const same = (a: unknown, b: unknown) => JSON.stringify(normal(a)) === JSON.stringify(normal(b));

export function mergeValues<T extends Record<string, unknown>>(base: T, mine: T, theirs: T): ValuesMerge<T> {
  const merge: ValuesMerge<T> = { values: { ...mine }, fromTheirs: [], fromMine: [], both: [] };
  for (const field of Object.keys(theirs) as (keyof T & string)[]) {
    const [b, m, t] = [base[field], mine[field], theirs[field]];
    if (same(t, b) || same(t, m)) {
      if (!same(m, b)) merge.fromMine.push(field);
    } else if (same(m, b)) {
      merge.values[field] = t;
      merge.fromTheirs.push(field);
    } else {
      merge.both.push(field);
    }
  }
  return merge;
}
