import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'wouter';
import { CheckCircle2 } from 'lucide-react';
import { resetPasswordFormSchema, type ResetPasswordFormInput } from '@shared/schemas/password';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api';
import { useResetPassword } from '../api/reset-password';
import { AuthCardLayout } from '../components/auth-card-layout';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = useResetPassword();
  const form = useForm<ResetPasswordFormInput>({ resolver: zodResolver(resetPasswordFormSchema), defaultValues: { password: '', confirmPassword: '' } });
  const { errors } = form.formState;

  if (reset.isSuccess) {
    return (
      <AuthCardLayout title="Password reset" description="You have been signed out everywhere.">
        <div className="space-y-4" role="status">
          <p className="flex gap-3 text-sm">
            <CheckCircle2 className="size-5 shrink-0 text-primary" aria-hidden />
            <span>{reset.data.message}</span>
          </p>
          <Button asChild className="w-full">
            <Link href="/auth">Sign in</Link>
          </Button>
        </div>
      </AuthCardLayout>
    );
  }

  const failure = reset.isError ? errorMessage(reset.error, 'Could not reset the password') : null;
  return (
    <AuthCardLayout title="Choose a new password" description="Your new password must be at least 8 characters.">
      {!token ? (
        <p className="text-sm">
          This password reset link is invalid or has expired.{' '}
          <Link href="/forgot-password" className="font-medium text-primary hover:underline">
            Request a new link
          </Link>
        </p>
      ) : (
        <form className="space-y-4" noValidate onSubmit={form.handleSubmit((v) => reset.mutate({ token, password: v.password }))}>
          {failure && (
            <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
              {failure}{' '}
              <Link href="/forgot-password" className="font-medium underline">
                Request a new link
              </Link>
            </div>
          )}
          <FormField id="reset-password" label="New password" error={errors.password?.message}>
            <Input id="reset-password" type="password" autoComplete="new-password" aria-invalid={!!errors.password} {...form.register('password')} />
          </FormField>
          <FormField id="reset-confirm" label="Confirm password" error={errors.confirmPassword?.message}>
            <Input id="reset-confirm" type="password" autoComplete="new-password" aria-invalid={!!errors.confirmPassword} {...form.register('confirmPassword')} />
          </FormField>
          <Button type="submit" className="w-full" disabled={reset.isPending}>
            {reset.isPending ? 'Saving...' : 'Reset password'}
          </Button>
        </form>
      )}
    </AuthCardLayout>
  );
}
