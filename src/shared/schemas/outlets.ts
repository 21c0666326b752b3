import { z } from 'zod';
import { IMPORT_SOURCES, METRIC_STALE_DAYS, OUTLET_METRICS } from '../outlets';
import { outletMetricValueSchema } from './responses/outlet-metric';
import { brandOpportunitySchema } from './responses/opportunity';
import { errorCodeSchema, errorSchema, id, timestamp } from './responses/common';

const share = z.number().min(0).max(1).nullable();

/** Byline's own record of an outlet, from its placements and checks. */
const outletRecordSchema = z
  .object({
    delivered: z.number().int().min(0).describe('placements published'),
    onTimeRate: share.describe('of those with a turnaround in days, the share published within it; null: none'),
    onTime: z
      .object({ n: z.number().int().min(0), m: z.number().int().min(0) })
      .describe('of `m` placements published with a turnaround in days, `n` were published within it'),
    medianDaysToPublish: z.number().nullable().describe('from payment to publication; null: none published'),
    survival30: share.describe('of the live links published 30+ days ago, the share still live at day 30'),
    survival90: share.describe('of the live links published 90+ days ago, the share still live at day 90'),
    deliveredAsListed: z
      .object({ n: z.number().int().min(0), m: z.number().int().min(0) })
      .describe('of `m` live links checked, `n` had the promised link type on an indexable page'),
    promiseDays: z
      .object({ p50: z.number().int().min(0), p90: z.number().int().min(0) })
      .nullable()
      .describe('business days from brief to publication over its last 50 deliveries, P50 and P90: what its "Live by" promise counts (issue 59); null below PROMISE_MIN_DELIVERIES'),
  })
  .meta({ id: 'OutletRecord' });

/** GET /api/outlets/{id}. */
export const outletDetailSchema = z
  .object({
    id,
    host: z.string().nullable().describe('its website’s host; null for an outlet known only by name'),
    name: z.string(),
    url: z.string().nullable(),
    logoUrl: z.string().nullable(),
    country: z.string().nullable(),
    language: z.string().nullable(),
    topics: z.array(z.string()),
    metrics: z.array(outletMetricValueSchema),
    record: outletRecordSchema,
    opportunities: z.array(brandOpportunitySchema).describe('what a brand can buy from it now, newest first'),
  })
  .meta({ id: 'OutletDetail' });

export const metricsImportQuerySchema = z.object({
  source: z.enum(IMPORT_SOURCES, { error: 'Choose the tool the file comes from: ahrefs, moz or semrush' }),
  dryRun: z.enum(['0', '1']).optional().describe('`1`: say what would change and apply nothing'),
});

/** What an import of an SEO tool's CSV export changes (or, in a dry run, would). */
export const metricsImportResultSchema = z
  .object({
    applied: z.boolean().describe('false in a dry run'),
    rows: z.number().int().min(0).describe('the data rows read'),
    changes: z.array(
      z.object({
        host: z.string(),
        outletId: id,
        outletName: z.string(),
        metric: z.enum(OUTLET_METRICS),
        from: z.number().nullable().describe('the latest value from this source before; null: none'),
        to: z.number(),
        asOf: timestamp,
        stale: z.boolean().describe(`dated more than ${METRIC_STALE_DAYS} days ago: shown as stale once imported`),
      }),
    ),
    unmatched: z.array(z.string()).describe('hosts in the file that are no outlet of Byline’s'),
    errors: z.array(z.object({ line: z.number().int().min(1), message: z.string() })),
  })
  .meta({ id: 'MetricsImportResult' });

/**
 * POST …/metrics/import's 400 for a file with rows that cannot be used: every such row by line, in
 * the dry run's shape (issue 57), and the whole result; nothing was applied.
 */
const metricsImportRefusalSchema = z
  .object({
    message: z.string().describe('how many rows could not be used'),
    code: errorCodeSchema,
    errors: metricsImportResultSchema.shape.errors.describe('each row that cannot be used, by line, as a dry run lists them'),
    result: metricsImportResultSchema,
  })
  .meta({ id: 'MetricsImportRefusal' });

export type { OutletMetricValue } from './responses/outlet-metric';
export type OutletRecord = z.infer<typeof outletRecordSchema>;
export type OutletDetail = z.infer<typeof outletDetailSchema>;
export type MetricsImportResult = z.infer<typeof metricsImportResultSchema>;
/** What the import's 400 answers: the rows that cannot be used, or another refusal (the file, the query). */
export const metricsImport400Schema = z.union([metricsImportRefusalSchema, errorSchema]);
