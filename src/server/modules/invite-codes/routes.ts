import { desc, eq } from 'drizzle-orm';
import { after, cursorAt, pageOf, sendPage } from '../../lib/paging';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createInviteCodeSchema, type InviteCode } from '../../../shared/schemas/invite-code';
import type { AppDeps } from '../../app';
import { inviteCodes } from '../../db/schema';
import { conflict, notFound } from '../../lib/errors';
import { parse } from '../../lib/validate';
import { requireAdmin } from '../auth/guards';
import { isUniqueViolation } from '../auth/users';

type Row = typeof inviteCodes.$inferSelect;
const toJson = (r: Row): InviteCode => ({ ...r, createdAt: r.createdAt.toISOString() });
const idParams = z.object({ id: z.uuid('Not found') });

export function inviteCodeRoutes(app: FastifyInstance, { db }: AppDeps) {
  app.get('/api/admin/invite-codes', async (req, reply) => {
    requireAdmin(req);
    const page = pageOf(req);
    const rows = await db
      .select({ row: inviteCodes, id: inviteCodes.id, cursorAt: cursorAt(inviteCodes.createdAt) })
      .from(inviteCodes)
      .where(after(inviteCodes.createdAt, inviteCodes.id, page.cursor))
      .orderBy(desc(inviteCodes.createdAt), desc(inviteCodes.id))
      .limit(page.limit + 1);
    return sendPage(req, reply, page, rows, (r) => toJson(r.row));
  });

  app.post('/api/admin/invite-codes', async (req, reply) => {
    const admin = requireAdmin(req);
    const { code } = parse(createInviteCodeSchema, req.body);
    try {
      const [row] = await db.insert(inviteCodes).values({ code, createdBy: admin.id }).returning();
      return reply.code(201).send(toJson(row));
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`The invite code ${code} already exists`);
      throw err;
    }
  });

  app.post('/api/admin/invite-codes/:id/deactivate', async (req) => {
    requireAdmin(req);
    const { id } = parse(idParams, req.params);
    const [row] = await db.update(inviteCodes).set({ active: false }).where(eq(inviteCodes.id, id)).returning();
    if (!row) throw notFound('Invite code not found');
    return toJson(row);
  });
}
