import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { brandMatches, likeLiteral } from '../../db/brand-search';
import { organisations, users } from '../../db/schema';
import { after, cursorAt, type Cursor } from '../../lib/paging';
import { notifyBrandApproved } from '../../mail/notify';
import type { UserRow } from '../auth/users';

/**
 * Brands waiting for approval, oldest first (the brand that has waited longest is approved first),
 * one page plus one row (paging): a brand appears once it has completed its profile (the predicate
 * of users_pending_brands_idx); with a search `q`, only the brands it finds.
 */
export function pendingBrands(db: Db, page: { limit: number; cursor?: Cursor }, q?: string) {
  return db
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
    .where(
      and(
        sql`role = 'brand' AND approved = false AND name IS NOT NULL`,
        q === undefined ? undefined : brandMatches(likeLiteral(q)),
        after(users.createdAt, users.id, page.cursor, true),
      ),
    )
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(page.limit + 1);
}

/** Approves a brand; it is told once, when it changes from pending to approved. Undefined: no such brand. */
export async function approveBrand(db: Db, id: string): Promise<UserRow | undefined> {
  return db.transaction(async (tx) => {
    const [approved] = await tx
      .update(users)
      .set({ approved: true })
      .where(and(eq(users.id, id), eq(users.role, 'brand'), eq(users.approved, false)))
      .returning();
    if (approved) {
      // approving a brand approves its organisation, and with it every member who joined meanwhile
      if (approved.organisationId) {
        await tx.update(organisations).set({ approved: true }).where(eq(organisations.id, approved.organisationId));
        await tx
          .update(users)
          .set({ approved: true })
          .where(and(eq(users.organisationId, approved.organisationId), eq(users.approved, false)));
      }
      await notifyBrandApproved(tx, approved, false);
      return approved;
    }
    const [already] = await tx.select().from(users).where(and(eq(users.id, id), eq(users.role, 'brand')));
    return already;
  });
}
