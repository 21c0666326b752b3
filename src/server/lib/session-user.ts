import type { users } from '../db/schema';

/** The signed-in user a request carries (`req.user`): the user's row without its password hash. */
export type SessionUser = Omit<typeof users.$inferSelect, 'password'>;
