import { z } from 'zod';
import { loginSchema, passwordSchema } from './auth';

/** POST /api/password/forgot */
export const forgotPasswordSchema = loginSchema.pick({ email: true });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** POST /api/password/reset: the token from the e-mailed link and the new password (sign-up's rules). */
export const resetPasswordSchema = z.object({
  token: z.string({ error: 'This password reset link is invalid or has expired' }).min(1, 'This password reset link is invalid or has expired').max(200, 'This password reset link is invalid or has expired'),
  password: passwordSchema,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** The reset form adds the confirmation, checked on the confirm field (as on sign-up). */
export const resetPasswordFormSchema = z
  .object({ password: passwordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });
export type ResetPasswordFormInput = z.infer<typeof resetPasswordFormSchema>;

/** The one answer to a forgot-password request, whether or not the e-mail has an account. */
export const FORGOT_PASSWORD_ANSWER = 'If an account exists for this e-mail, we have sent a link to reset its password. The link is valid for 1 hour.';
export const PASSWORD_RESET_DONE = 'Your password has been reset. Please sign in with your new password.';
export const INVALID_RESET_LINK = 'This password reset link is invalid or has expired. Please request a new one.';
export const RESET_LINK_MINUTES = 60;
