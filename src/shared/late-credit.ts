/**
 * Credit without a claim (issue 59, decision 049): a placement not published by its "Live by" date
 * (the promise, moved by the time the brand held it) credits the brand LATE_CREDIT_PERCENT of its
 * price for each business day late, up to LATE_CREDIT_MAX_PERCENT, automatically; after
 * LATE_CANCEL_DAYS business days late the brand may cancel for a full refund of what is left.
 */
export const LATE_CREDIT_PERCENT_DEFAULT = 2;
export const LATE_CREDIT_MAX_PERCENT_DEFAULT = 20;
export const LATE_CANCEL_DAYS_DEFAULT = 10;

export interface LateCreditTerms {
  percent: number;
  maxPercent: number;
  cancelDays: number;
}

/** `percent` of `cents`, in whole cents, half-up (integers only: no float sums). */
const percentOfCents = (cents: number, percent: number): number => Math.floor((cents * percent * 2 + 100) / 200);

/**
 * The credit for one more business day late: LATE_CREDIT_PERCENT of the price, never letting the
 * total credited exceed LATE_CREDIT_MAX_PERCENT of it (the last credit is what is left under the
 * cap). 0 when the cap is reached.
 */
export function lateCreditCents(priceCents: number, creditedCents: number, terms: Pick<LateCreditTerms, 'percent' | 'maxPercent'>): number {
  const room = percentOfCents(priceCents, terms.maxPercent) - creditedCents;
  return Math.max(0, Math.min(percentOfCents(priceCents, terms.percent), room));
}

/** The sentence the placement page and the terms show. */
export const lateCreditSentence = (terms: Pick<LateCreditTerms, 'percent' | 'maxPercent'>): string =>
  `Late credit: ${terms.percent}% for each business day late, up to ${terms.maxPercent}%`;
