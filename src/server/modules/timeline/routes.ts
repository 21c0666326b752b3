import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Module } from '../../deps';
import type { Db } from '../../db/client';
import { PAGE_LIMIT_MAX } from '../../../shared/schemas/paging';
import { sendJsonRows } from '../../lib/paging';
import { badRequest } from '../../lib/errors';
import { parse } from '../../lib/validate';
import { requireAdmin, requireApprovedBrand } from '../auth/guards';
import { pageWithSession } from '../auth/session';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { idParam } from '../../lib/route-params';
import { TIMELINE_LIMIT_DEFAULT, timelinePage } from './service';

/** the page statement reads at most PAGE_LIMIT_MAX + 1 entries (`limitedPage`) */
const TIMELINE_LIMIT_MAX = PAGE_LIMIT_MAX;
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${TIMELINE_LIMIT_MAX}`;
const INVALID_CURSOR = 'This page link is no longer valid; reload the list from the start';

const timelineQuerySchema = z
  .object({
    limit: z.string({ error: LIMIT_MESSAGE }).regex(/^\d{1,4}$/, LIMIT_MESSAGE).transform(Number).pipe(z.number().min(1, LIMIT_MESSAGE).max(TIMELINE_LIMIT_MAX, LIMIT_MESSAGE)),
    cursor: z.string({ error: INVALID_CURSOR }).max(100, INVALID_CURSOR),
  })
  .partial()
  .strict();

/** The cursor is the last entry's id (the timeline is oldest first, ids only grow). */
const encodeCursor = (id: string) => Buffer.from(`e${id}`).toString('base64url');
function decodeCursor(raw: string): number {
  const m = /^e(\d{1,15})$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!m) throw badRequest(INVALID_CURSOR, { cursor: INVALID_CURSOR });
  return Number(m[1]);
}

/**
 * Answers a page of the timeline. `caller` runs the route's guard and gives the brand whose
 * placements it may see (none: an admin); the page's statement also checks the sign-in session
 * (auth/session.ts `pageWithSession`).
 */
async function sendTimeline(db: Db, req: FastifyRequest, reply: FastifyReply, caller: (req: FastifyRequest) => string | undefined) {
  const { rows, entries, more, limit } = await pageWithSession(db, req, async (check) => {
    const brandId = caller(req);
    const paymentId = idParam(req, 'paymentId', PAYMENT_NOT_FOUND);
    const q = parse(timelineQuerySchema, req.query);
    const limit = q.limit ?? TIMELINE_LIMIT_DEFAULT;
    const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    return { ...(await timelinePage(db, paymentId, { brandId, limit, after, check })), limit };
  });
  if (more) {
    const url = new URL(req.url, 'http://x');
    url.searchParams.set('limit', String(limit));
    url.searchParams.set('cursor', encodeCursor(entries[entries.length - 1].id));
    void reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
  }
  // the entries' JSON is the database's: joined into the array (or kept), not parsed and written again
  return sendJsonRows(reply, rows, entries.length);
}

/** A placement's timeline, oldest first: the brand its own, admins every one (issue 19). */
export const timelineModule: Module = async (app, { db }) => {
  const sessionInStatement = { config: { sessionInStatement: true } };
  app.get('/api/brand/projects/:paymentId/timeline', sessionInStatement, async (req, reply) =>
    sendTimeline(db, req, reply, (r) => requireApprovedBrand(r).id),
  );
  app.get('/api/admin/projects/:paymentId/timeline', sessionInStatement, async (req, reply) =>
    sendTimeline(db, req, reply, (r) => {
      requireAdmin(r);
      return undefined;
    }),
  );
};
