import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants';

const email = z
  .string({ error: 'Invalid email address' })
  .trim()
  .max(254, 'Invalid email address')
  .pipe(z.email({ error: 'Invalid email address' }));

export const loginSchema = z.object({
  email,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const passwordSchema = z
  .string({ error: 'Password must be at least 8 characters' })
  .min(MIN_PASSWORD_LENGTH, 'Password must be at least 8 characters')
  .max(1024, 'Password must be at most 1024 characters');

/** What POST /api/register accepts. Any `role` sent is ignored: sign-up always makes a brand. */
export const registerSchema = z.object({ email, password: passwordSchema });
export type RegisterInput = z.infer<typeof registerSchema>;

/** The sign-up form adds the confirmation, checked on the confirm field. */
export const signUpFormSchema = registerSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type SignUpFormInput = z.infer<typeof signUpFormSchema>;
