import { z } from 'zod';

/**
 * The brand's brief in its current form (/brand/brief/{paymentId}, spec §3, §5): two parts, every
 * field text, trimmed. Drafts (autosave) accept anything within the limits; a submission needs the
 * required fields. A leaf, so that the request schemas (brief.ts) and the answers that carry a
 * brief (responses/placement.ts) both build on it.
 */

export const BRIEF_TEXT_MAX = 5000;
export const NAME_MAX = 200;
export const TITLE_MAX = 300;

/** A text field of the brief (empty allowed): `label` names it in its messages. */
export const text = (label: string, max = BRIEF_TEXT_MAX) =>
  z.string({ error: `${label} must be text` }).trim().max(max, `${label} must be at most ${max} characters`);
/** A text field the brief needs: `message` when it is empty. */
export const required = (message: string, label: string, max = BRIEF_TEXT_MAX) =>
  z.string({ error: message }).trim().min(1, message).max(max, `${label} must be at most ${max} characters`);

const part1Fields = {
  personOrBrandName: text('Name', NAME_MAX),
  preferredTitle: text('Preferred title', TITLE_MAX),
  backgroundExperience: text('Background and experience'),
  inspiration: text('Inspiration'),
  challengesOvercome: text('Challenges overcome'),
  uniquePerspective: text('Unique perspective'),
  careerHighlights: text('Career highlights'),
  personalAnecdotes: text('Personal anecdotes'),
  futureVision: text('Future vision'),
  additionalInfo: text('Additional information'),
};

const part2Fields = {
  mainGoal: text('Main goal'),
  targetAudience: text('Target audience'),
  mainMessage: text('Main message'),
  specificPoints: text('Specific points'),
  seoKeywords: text('SEO keywords'),
  toneStyleGuidelines: text('Tone and style guidelines'),
  /** one link per line */
  socialMediaLinks: text('Social media links'),
};

export const BRIEF_PART1_FIELDS = Object.keys(part1Fields) as (keyof typeof part1Fields)[];
export const BRIEF_PART2_FIELDS = Object.keys(part2Fields) as (keyof typeof part2Fields)[];
export type BriefPart1Field = keyof typeof part1Fields;
export type BriefPart2Field = keyof typeof part2Fields;

const optionalAll = <T extends Record<string, z.ZodString>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as { [K in keyof T]: z.ZodOptional<T[K]> };

/** Part 1 "About You / Your Brand", as submitted (validated when moving to step 2). */
export const briefPart1Schema = z.object({
  ...optionalAll(part1Fields),
  personOrBrandName: required('Name is required', 'Name', NAME_MAX),
  backgroundExperience: required('Background and experience is required', 'Background and experience'),
});

/** Part 2 "Article Guidelines", as submitted. */
export const briefPart2Schema = z.object({
  ...optionalAll(part2Fields),
  mainGoal: required('Main goal is required', 'Main goal'),
  targetAudience: required('Target audience is required', 'Target audience'),
  mainMessage: required('Main message is required', 'Main message'),
});

/** Autosave: nothing required, same types and limits. */
export const briefPart1DraftSchema = z.object(optionalAll(part1Fields));
export const briefPart2DraftSchema = z.object(optionalAll(part2Fields));

export type BriefPart1 = z.infer<typeof briefPart1DraftSchema>;
export type BriefPart2 = z.infer<typeof briefPart2DraftSchema>;
