/**
 * Opportunities (spec §3): types, their labels and explanations, statuses, and the JSON the API
 * returns. Shared by the server and the client; no Node or DOM APIs.
 */

import type { LinkType, Topic } from './catalogue';

export const OPPORTUNITY_TYPES = [
  'profile_article',
  'editorial_feature',
  'advertorial_brand_voice',
  'listicle',
] as const;
export type OpportunityType = (typeof OPPORTUNITY_TYPES)[number];

export const OPPORTUNITY_STATUSES = ['available', 'claimed', 'in_progress', 'published', 'full'] as const;
export type OpportunityStatus = (typeof OPPORTUNITY_STATUSES)[number];

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

/** An opportunity as the admin API returns it. */
export interface Opportunity {
  id: string;
  title: string;
  outletName: string;
  outletUrl: string | null;
  description: string;
  /** One or more; the admin table shows only the first. */
  type: OpportunityType[];
  /** Turnaround time, free text ("2-3 weeks"). */
  tat: string | null;
  /** Decimal string with 2 places, e.g. "1234.50". Use toCents/formatUsd from money.ts. */
  priceUsd: string;
  logoUrl: string | null;
  exampleUrls: string[];
  maxSlots: number;
  filledSlots: number;
  domainAuthority: number | null;
  /**
   * ISO timestamp of the last UTC day to claim (stored at 00:00 UTC), or null for no deadline.
   * Format it with the UTC helpers below: a local-time formatter shows the day before west of UTC.
   */
  deadlineDate: string | null;
  status: OpportunityStatus;
  createdAt: string;
  /** Turnaround in days, for the "at most N days" filter (the `tat` text is what cards show). */
  tatDays: number | null;
  /** The link the outlet gives; null: not stated (the publication check then expects dofollow). */
  linkType: LinkType | null;
  topics: Topic[];
  /** ISO 3166-1 alpha-2 of the outlet's country, e.g. "DE". */
  country: string | null;
  /** ISO 639-1 of the outlet's language, e.g. "de". */
  language: string | null;
}

/** A row of the admin dashboard: whether any payment was made for it (the "Mark Published" button). */
export interface AdminOpportunityItem extends Opportunity {
  hasPayments: boolean;
}

/** What GET /api/opportunities returns to brands: only available ones, so no status. */
export type BrandOpportunity = Omit<Opportunity, 'status'>;

/** The brands' search's page size when `limit` is not given (zod-free: the browse page's first chunk uses it). */
export const SEARCH_LIMIT_DEFAULT = 24;

/**
 * An item of the brands' search (GET /api/opportunities with parameters, GET /api/brand/saved):
 * whether this brand saved it, and whether it can no longer be bought (full, or its deadline
 * passed; only saved ones are listed then).
 */
export interface BrandOpportunityItem extends BrandOpportunity {
  saved: boolean;
  soldOut: boolean;
}

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
