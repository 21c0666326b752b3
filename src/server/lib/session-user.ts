import type { users } from '../db/schema';

/**
 * The signed-in user a request carries (`req.user`): the user's row without its password hash (nor
 * the record of a removal, read only by profile completion).
 */
export type SessionUser = Omit<typeof users.$inferSelect, 'password' | 'removedFrom' | 'removedAt'>;
