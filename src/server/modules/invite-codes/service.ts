import { desc, eq } from 'drizzle-orm';
import type { InviteCode } from '../../../shared/schemas/invite-code';
import type { Db } from '../../db/client';
import { inviteCodes } from '../../db/schema';
import { conflict } from '../../lib/errors';
import { after, cursorAt, type Cursor } from '../../lib/paging';
import { isUniqueViolation } from '../auth/users';

type Row = typeof inviteCodes.$inferSelect;
export const toInviteCode = (r: Row): InviteCode => ({ ...r, createdAt: r.createdAt.toISOString() });

/** Newest first, one page plus one row (paging). */
export function listInviteCodes(db: Db, page: { limit: number; cursor?: Cursor }) {
  return db
    .select({ row: inviteCodes, id: inviteCodes.id, cursorAt: cursorAt(inviteCodes.createdAt) })
    .from(inviteCodes)
    .where(after(inviteCodes.createdAt, inviteCodes.id, page.cursor))
    .orderBy(desc(inviteCodes.createdAt), desc(inviteCodes.id))
    .limit(page.limit + 1);
}

export async function createInviteCode(db: Db, code: string, adminId: string): Promise<InviteCode> {
  try {
    const [row] = await db.insert(inviteCodes).values({ code, createdBy: adminId }).returning();
    return toInviteCode(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('invite_code_exists', `The invite code ${code} already exists`);
    throw err;
  }
}

/**
 * Turns a code on or off; undefined when there is no such code. Setting the state it already has
 * changes nothing and answers the code, so a repeated click is harmless.
 */
export async function setInviteCodeActive(db: Db, id: string, active: boolean): Promise<InviteCode | undefined> {
  const [row] = await db.update(inviteCodes).set({ active }).where(eq(inviteCodes.id, id)).returning();
  return row && toInviteCode(row);
}
