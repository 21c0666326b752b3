import { z } from 'zod';
import { LINK_TYPES, TOPICS } from '../../catalogue';
import { OPPORTUNITY_STATUSES, OPPORTUNITY_TYPES } from '../../enums';
import { decimal, id, timestamp, version } from './common';
import { outletMetricValueSchema } from './outlet-metric';
import { PROMISE_BASES } from '../../promise';

/** An opportunity as the admin API returns it. */
export const opportunitySchema = z
  .object({
    id,
    title: z.string(),
    outletName: z.string(),
    outletUrl: z.string().nullable(),
    description: z.string(),
    type: z.array(z.enum(OPPORTUNITY_TYPES)).describe('one or more; the admin table shows only the first'),
    tat: z.string().nullable().describe('turnaround time, free text ("2-3 weeks")'),
    priceUsd: decimal,
    logoUrl: z.string().nullable(),
    exampleUrls: z.array(z.string()),
    maxSlots: z.number().int(),
    filledSlots: z.number().int(),
    domainAuthority: z.number().int().nullable(),
    deadlineDate: timestamp
      .nullable()
      .describe(
        '00:00 UTC of the last UTC day to claim (format it in UTC: local time shows the day before west of UTC), or null for no deadline',
      ),
    status: z.enum(OPPORTUNITY_STATUSES),
    createdAt: timestamp,
    tatDays: z
      .number()
      .int()
      .nullable()
      .describe('turnaround in days, for the "at most N days" filter (`tat` is what cards show)'),
    linkType: z
      .enum(LINK_TYPES)
      .nullable()
      .describe('the link the outlet gives; null: not stated (the publication check then expects dofollow)'),
    topics: z.array(z.enum(TOPICS)),
    country: z.string().nullable().describe('ISO 3166-1 alpha-2 of the outlet’s country, e.g. "DE"'),
    language: z.string().nullable().describe('ISO 639-1 of the outlet’s language, e.g. "de"'),
    outletId: id
      .nullable()
      .describe('its outlet (GET /api/outlets/{id}), one per website host: set by the database for every opportunity'),
  })
  .meta({ id: 'Opportunity' });

/** GET /api/admin/opportunities/{id} and its PATCH: the opportunity with the version the form sends back. */
export const versionedOpportunitySchema = opportunitySchema.extend({ version }).meta({ id: 'VersionedOpportunity' });

/** A row of the admin dashboard: whether any payment was made for it (the "Mark Published" button). */
export const adminOpportunityItemSchema = opportunitySchema
  .extend({ hasPayments: z.boolean() })
  .meta({ id: 'AdminOpportunityItem' });

/** The promise of a purchase made today (issue 59): the placement bought keeps its own (`promisedBy`). */
export const promiseSchema = z
  .object({
    liveBy: timestamp.describe('the day the article is live by if bought today (its date; the placement bought keeps the moment): the P90 of the outlet’s record, else its listed turnaround'),
    usuallyBy: timestamp.nullable().describe('the P50 day of the outlet’s record; null when the promise is from the listed turnaround'),
    basis: z.enum(PROMISE_BASES).describe('`record`: the outlet’s measured days from brief to publication (at least PROMISE_MIN_DELIVERIES deliveries); `listed`: its listed turnaround'),
  })
  .meta({ id: 'Promise' });

/** What GET /api/opportunities returns to brands: only available ones, so no status. */
export const brandOpportunitySchema = opportunitySchema
  .omit({ status: true })
  .extend({
    promise: promiseSchema
      .nullable()
      .describe('"Live by": BRIEF_DAYS for the brief and then the outlet’s days to publish, in business days (Mon–Fri, UTC); null: neither a record nor a listed turnaround'),
  })
  .meta({ id: 'BrandOpportunity' });

/**
 * An item of the brands' search (GET /api/opportunities with parameters, GET /api/brand/saved):
 * whether this brand saved it, and whether it can no longer be bought (full, or its deadline
 * passed; only saved ones are listed then).
 */
export const brandOpportunityItemSchema = brandOpportunitySchema
  .extend({
    saved: z.boolean(),
    soldOut: z.boolean(),
    outlet: z
      .object({
        delivered: z.number().int().min(0).describe('its placements published'),
        onTimeRate: z.number().min(0).max(1).nullable().describe('the share published within the turnaround; null: none timed'),
        metrics: z.array(outletMetricValueSchema).describe('the newest value of each metric an SEO tool reported, with its date'),
      })
      .nullable()
      .describe('its outlet in short (GET /api/outlets/{outletId} has the whole record)'),
  })
  .meta({ id: 'BrandOpportunityItem' });
