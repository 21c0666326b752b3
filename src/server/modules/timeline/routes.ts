import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Module } from '../../deps';
import type { Db } from '../../db/client';
import { badRequest } from '../../lib/errors';
import { parse } from '../../lib/validate';
import { requireAdmin, requireApprovedBrand } from '../auth/guards';
import { PAYMENT_NOT_FOUND } from '../payments/service';
import { idParam } from '../../lib/route-params';
import { TIMELINE_LIMIT_DEFAULT, timelinePage } from './service';

const TIMELINE_LIMIT_MAX = 200;
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

async function sendTimeline(db: Db, req: FastifyRequest, reply: FastifyReply, paymentId: string, brandId?: string) {
  const q = parse(timelineQuerySchema, req.query);
  const limit = q.limit ?? TIMELINE_LIMIT_DEFAULT;
  const { entries, more } = await timelinePage(db, paymentId, { brandId, limit, after: q.cursor === undefined ? undefined : decodeCursor(q.cursor) });
  if (more) {
    const url = new URL(req.url, 'http://x');
    url.searchParams.set('limit', String(limit));
    url.searchParams.set('cursor', encodeCursor(entries[entries.length - 1].id));
    void reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
  }
  return entries;
}

/** A placement's timeline, oldest first: the brand its own, admins every one (issue 19). */
export const timelineModule: Module = async (app, { db }) => {
  app.get('/api/brand/projects/:paymentId/timeline', async (req, reply) => {
    const brand = requireApprovedBrand(req);
    return sendTimeline(db, req, reply, idParam(req, 'paymentId', PAYMENT_NOT_FOUND), brand.id);
  });
  app.get('/api/admin/projects/:paymentId/timeline', async (req, reply) => {
    requireAdmin(req);
    return sendTimeline(db, req, reply, idParam(req, 'paymentId', PAYMENT_NOT_FOUND));
  });
};
