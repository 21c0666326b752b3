import { z } from 'zod';
import {
  REPORT_CADENCES,
  REPORT_COLUMNS,
  REPORT_FOOTER_MAX,
  REPORT_RECIPIENTS_MAX,
  REPORT_STATUSES,
  SHARE_DAYS_DEFAULT,
  SHARE_DAYS_MAX,
} from '../reports';
import { nameSchema } from './one-line';
import { id, timestamp } from './responses/common';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'Use a date as YYYY-MM-DD');

/** POST /api/org/reports. */
export const reportRequestSchema = z
  .object({
    name: nameSchema('Give the report a name', 120, 'At most 120 characters'),
    clientId: id.nullish().describe('only this client’s placements'),
    from: day.nullish().describe('ordered on or after this day (UTC)'),
    to: day.nullish().describe('ordered on or before this day (UTC)'),
    status: z.enum(REPORT_STATUSES, { error: 'Choose in_progress, published or refunded' }).nullish(),
    columns: z
      .array(z.enum(REPORT_COLUMNS, { error: `Columns are ${REPORT_COLUMNS.join(', ')}` }))
      .min(1, 'Choose at least one column')
      .refine((c) => new Set(c).size === c.length, 'A column is chosen twice'),
    showPrices: z.boolean().default(false).describe('off by default: without it the price column is refused, and with it the price column is needed'),
    whiteLabel: z
      .object({
        logoFile: z
          .string()
          .regex(/^\/uploads\/[0-9a-f]{32}\.(png|jpg)$/, 'Upload the logo first (POST /api/org/reports/logo)')
          .nullish()
          .describe('the `url` POST /api/org/reports/logo answered: a logo this organisation uploaded for its reports'),
        color: z
          .string()
          .regex(/^#[0-9a-fA-F]{6}$/, 'A colour as #RRGGBB')
          .nullish(),
        footer: z.string().trim().max(REPORT_FOOTER_MAX, `At most ${REPORT_FOOTER_MAX} characters`).nullish(),
      })
      .nullish()
      .describe('the agency’s logo, colour and footer; with it, the report does not name Byline anywhere'),
  })
  .superRefine((r, ctx) => {
    if (r.columns.includes('price') && !r.showPrices)
      ctx.addIssue({ code: 'custom', path: ['columns'], message: 'Turn on prices to show the price column' });
    // prices shown with no price column would show none (issue 57): the two go together
    if (r.showPrices && !r.columns.includes('price'))
      ctx.addIssue({ code: 'custom', path: ['columns'], message: 'Add the price column to show prices' });
    if (r.from && r.to && r.from > r.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'The end is before the start' });
  });
export type ReportRequest = z.output<typeof reportRequestSchema>;

export const reportScheduleSchema = z.object({
  cadence: z.enum(REPORT_CADENCES, { error: 'Choose weekly or monthly' }).nullable(),
  recipients: z
    .array(z.email('Not an e-mail address').max(254))
    .max(REPORT_RECIPIENTS_MAX, `At most ${REPORT_RECIPIENTS_MAX} recipients`)
    .default([]),
});

export const shareRequestSchema = z.object({
  expiresInDays: z
    .number({ error: `A number of days from 1 to ${SHARE_DAYS_MAX}` })
    .int(`A number of days from 1 to ${SHARE_DAYS_MAX}`)
    .min(1, `A number of days from 1 to ${SHARE_DAYS_MAX}`)
    .max(SHARE_DAYS_MAX, `A number of days from 1 to ${SHARE_DAYS_MAX}`)
    .default(SHARE_DAYS_DEFAULT),
});

export const reportSchema = z
  .object({
    id,
    name: z.string(),
    clientId: id.nullable(),
    clientName: z.string().nullable(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    status: z.enum(REPORT_STATUSES).nullable(),
    columns: z.array(z.enum(REPORT_COLUMNS)),
    showPrices: z.boolean(),
    whiteLabel: z
      .object({ logoFile: z.string().nullable(), color: z.string().nullable(), footer: z.string().nullable() })
      .nullable(),
    cadence: z.enum(REPORT_CADENCES).nullable(),
    recipients: z.array(z.string()),
    lastSentAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Report' });
export type Report = z.infer<typeof reportSchema>;

export const shareSchema = z
  .object({
    id,
    url: z
      .string()
      .nullable()
      .describe('opens signed out until it expires or is revoked; given while active, to a member who may make links (null otherwise)'),
    kind: z.enum(['report', 'placement']),
    subject: z.string().describe('the report’s name, or the placement’s outlet and title'),
    expiresAt: timestamp,
    revokedAt: timestamp.nullable(),
    views: z.number().int().min(0),
    lastViewedAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Share' });
export type Share = z.infer<typeof shareSchema>;
