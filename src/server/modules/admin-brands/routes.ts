import { and, asc, eq, isNotNull } from 'drizzle-orm';
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
  app.get('/api/admin/pending-brands', async (req): Promise<PendingBrand[]> => {
    requireAdmin(req);
    const rows = await db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        brandName: users.brandName,
        website: users.website,
        createdAt: users.createdAt,
      })
      .from(users)
      // a brand appears once it has completed its profile
      .where(and(eq(users.role, 'brand'), eq(users.approved, false), isNotNull(users.name)))
      .orderBy(asc(users.createdAt));
    return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
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
