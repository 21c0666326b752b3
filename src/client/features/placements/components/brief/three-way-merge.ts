/** A form's fields merged from two copies that started from one (the brief; any form edited in two places). */

// the server trims what it stores: "Acme " typed and "Acme" stored are the same answer
export const sameText = (a: string | undefined, b: string | undefined) => (a ?? '').trim() === (b ?? '').trim();

export interface FieldsMerge {
  /** the merged values; a field both sides changed holds this window's text until the user chooses */
  values: Record<string, string>;
  /** fields only the newer copy changed: they take its text */
  fromTheirs: string[];
  /** fields only this window changed: they keep its text */
  fromMine: string[];
  /** fields both changed, differently: the user chooses */
  conflicts: { field: string; mine: string; theirs: string }[];
}

/**
 * A three-way merge, field by field: `base` is the copy this window started from, `mine` what it
 * holds now, `theirs` the newer copy. Nothing anyone typed is dropped without the user choosing.
 */
export function mergeFields(
  fields: readonly string[],
  base: Record<string, string>,
  mine: Record<string, string>,
  theirs: Record<string, string>,
): FieldsMerge {
  const merge: FieldsMerge = { values: {}, fromTheirs: [], fromMine: [], conflicts: [] };
  for (const field of fields) {
    const b = base[field] ?? '';
    const m = mine[field] ?? '';
    const t = theirs[field] ?? '';
    if (sameText(m, b)) {
      merge.values[field] = t;
      if (!sameText(t, b)) merge.fromTheirs.push(field);
    } else if (sameText(t, b) || sameText(t, m)) {
      merge.values[field] = m;
      if (!sameText(t, m)) merge.fromMine.push(field);
    } else {
      merge.values[field] = m;
      merge.conflicts.push({ field, mine: m, theirs: t });
    }
  }
  return merge;
}
