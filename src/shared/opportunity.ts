/**
 * Opportunities (spec §3): types, their labels and explanations, statuses, and the JSON the API
 * returns. Shared by the server and the client; no Node or DOM APIs.
 */

import type { z } from 'zod';
import type {
  adminOpportunityItemSchema,
  brandOpportunityItemSchema,
  brandOpportunitySchema,
  opportunitySchema,
} from './schemas/responses/opportunity';
import { OPPORTUNITY_TYPES, type OpportunityStatus, type OpportunityType } from './enums';

// the lists themselves live in the leaf enums.ts, which the response schemas build on
export { OPPORTUNITY_STATUSES, OPPORTUNITY_TYPES } from './enums';
export type { OpportunityStatus, OpportunityType } from './enums';

/** Full label (badges, form checkboxes). */
export const OPPORTUNITY_TYPE_LABELS: Record<OpportunityType, string> = {
  profile_article: 'Profile Article',
  editorial_feature: 'Editorial Feature',
  advertorial_brand_voice: 'Advertorial (Brand Voice)',
  listicle: 'Listicle',
};

/** Short label (the brand browse tabs). */
export const OPPORTUNITY_TYPE_SHORT_LABELS: Record<OpportunityType, string> = {
  profile_article: 'Profile',
  editorial_feature: 'Editorial',
  advertorial_brand_voice: 'Advertorial',
  listicle: 'Listicle',
};

/** The paragraph each non-All browse tab shows (spec §3 descriptions). */
export const OPPORTUNITY_TYPE_DESCRIPTIONS: Record<OpportunityType, string> = {
  profile_article:
    "A profile article is an in-depth story about your company, founder or product, written by the publication's own journalists.",
  editorial_feature: 'An editorial feature covers your company as part of a larger industry story.',
  advertorial_brand_voice: "An advertorial is sponsored content published in your brand's own voice.",
  listicle: 'A listicle features your brand as one entry in a curated list.',
};

export const OPPORTUNITY_STATUS_LABELS: Record<OpportunityStatus, string> = {
  available: 'Available',
  claimed: 'Claimed',
  in_progress: 'In Progress',
  published: 'Published',
  full: 'Full',
};

export const isOpportunityType = (v: unknown): v is OpportunityType =>
  typeof v === 'string' && (OPPORTUNITY_TYPES as readonly string[]).includes(v);

// The API's opportunity shapes; their schemas (and what each member means): schemas/responses/opportunity.ts
/** An opportunity as the admin API returns it. */
export type Opportunity = z.infer<typeof opportunitySchema>;
/** A row of the admin dashboard: whether any payment was made for it (the "Mark Published" button). */
export type AdminOpportunityItem = z.infer<typeof adminOpportunityItemSchema>;
/** What GET /api/opportunities returns to brands: only available ones, so no status. */
export type BrandOpportunity = z.infer<typeof brandOpportunitySchema>;

/** The brands' search's page size when `limit` is not given (zod-free: the browse page's first chunk uses it). */
export const SEARCH_LIMIT_DEFAULT = 24;

/**
 * An item of the brands' search (GET /api/opportunities with parameters, GET /api/brand/saved):
 * whether this brand saved it, and whether it can no longer be bought.
 */
export type BrandOpportunityItem = z.infer<typeof brandOpportunityItemSchema>;

/** "YYYY-MM-DD" of a deadline (its UTC calendar day), e.g. for a date input. */
export function deadlineDay(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}

const chipFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const longFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "Mar 5": the browse card's deadline chip ("Deadline {Mon d}"); remembered, a list repeats dates. */
const chipCache = new Map<string, string>();
export function formatDeadlineShort(iso: string): string {
  let text = chipCache.get(iso);
  if (text === undefined) {
    if (chipCache.size >= 1000) chipCache.clear();
    text = chipFormat.format(new Date(iso));
    chipCache.set(iso, text);
  }
  return text;
}
/** "Mar 5, 2027": the claim dialog's "Last date to purchase". */
export const formatDeadlineLong = (iso: string) => longFormat.format(new Date(iso));

/** Slots left, never below 0. */
export const remainingSlots = (o: Pick<Opportunity, 'maxSlots' | 'filledSlots'>) =>
  Math.max(0, o.maxSlots - o.filledSlots);

/** Availability bar percent (filled share), clamped to 0-100. */
export function filledPercent(o: Pick<Opportunity, 'maxSlots' | 'filledSlots'>): number {
  if (o.maxSlots <= 0) return 100;
  return Math.min(100, Math.max(0, Math.round((o.filledSlots / o.maxSlots) * 100)));
}
