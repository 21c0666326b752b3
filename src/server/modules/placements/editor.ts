import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { placements, users } from '../../db/schema';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { badRequest, notFound } from '../../lib/errors';

/**
 * A placement's editor (issue 59): the admin who works on it. Set here by assignment, or by the
 * first admin move on it (transition.ts); Admin Projects' "Mine" lists an admin's own.
 */

export interface Editor {
  id: string;
  name: string;
}

const editorName = sql<string>`coalesce(${users.name}, ${users.email})`;

/** GET /api/admin/team: the admins a placement may be assigned to, by name. */
export function editorialTeam(db: Db): Promise<Editor[]> {
  return db.select({ id: users.id, name: editorName }).from(users).where(eq(users.role, 'admin')).orderBy(asc(editorName), asc(users.id));
}

/**
 * PUT /api/admin/placements/{placementId}/assignee: gives the placement to an admin (null: to
 * nobody, so that the next admin who acts on it takes it). Answers its editor.
 */
export async function assignEditor(db: Db, placementId: string, adminId: string | null): Promise<{ assignee: Editor | null }> {
  return db.transaction(async (tx) => {
    let editor: Editor | null = null;
    if (adminId !== null) {
      const [admin] = await tx
        .select({ id: users.id, name: editorName })
        .from(users)
        .where(and(eq(users.id, adminId), eq(users.role, 'admin')));
      if (!admin) throw badRequest('not_an_admin', 'Choose an admin of the editorial team');
      editor = admin;
    }
    const [done] = await tx.update(placements).set({ assigneeId: adminId }).where(eq(placements.id, placementId)).returning({ id: placements.id });
    if (!done) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
    return { assignee: editor };
  });
}
