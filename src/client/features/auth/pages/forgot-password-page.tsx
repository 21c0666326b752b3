import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'wouter';
import { MailCheck } from 'lucide-react';
import { forgotPasswordSchema, type ForgotPasswordInput } from '@shared/schemas/password';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useForgotPassword } from '../api/forgot-password';
import { AuthCardLayout } from '../components/auth-card-layout';

export function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const form = useForm<ForgotPasswordInput>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const { errors } = form.formState;
  return (
    <AuthCardLayout title="Forgot your password?" description="Enter the e-mail of your account and we will send you a link to choose a new password.">
      {forgot.isSuccess ? (
        <div className="space-y-4" role="status">
          <p className="flex gap-3 text-sm">
            <MailCheck className="size-5 shrink-0 text-primary" aria-hidden />
            <span>{forgot.data.message}</span>
          </p>
          <Link href="/auth" className="block text-center text-sm font-medium text-primary hover:underline">
            Back to sign in
          </Link>
        </div>
      ) : (
        <form className="space-y-4" noValidate onSubmit={form.handleSubmit((v) => forgot.mutate(v))}>
          <FormField id="forgot-email" label="Email" error={errors.email?.message}>
            <Input id="forgot-email" type="email" autoComplete="email" placeholder="you@company.com" aria-invalid={!!errors.email} {...form.register('email')} />
          </FormField>
          <Button type="submit" className="w-full" disabled={forgot.isPending}>
            {forgot.isPending ? 'Sending...' : 'Send reset link'}
          </Button>
          <Link href="/auth" className="block text-center text-sm font-medium text-primary hover:underline">
            Back to sign in
          </Link>
        </form>
      )}
    </AuthCardLayout>
  );
}
