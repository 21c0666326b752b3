// Pure helpers for Admin Projects (no DOM, no React): where a project belongs, how a brief reads.
// Relative imports on purpose: the unit tests run without the client's path aliases.
import { formatUsd } from '../../../../../shared/money';
import { OPPORTUNITY_TYPE_LABELS, isOpportunityType } from '../../../../../shared/opportunity';
import { isUnderReview } from '../../../../../shared/payment';
import type { AdminPlacementItem, BriefPart1, BriefPart1Field, BriefPart2, BriefPart2Field, PlacementPayment, ProjectTab } from '../../../../../shared/schemas/brief';

/** The server places projects in tabs (modules/placements/tabs.ts). */
export type { ProjectTab } from '../../../../../shared/schemas/brief';

export interface BriefField<K extends string> {
  key: K;
  label: string;
  required: boolean;
}

export const PART1_HEADING = 'Part 1: About You / Your Brand';
export const PART2_HEADING = 'Part 2: Article Guidelines';

/** In the order the brand fills them in; a typed list, so a new brief field cannot be forgotten. */
export const PART1_FIELDS: BriefField<BriefPart1Field>[] = [
  { key: 'personOrBrandName', label: 'Name', required: true },
  { key: 'preferredTitle', label: 'Preferred Title', required: false },
  { key: 'backgroundExperience', label: 'Background & Experience', required: true },
  { key: 'inspiration', label: 'Inspiration', required: false },
  { key: 'challengesOvercome', label: 'Challenges Overcome', required: false },
  { key: 'uniquePerspective', label: 'Unique Perspective', required: false },
  { key: 'careerHighlights', label: 'Career Highlights', required: false },
  { key: 'personalAnecdotes', label: 'Personal Anecdotes', required: false },
  { key: 'futureVision', label: 'Future Vision', required: false },
  { key: 'additionalInfo', label: 'Additional Information', required: false },
];

export const PART2_FIELDS: BriefField<BriefPart2Field>[] = [
  { key: 'mainGoal', label: 'Main Goal', required: true },
  { key: 'targetAudience', label: 'Target Audience', required: true },
  { key: 'mainMessage', label: 'Main Message', required: true },
  { key: 'specificPoints', label: 'Specific Points', required: false },
  { key: 'seoKeywords', label: 'SEO Keywords', required: false },
  { key: 'toneStyleGuidelines', label: 'Tone & Style', required: false },
  { key: 'socialMediaLinks', label: 'Social Media Links', required: false },
];

const NOT_AVAILABLE = 'N/A';

/** The rows a brief part shows: optional fields only when filled, required ones always (N/A when missing). */
export function briefRows<K extends string>(fields: BriefField<K>[], part: Partial<Record<K, string>> | undefined) {
  return fields.flatMap((f) => {
    const value = part?.[f.key]?.trim() ?? '';
    if (!value && !f.required) return [];
    return [{ ...f, value: value || NOT_AVAILABLE, missing: !value }];
  });
}

/** Social links: split on spaces, commas and line breaks. */
export const splitLinks = (value: string | undefined) => (value ?? '').split(/[\s,]+/).filter(Boolean);

/** https:// is added when a link does not start with http:// or https://, so every link is a web address. */
export const linkHref = (link: string) => (/^https?:\/\//i.test(link) ? link : `https://${link}`);

// spec: the brand name, or the person's name when there is none
export const brandOf = (user: AdminPlacementItem['user']) => user.brandName || user.name || '—';

export const typeLabel = (types: string[]) => {
  const first = types[0];
  return first && isOpportunityType(first) ? OPPORTUNITY_TYPE_LABELS[first] : (first ?? '');
};

const underline = (text: string, char: string) => `${text}\n${char.repeat(text.length)}`;
const RULE = '-'.repeat(60);

function partText<K extends string>(heading: string, fields: BriefField<K>[], part: Partial<Record<K, string>> | undefined) {
  const rows = briefRows(fields, part).map((r) => {
    const value = r.key === 'socialMediaLinks' && !r.missing ? splitLinks(r.value).map((l) => `- ${linkHref(l)}`).join('\n') : r.value;
    return `${r.label}:\n${value}`;
  });
  return [underline(heading.toUpperCase(), '='), ...rows].join('\n\n');
}

/** The Projects tab a placement is in (modules/placements/tabs.ts, the same rules): its page says it too. */
export function projectTabOf(payment: Pick<PlacementPayment, 'status' | 'draftReviewStatus'>): ProjectTab {
  if (payment.status === 'released') return 'published';
  if (payment.status === 'refunded') return 'refunded';
  if (payment.draftReviewStatus === 'approved') return 'approved';
  return isUnderReview(payment.draftReviewStatus) ? 'review' : 'awaiting';
}

/**
 * What Copy Brief copies: a placement with its brief (an admin's Projects item, or a brand's own
 * placement with the brief it saved; a brand's copy names no brand and may be a draft).
 */
export interface CopiedBrief {
  title: string;
  outletName: string;
  type: string[];
  /** absent from a client reviewer's copy (decision 035): then no price line */
  priceUsd?: string;
  user?: AdminPlacementItem['user'];
  brief: { part1Json: BriefPart1; part2Json: BriefPart2; submittedAt: string | null } | null;
}

/** The plain-text brief that Copy Brief puts on the clipboard. */
export function briefToText(item: CopiedBrief): string {
  const brief = item.brief;
  const header = [
    underline('CONTENT BRIEF', '='),
    `Opportunity: ${item.title}`,
    `Outlet: ${item.outletName}`,
    `Type: ${typeLabel(item.type)}`,
    ...(item.user ? [`Brand: ${brandOf(item.user)} <${item.user.email}>`] : []),
    ...(item.priceUsd !== undefined ? [`Price: ${formatUsd(item.priceUsd)}`] : []),
    ...(brief?.submittedAt ? [`Submitted: ${brief.submittedAt.slice(0, 10)}`] : []),
  ].join('\n');
  if (!brief) return `${header}\n\nThe brand has not submitted the brief yet.\n`;
  return [
    header,
    RULE,
    partText(PART1_HEADING, PART1_FIELDS, brief.part1Json),
    RULE,
    partText(PART2_HEADING, PART2_FIELDS, brief.part2Json),
  ].join('\n\n') + '\n';
}
