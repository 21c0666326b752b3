export type Role = 'admin' | 'brand';

export const MIN_PASSWORD_LENGTH = 8;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
export const DOCUMENT_MAX_BYTES = 25 * 1024 * 1024;
export const EDIT_FEEDBACK_MAX = 1000;
/** The longest words a search takes (the catalogue's and the admin lists'; every search box stops there). */
export const SEARCH_TEXT_MAX = 200;
/**
 * The most matching opportunities the brands' catalogue search counts (GET /api/opportunities with
 * parameters, first page only): `X-Total-Count` is the exact number up to this, and `1000+` (this
 * number and a plus) when more match; the page then says "1,000+ opportunities". Counting every
 * match of a broad search (up to every claimable opportunity) cost ~80-100 ms of PostgreSQL a search
 * at 100,000 opportunities; counting at most this many costs a few.
 */
export const SEARCH_COUNT_CAP = 1000;
export const MAX_EXAMPLES = 3;
/** Spec §9: the escrow refund guarantee, 90 days. Every text that names the term is made from this. */
export const GUARANTEE_DAYS = 90;
/** A day in milliseconds. */
export const DAY_MS = 86_400_000;
/** Days a brand has to choose an alternative for a placement the outlet declined; then it is refunded in full (issue 46). */
export const SWAP_DAYS = 7;

/** The fair terms' defaults (issue 47; settings REVISIONS_INCLUDED, RESPONSE_DAYS). */
export const REVISIONS_INCLUDED_DEFAULT = 2;
export const RESPONSE_DAYS_DEFAULT = 3;
export const DISPUTE_DAYS_DEFAULT = 7;
/** Days the brand has to accept an offer or escalate after the editorial team answers a dispute. */
export const ESCALATE_DAYS = 3;
/** Days the admin an escalation goes to has to decide it. */
export const DECIDE_DAYS = 10;
/** How many alternatives a declined placement is offered. */
export const SWAP_OPTIONS = 5;
/** When the guarantee refunds a payment still held: GUARANTEE_DAYS after it was paid (the refund job, the receipt's date). */
export const guaranteeRefundAt = (paidAt: Date): Date => new Date(paidAt.getTime() + GUARANTEE_DAYS * DAY_MS);
/** "90-Day Guarantee" (the claim dialog's heading, spec §2). */
export const GUARANTEE_TITLE = `${GUARANTEE_DAYS}-Day Guarantee`;
/** "90-day guarantee", in a sentence. */
export const GUARANTEE_NAME = `${GUARANTEE_DAYS}-day guarantee`;

export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
export const MOBILE_BREAKPOINT = 768;

/** Days the editorial team has for a draft once the brief is in, when the opportunity states no turnaround in days. */
export const DRAFT_DUE_DAYS_DEFAULT = 14;
