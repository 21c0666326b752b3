import { and, asc, eq, sql } from 'drizzle-orm';
import { after, cursorAt, pageOf, sendPage } from '../../lib/paging';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PendingBrand } from '../../../shared/schemas/invite-code';
import type { AppDeps } from '../../app';
import { users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { parse } from '../../lib/validate';
import { requireAdmin } from '../auth/guards';
import { toPublicUser } from '../auth/users';
import { notifyBrandApproved } from '../../mail/notify';

const idParams = z.object({ id: z.uuid('Not found') });

export function adminBrandRoutes(app: FastifyInstance, { db }: AppDeps) {
  // oldest first: the brand that has waited longest is approved first; paged like every list that grows
  app.get('/api/admin/pending-brands', async (req, reply): Promise<PendingBrand[]> => {
    requireAdmin(req);
    const page = pageOf(req);
    const rows = await db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        brandName: users.brandName,
        website: users.website,
        createdAt: users.createdAt,
        cursorAt: cursorAt(users.createdAt),
      })
      .from(users)
      // a brand appears once it has completed its profile (the predicate of users_pending_brands_idx)
      .where(and(sql`role = 'brand' AND approved = false AND name IS NOT NULL`, after(users.createdAt, users.id, page.cursor, true)))
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(page.limit + 1);
    return sendPage(req, reply, page, rows, ({ cursorAt: _c, ...r }) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  });

  app.post('/api/admin/approve-brand/:id', async (req) => {
    requireAdmin(req);
    const { id } = parse(idParams, req.params);
    const updated = await db.transaction(async (tx) => {
      // the brand is told once, when it changes from pending to approved
      const [approved] = await tx
        .update(users)
        .set({ approved: true })
        .where(and(eq(users.id, id), eq(users.role, 'brand'), eq(users.approved, false)))
        .returning();
      if (approved) {
        await notifyBrandApproved(tx, approved, false);
        return approved;
      }
      const [already] = await tx.select().from(users).where(and(eq(users.id, id), eq(users.role, 'brand')));
      return already;
    });
    if (!updated) throw notFound('Brand not found');
    return toPublicUser(updated);
  });
}
