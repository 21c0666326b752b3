import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { brandMatches, likeLiteral } from '../../db/brand-search';
import { organisations, users } from '../../db/schema';
import { after, cursorAt, type Cursor } from '../../lib/paging';
import { notifyBrandApproved } from '../../mail/notify';
import type { UserRow } from '../auth/users';

/**
 * Where anyone may have an address: two organisations at one of these are no sign of one company.
 * (A short list of the big providers; a miss only adds a warning an admin reads.)
 */
const PUBLIC_MAIL_DOMAINS = [
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'yahoo.com', 'ymail.com',
  'icloud.com', 'me.com', 'mac.com', 'aol.com', 'proton.me', 'protonmail.com', 'gmx.com', 'gmx.de', 'gmx.net',
  'web.de', 'mail.com', 'zoho.com', 'yandex.com', 'yandex.ru', 'mail.ru', 'fastmail.com', 'hey.com', 'qq.com', '163.com',
];

/**
 * The other organisations (at most 5, by name) with a member at the pending brand's e-mail domain:
 * the approval queue's warning of a second organisation of one company (issue 57), whose person
 * should rather have been invited to the first. By `users_email_domain_idx`. (The pending brand's
 * columns are written out whole: drizzle writes a list's own columns bare, which inside the
 * subquery would name its `m`'s.)
 */
const sameDomain = sql<{ id: string; name: string }[]>`coalesce((
  SELECT json_agg(json_build_object('id', s.id, 'name', s.name) ORDER BY s.name)
  FROM (
    SELECT DISTINCT o.id, o.name
    FROM ${users} m JOIN ${organisations} o ON o.id = m.organisation_id
    WHERE split_part(m.email, '@', 2) = split_part("users".email, '@', 2)
      AND m.organisation_id IS DISTINCT FROM "users".organisation_id
      AND split_part("users".email, '@', 2) NOT IN (${sql.join(
        PUBLIC_MAIL_DOMAINS.map((d) => sql`${d}`),
        sql`, `,
      )})
    ORDER BY o.name
    LIMIT 5
  ) s
), '[]'::json)`;

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
      sameDomain,
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
