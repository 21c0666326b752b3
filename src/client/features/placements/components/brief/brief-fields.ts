// Relative imports on purpose: the unit tests (brief-questions) run without the client's path aliases.
import { BRIEF_TEXT_MAX, type BriefPart1Field, type BriefPart2Field, type OlderBriefPart1, type OlderBriefPart2 } from '../../../../../shared/schemas/brief';

export interface FieldDef<K extends string> {
  name: K;
  label: string;
  hint?: string;
  placeholder?: string;
  required?: boolean;
  /** a one-line input instead of a textarea */
  short?: boolean;
  max: number;
  rows?: number;
  /** the message of a required field left empty, in this wording's words (the schema's otherwise) */
  requiredMessage?: string;
}

/** Part 1 "About You / Your Brand" (the current form). Limits match the shared schema. */
export const PART1_FIELDS: FieldDef<BriefPart1Field>[] = [
  { name: 'personOrBrandName', label: 'Name (person or brand) to feature', required: true, short: true, max: 200, placeholder: 'e.g. Jane Doe, founder of Acme' },
  { name: 'preferredTitle', label: 'Preferred title', short: true, max: 300, placeholder: 'e.g. Founder & CEO' },
  {
    name: 'backgroundExperience',
    label: 'Background and experience',
    required: true,
    max: BRIEF_TEXT_MAX,
    rows: 5,
    hint: 'Your story so far: career, company and what you do today.',
  },
  { name: 'inspiration', label: 'What inspired you', max: BRIEF_TEXT_MAX },
  { name: 'challengesOvercome', label: "Challenges you've overcome", max: BRIEF_TEXT_MAX },
  { name: 'uniquePerspective', label: 'What makes your perspective unique', max: BRIEF_TEXT_MAX },
  { name: 'careerHighlights', label: 'Career highlights', max: BRIEF_TEXT_MAX },
  { name: 'personalAnecdotes', label: 'Personal anecdotes', max: BRIEF_TEXT_MAX },
  { name: 'futureVision', label: 'Vision for the future', max: BRIEF_TEXT_MAX },
  { name: 'additionalInfo', label: 'Anything else we should know', max: BRIEF_TEXT_MAX },
];

/** Part 2 "Article Guidelines". */
export const PART2_FIELDS: FieldDef<BriefPart2Field>[] = [
  { name: 'mainGoal', label: 'Main goal of the article', required: true, max: BRIEF_TEXT_MAX, placeholder: 'e.g. Build trust with enterprise buyers' },
  { name: 'targetAudience', label: 'Target audience', required: true, max: BRIEF_TEXT_MAX, placeholder: 'e.g. CTOs at mid-sized fintech companies' },
  { name: 'mainMessage', label: 'Main message', required: true, max: BRIEF_TEXT_MAX, hint: 'The one thing readers should remember.' },
  { name: 'specificPoints', label: 'Specific points to include', max: BRIEF_TEXT_MAX },
  { name: 'seoKeywords', label: 'SEO keywords', max: BRIEF_TEXT_MAX, placeholder: 'e.g. payments api, fintech infrastructure' },
  { name: 'toneStyleGuidelines', label: 'Tone and style guidelines', max: BRIEF_TEXT_MAX },
  {
    name: 'socialMediaLinks',
    label: 'Social media links',
    max: BRIEF_TEXT_MAX,
    hint: 'One link per line.',
    placeholder: 'https://www.linkedin.com/in/…\nhttps://x.com/…',
  },
];

/** The form's values: every field as a string ('' when empty). */
export function formValues<K extends string>(fields: FieldDef<K>[], stored: Partial<Record<K, string>> | undefined): Record<K, string> {
  return Object.fromEntries(fields.map((f) => [f.name, stored?.[f.name] ?? ''])) as Record<K, string>;
}

/** The older form ("Submit Your Brief"), part 1 "Your Story". Limits match the shared older schemas. */
export const OLDER_PART1_FIELDS: FieldDef<keyof OlderBriefPart1>[] = [
  { name: 'nameForArticles', label: 'Name to use in articles', required: true, short: true, max: 200, placeholder: 'e.g. Jane Doe' },
  { name: 'preferredTitle', label: 'Preferred title', short: true, max: 300, placeholder: 'e.g. Founder & CEO' },
  { name: 'background', label: 'Your background', required: true, max: BRIEF_TEXT_MAX, rows: 5 },
  { name: 'inspiration', label: 'What inspired you', max: BRIEF_TEXT_MAX },
  { name: 'challenges', label: "Challenges you've faced", max: BRIEF_TEXT_MAX },
  { name: 'differentiation', label: 'What sets you apart', max: BRIEF_TEXT_MAX },
  { name: 'highlights', label: 'Highlights', max: BRIEF_TEXT_MAX },
  { name: 'anecdotes', label: 'Anecdotes', max: BRIEF_TEXT_MAX },
  { name: 'futureVision', label: 'Vision for the future', max: BRIEF_TEXT_MAX },
  { name: 'titleIdeas', label: 'Title ideas', max: 1000 },
  { name: 'referenceLinks', label: 'Reference links', max: 1400, hint: 'One link per line.' },
  { name: 'extra', label: 'Anything else', max: 2500 },
];

/** The older form, part 2 "Goals & Strategy". */
export const OLDER_PART2_FIELDS: FieldDef<keyof OlderBriefPart2>[] = [
  { name: 'goal', label: 'Goal of the article', required: true, max: BRIEF_TEXT_MAX },
  { name: 'audience', label: 'Audience', required: true, max: BRIEF_TEXT_MAX },
  { name: 'mainMessage', label: 'Main message', required: true, max: BRIEF_TEXT_MAX },
  { name: 'keyPoints', label: 'Key points', max: 3000 },
  { name: 'seoKeywords', label: 'SEO keywords', max: BRIEF_TEXT_MAX },
  { name: 'tone', label: 'Tone', max: BRIEF_TEXT_MAX },
  { name: 'excludedInfo', label: 'Information to leave out', max: 1900 },
  { name: 'socialLinks', label: 'Social links', max: BRIEF_TEXT_MAX, hint: 'One link per line.' },
];
