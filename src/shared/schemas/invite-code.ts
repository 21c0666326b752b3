import { z } from 'zod';
import type { inviteCodeSchema, pendingBrandSchema } from './responses/account';

export const createInviteCodeSchema = z.object({
  code: z
    .string({ error: 'Code is required' })
    .trim()
    .min(1, 'Code is required')
    .max(64, 'Code must be at most 64 characters')
    .regex(/^[A-Za-z0-9_-]+$/, 'Code may contain only letters, numbers, - and _')
    // codes can be typed in any case; they are stored and matched in uppercase
    .transform((v) => v.toUpperCase()),
});

export type InviteCode = z.infer<typeof inviteCodeSchema>;

export type PendingBrand = z.infer<typeof pendingBrandSchema>;
