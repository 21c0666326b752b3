import { z } from 'zod';
import { fromCents, toCents } from '../money';
import { OPPORTUNITY_TYPES } from '../opportunity';
import { SEARCH_TEXT_MAX } from '../constants';
import { LINK_TYPES, OPPORTUNITY_SEARCH_PARAMS, OPPORTUNITY_SORTS, TOPICS, isLanguage } from '../catalogue';
import { isCountry } from '../countries';

/**
 * The brands' catalogue search: GET /api/opportunities with any of these parameters answers one
 * page (without any, the spec's whole list). The client keeps the same parameters in the browse
 * page's URL, so a search can be bookmarked and shared. Unknown parameters are refused.
 */

const SEARCH_LIMIT_MAX = 100;


/** A parameter given once is a string, repeated an array: a list parameter takes both. */
const list = <T extends readonly [string, ...string[]]>(values: T, name: string) =>
  z
    .union([z.string(), z.array(z.string())], { error: `${name} must be one of ${values.join(', ')}` })
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.enum(values, { error: `${name} must be one of ${values.join(', ')}` })))
    .transform((v) => [...new Set(v)]);

const single = (name: string) => z.string({ error: `${name} must be given once` });

const wholeNumber = (name: string, min: number, max: number) =>
  single(name)
    .regex(/^\d{1,6}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be a whole number from ${min} to ${max}`).max(max, `${name} must be a whole number from ${min} to ${max}`));

/** A price in dollars ("500" or "499.99") as a "500.00" string; compared as numeric by the database. */
const price = (name: string) =>
  single(name).transform((raw, ctx) => {
    const v = raw.trim();
    if (/^\d{1,10}(\.\d{1,2})?$/.test(v)) return fromCents(toCents(v));
    ctx.addIssue({ code: 'custom', message: `${name} must be an amount in dollars, e.g. 500 or 499.99` });
    return z.NEVER;
  });

const bool = (name: string) => single(name).pipe(z.enum(['true', 'false'], { error: `${name} must be true or false` })).transform((v) => v === 'true');

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const opportunitySearchQuerySchema = z
  .object({
    q: single('q')
      .max(SEARCH_TEXT_MAX, `q must be at most ${SEARCH_TEXT_MAX} characters`)
      .transform((v) => v.trim()),
    type: list(OPPORTUNITY_TYPES, 'type'),
    priceMin: price('priceMin'),
    priceMax: price('priceMax'),
    daMin: wholeNumber('daMin', 0, 100),
    daMax: wholeNumber('daMax', 0, 100),
    tatMax: wholeNumber('tatMax', 1, 365),
    linkType: list(LINK_TYPES, 'linkType'),
    topic: list(TOPICS, 'topic'),
    country: single('country').refine(isCountry, 'country must be an ISO 3166-1 alpha-2 code in capitals, e.g. DE'),
    language: single('language').refine(isLanguage, 'language must be an ISO 639-1 code in lower case, e.g. de'),
    deadlineAfter: single('deadlineAfter').refine(
      (v) => DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      'deadlineAfter must be a date as YYYY-MM-DD',
    ).describe('only opportunities whose deadline is after this day (YYYY-MM-DD; a deadline on the day itself is left out) or that have no deadline'),
    multiSlot: bool('multiSlot'),
    fresh: single('fresh')
      .pipe(z.enum(['1', '0', 'true', 'false'], { error: 'fresh must be 1 or 0' }))
      .transform((v) => v === '1' || v === 'true')
      .describe('`1`: only outlets with a metric from an SEO tool of the last 180 days'),
    saved: bool('saved'),
    sort: single('sort').pipe(z.enum(OPPORTUNITY_SORTS, { error: `sort must be one of ${OPPORTUNITY_SORTS.join(', ')}` })),
    limit: wholeNumber('limit', 1, SEARCH_LIMIT_MAX),
    cursor: single('cursor').max(500, 'This page link is no longer valid; reload the list from the start'),
    after: single('after')
      .max(500, 'This page link is no longer valid; reload the list from the start')
      .describe('the plain list\'s next page, as its `Link` names it (not with any other parameter)'),
  })
  .partial()
  .strict()
  .superRefine((q, ctx) => {
    if (q.priceMin !== undefined && q.priceMax !== undefined && toCents(q.priceMin) > toCents(q.priceMax)) {
      ctx.addIssue({ code: 'custom', path: ['priceMax'], message: 'priceMax must not be below priceMin' });
    }
    if (q.after !== undefined && Object.keys(q).length > 1) {
      ctx.addIssue({ code: 'custom', path: ['after'], message: 'after is the plain list\'s next page and takes no other parameter' });
    }
    if (q.daMin !== undefined && q.daMax !== undefined && q.daMin > q.daMax) {
      ctx.addIssue({ code: 'custom', path: ['daMax'], message: 'daMax must not be below daMin' });
    }
  });

export type OpportunitySearchQuery = z.output<typeof opportunitySearchQuerySchema>;

// the schema takes exactly the parameters of OPPORTUNITY_SEARCH_PARAMS: one added to either alone fails here
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameParams: Same<keyof z.input<typeof opportunitySearchQuerySchema>, (typeof OPPORTUNITY_SEARCH_PARAMS)[number]> = true;
void sameParams;
