import { z } from 'zod';
import { LINK_TYPES } from '../../catalogue';
import { CHECK_PROBLEM_CODES, PUBLICATION_HEALTHS, RELEASE_SKIPS } from '../../enums';
import { brandContactSchema, clientRefSchema, organisationRefSchema, countsOf, decimal, timestamp } from './common';

/** One check of the live page. */
export const publicationCheckResultSchema = z
  .object({
    result: z.enum(['pass', 'warning', 'fail']),
    checkedAt: timestamp,
    httpStatus: z.number().int().nullable(),
    finalUrl: z.string().nullable().describe('where the redirects ended'),
    indexable: z.boolean().nullable(),
    link: z
      .object({
        found: z.boolean(),
        rel: z.enum([...LINK_TYPES, 'ugc']).nullable(),
        site: z
          .string()
          .optional()
          .describe('the site the link found goes to (the client’s, or the buyer’s): absent when none was found, and on checks before issue 57'),
      })
      .describe('the link to the brand’s website (a placement bought for a client: to one of the client’s)'),
    title: z.string().nullable(),
    problems: z.array(z.object({ code: z.enum(CHECK_PROBLEM_CODES), message: z.string() })),
  })
  .meta({ id: 'PublicationCheck' });

/** A placement's publication as my-articles and admin items carry it (null before publication). */
export const publicationSchema = z
  .object({
    url: z.string().nullable().describe('the live article; null when it was released without a live link'),
    health: z.enum(PUBLICATION_HEALTHS),
    verifiedAt: timestamp
      .nullable()
      .describe('when the live page first passed its check (or was accepted with a reason)'),
    guaranteeEndsAt: timestamp,
    overrideReason: z
      .string()
      .nullable()
      .describe('the admin’s reason for publishing although the check found problems'),
    releasedWithout: z
      .array(z.enum(RELEASE_SKIPS))
      .describe('what the release went without (issue 57): `live_url`, released by the spec’s call, no page checked; `approval`, the brand had not approved the draft'),
    lastCheck: publicationCheckResultSchema.nullable(),
    issue: z
      .object({ reason: z.string(), openedAt: timestamp, restoreBy: timestamp, evidence: publicationCheckResultSchema })
      .nullable()
      .describe('an open case: a confirmed problem the outlet must fix by `restoreBy`, or the brand is refunded'),
    restoredAt: timestamp.nullable().describe('when the last case closed because the article passed its check again'),
  })
  .meta({ id: 'Publication' });

/** GET /api/admin/placements item: a published placement and its health. */
export const livePlacementItemSchema = z
  .object({
    paymentId: z.guid(),
    title: z.string(),
    outletName: z.string(),
    brand: brandContactSchema,
    organisation: organisationRefSchema,
    client: clientRefSchema,
    brandWebsite: z
      .string()
      .nullable()
      .describe('the website a link is looked for: the client’s (its first) for a placement bought for a client with websites, else the buyer’s profile’s'),
    amount: decimal,
    refundedAmount: decimal.describe('given back so far (issue 47)'),
    publishedAt: timestamp,
    nextCheckAt: timestamp.nullable(),
    failingSince: timestamp
      .nullable()
      .describe('a failing check not confirmed yet (a case opens if the next one, an hour later, fails too)'),
    publication: publicationSchema,
  })
  .meta({ id: 'LivePlacementItem' });

/**
 * GET /api/admin/placements/counts: placements by health, and the open cases (the sidebar's count),
 * in the order the answer has always had (its JSON is written in the schema's order).
 */
export const placementCountsSchema = countsOf(['all', ...PUBLICATION_HEALTHS, 'issues']).meta({
  id: 'PlacementCounts',
});

/** PUT /api/admin/payments/{id}/publication: the check the new URL passed (or was accepted with). */
export const publicationSetSchema = z.object({ ok: z.literal(true), check: publicationCheckResultSchema });
