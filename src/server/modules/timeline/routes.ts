import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PAGE_LIMIT_MAX } from '../../../shared/schemas/paging';
import { timelineEntrySchema } from '../../../shared/schemas/responses/conversation';
import type { Module } from '../../deps';
import { orgOf, placementParams, route, type Access } from '../../lib/contract';
import { sendJsonRows } from '../../lib/paging';
import { TIMELINE_LIMIT_DEFAULT, timelinePage } from './service';

/** the page statement reads at most PAGE_LIMIT_MAX + 1 entries (`limitedPage`) */
const TIMELINE_LIMIT_MAX = PAGE_LIMIT_MAX;
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${TIMELINE_LIMIT_MAX}`;
const INVALID_CURSOR = 'This page link is no longer valid; reload the list from the start';

/** The cursor is the last entry's id (the timeline is oldest first, ids only grow). */
const encodeCursor = (id: string) => Buffer.from(`e${id}`).toString('base64url');
const CURSOR = /^e(\d{1,15})$/;

/**
 * `?limit=&cursor=` of a timeline: its own paging (a page of 100 by default, the cursor an entry's
 * id), so not the lists' `paged` query.
 */
const timelineQuerySchema = z
  .object({
    limit: z
      .string({ error: LIMIT_MESSAGE })
      .regex(/^\d{1,4}$/, LIMIT_MESSAGE)
      .transform(Number)
      .pipe(z.number().min(1, LIMIT_MESSAGE).max(TIMELINE_LIMIT_MAX, LIMIT_MESSAGE))
      .describe(`how many entries a page holds: 1 to ${TIMELINE_LIMIT_MAX} (default ${TIMELINE_LIMIT_DEFAULT})`),
    cursor: z
      .string({ error: INVALID_CURSOR })
      .max(100, INVALID_CURSOR)
      .transform((raw, ctx) => {
        const m = CURSOR.exec(Buffer.from(raw, 'base64url').toString('utf8'));
        if (m) return Number(m[1]);
        ctx.addIssue({ code: 'custom', message: INVALID_CURSOR });
        return z.NEVER;
      })
      .describe('where the page starts: the value in the previous page’s `Link: rel="next"` (opaque)'),
  })
  .partial()
  .strict();

const SIDES: { prefix: '/api/brand' | '/api/admin'; access: Access; orgOf: (req: FastifyRequest) => string | undefined }[] = [
  // a member sees its organisation's placements only
  { prefix: '/api/brand', access: 'brand', orgOf },
  { prefix: '/api/admin', access: 'admin', orgOf: () => undefined },
];

/** A placement's timeline, oldest first: the brand its own, admins every one (issue 19). */
export const timelineModule: Module = async (app, { db }) => {
  for (const { prefix, access, orgOf: organisationOf } of SIDES) {
    route(
      app,
      'GET',
      `${prefix}/placements/:placementId/timeline`,
      {
        access,
        actsOn: { placement: 'placementId' },
        ...(access === 'brand' ? { clientReview: true as const } : {}),
        tags: ['Conversation'],
        summary: 'A placement’s timeline, oldest first: every change, who made it and when',
        description: `A page holds ${TIMELINE_LIMIT_DEFAULT} entries unless \`limit\` says otherwise; the next page is in \`Link: <…>; rel="next"\`.`,
        params: placementParams,
        querystring: timelineQuerySchema,
        response: { 200: z.array(timelineEntrySchema) },
      },
      async (req, reply) => {
        const limit = req.query.limit ?? TIMELINE_LIMIT_DEFAULT;
        const { rows, entries, more } = await timelinePage(db, req.params.placementId, {
          organisationId: organisationOf(req),
          limit,
          after: req.query.cursor,
        });
        if (more) {
          const url = new URL(req.url, 'http://x');
          url.searchParams.set('limit', String(limit));
          url.searchParams.set('cursor', encodeCursor(entries[entries.length - 1].id));
          void reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
        }
        // the entries' JSON is the database's: joined into the array, not parsed and written again;
        // a client reviewer's copy loses the amounts of payment entries on the way out (lib/amounts.ts)
        return sendJsonRows(reply, rows, entries.length);
      },
    );
  }
};
