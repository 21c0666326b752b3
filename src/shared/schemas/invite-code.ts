import { z } from 'zod';

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

export interface InviteCode {
  id: string;
  code: string;
  active: boolean;
  createdBy: string | null;
  createdAt: string;
}

export interface PendingBrand {
  id: string;
  name: string | null;
  email: string;
  brandName: string | null;
  website: string | null;
  createdAt: string;
}
