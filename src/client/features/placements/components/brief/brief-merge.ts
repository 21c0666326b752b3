import type { BriefResponse } from '@shared/schemas/brief';
import { PART1_FIELDS, PART2_FIELDS, formValues } from './brief-fields';
import { mergeFields, sameText, type FieldsMerge } from './three-way-merge';

export type BriefMerge = FieldsMerge;

/** Every field of both parts by name (the two parts' names do not overlap); '' when empty. */
export type BriefValues = Record<string, string>;

export const briefValues = (brief: Pick<BriefResponse, 'part1Json' | 'part2Json'>): BriefValues => ({
  ...formValues(PART1_FIELDS, brief.part1Json),
  ...formValues(PART2_FIELDS, brief.part2Json),
});

export const splitParts = (values: BriefValues) => ({
  part1Json: formValues(PART1_FIELDS, values),
  part2Json: formValues(PART2_FIELDS, values),
});

export const FIELD_LABELS: Record<string, string> = Object.fromEntries(
  [...PART1_FIELDS, ...PART2_FIELDS].map((f) => [f.name, f.label]),
);
const FIELD_NAMES = Object.keys(FIELD_LABELS);

/** The merge of two copies of the brief (all its fields), from the copy both started from. */
export const mergeBrief = (base: BriefValues, mine: BriefValues, theirs: BriefValues) =>
  mergeFields(FIELD_NAMES, base, mine, theirs);

/** True when the two copies hold the same answers. */
export const sameBrief = (a: BriefValues, b: BriefValues) => FIELD_NAMES.every((f) => sameText(a[f], b[f]));
