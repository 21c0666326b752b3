// Relative imports on purpose: the unit tests run without the client's path aliases.
import { isOpportunityType, type OpportunityType } from '../../../../../shared/opportunity';
import type { BriefPart1Field, BriefPart2Field } from '../../../../../shared/schemas/brief';
import { PART1_FIELDS, PART2_FIELDS, type FieldDef } from './brief-fields';

/**
 * The brief asks what the content bought needs (issue 57): a profile is an interview, while a
 * listicle entry, a sponsored article in the brand's voice and a mention in an industry feature
 * need facts about the brand, not its founder's anecdotes. Every type keeps the brief's fields (one
 * brief, the spec's): each shows the questions it needs, worded for it; a question it does not
 * need is left out unless it already holds an answer (a copied brief, a template).
 */
type Question = Partial<Pick<FieldDef<string>, 'label' | 'hint' | 'placeholder' | 'requiredMessage'>>;
type Questions<K extends string> = Partial<Record<K, Question>>;

interface TypeQuestions {
  /** the card's line under "About You / Your Brand" */
  intro: string;
  part1: Questions<BriefPart1Field>;
  part2?: Questions<BriefPart2Field>;
}

const BRAND_BACKGROUND = 'Tell us about your brand is required';

const BRIEF_QUESTIONS: Record<OpportunityType, TypeQuestions> = {
  // the spec's questionnaire as it is: an interview
  profile_article: {
    intro: 'Tell the journalist who you are and what makes your story worth telling.',
    part1: {
      personOrBrandName: {},
      preferredTitle: {},
      backgroundExperience: {},
      inspiration: {},
      challengesOvercome: {},
      uniquePerspective: {},
      careerHighlights: {},
      personalAnecdotes: {},
      futureVision: {},
      additionalInfo: {},
    },
  },
  editorial_feature: {
    intro: 'Your company is covered within a larger industry story: tell the editors what it does and what it can add.',
    part1: {
      personOrBrandName: { label: 'Company (or spokesperson) to feature', placeholder: 'e.g. Acme, with Jane Doe as spokesperson' },
      preferredTitle: { label: 'Spokesperson’s title, if quoted', placeholder: 'e.g. Head of Research' },
      backgroundExperience: {
        label: 'What your company does',
        hint: 'Its products or services, its customers and its place in the market.',
        requiredMessage: 'Say what your company does',
      },
      uniquePerspective: { label: 'Your view on the industry', hint: 'The opinion or insight the editors can quote.' },
      careerHighlights: { label: 'Results and milestones to cite', hint: 'Figures, launches, customers, awards.' },
      futureVision: { label: 'Where your market is going' },
      additionalInfo: { label: 'Anything else the editors should know' },
    },
  },
  advertorial_brand_voice: {
    intro: 'A sponsored article in your brand’s voice: tell the outlet about the brand, its proof points and its offer.',
    part1: {
      personOrBrandName: { label: 'Brand to feature', placeholder: 'e.g. Acme Coffee' },
      backgroundExperience: {
        label: 'About your brand',
        hint: 'What it sells, to whom, and why people choose it.',
        requiredMessage: BRAND_BACKGROUND,
      },
      uniquePerspective: { label: 'What sets your brand apart' },
      careerHighlights: { label: 'Proof points', hint: 'Results, reviews, customers, awards.' },
      additionalInfo: { label: 'Offer, call to action or links to include' },
    },
    part2: {
      toneStyleGuidelines: { label: 'Your brand’s voice', hint: 'Tone, words to use and words to avoid.' },
    },
  },
  listicle: {
    intro: 'Your brand is one entry in a curated list: give the editors what the entry needs.',
    part1: {
      personOrBrandName: { label: 'Brand or product to list', placeholder: 'e.g. Acme Trail Shoes' },
      backgroundExperience: {
        label: 'What it is and who it is for',
        hint: 'A short description the entry can use.',
        requiredMessage: 'Say what it is and who it is for',
      },
      uniquePerspective: { label: 'Why it belongs on the list', hint: 'What makes it stand out from the others listed.' },
      additionalInfo: { label: 'Price, availability or anything else' },
    },
    part2: {
      specificPoints: { label: 'Points the entry must mention' },
    },
  },
};

function fieldsFor<K extends string>(
  base: FieldDef<K>[],
  types: readonly string[],
  part: (q: TypeQuestions) => Questions<K> | undefined,
  values: Partial<Record<K, string>>,
  all: boolean,
): FieldDef<K>[] {
  const known = types.filter(isOpportunityType);
  // several types: every question any of them asks, worded for the first
  const asked = known.map((t): Questions<K> => part(BRIEF_QUESTIONS[t]) ?? {});
  return base.flatMap((f) => {
    const worded = asked.find((q) => q[f.name]);
    const filled = Boolean(values[f.name]?.trim());
    if (!all && !worded && !f.required && !filled) return [];
    return [{ ...f, ...(worded?.[f.name] ?? {}) }];
  });
}

/** Part 1's questions for the types bought (unknown types: the spec's whole questionnaire). */
export function part1Questions(types: readonly string[], values: Partial<Record<BriefPart1Field, string>>) {
  const all = !types.some(isOpportunityType);
  return fieldsFor(PART1_FIELDS, types, (q) => q.part1, values, all);
}

/** Part 2's questions: every one, some worded for the type. */
export function part2Questions(types: readonly string[]) {
  return fieldsFor(PART2_FIELDS, types, (q) => q.part2, {}, true);
}

/** The line under part 1's title, for the first type bought. */
export function briefIntro(types: readonly string[]): string {
  const first = types.find(isOpportunityType);
  return first ? BRIEF_QUESTIONS[first].intro : BRIEF_QUESTIONS.profile_article.intro;
}
