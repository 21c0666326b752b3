import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import type { SignUpFormInput } from '@shared/schemas/auth';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { TermsLink } from '@/components/terms-link';
import { useRegister } from '../api/register';

/**
 * A new brand account. From an invitation (issue 57) the invited address is filled in and fixed
 * (`fixedEmail`: accepting needs that address), and `next`, the invitation, follows the sign-up
 * instead of the company form.
 */
export function SignUpForm({ onSwitch, fixedEmail = null, next = null }: { onSwitch: () => void; fixedEmail?: string | null; next?: string | null }) {
  const register = useRegister();
  const [, navigate] = useLocation();
  const form = useForm<SignUpFormInput>({
    resolver: lazyZodResolver(() => import('@shared/schemas/auth').then((m) => m.signUpFormSchema)),
    defaultValues: { email: fixedEmail ?? '', password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(({ email, password }) =>
    register.mutate(
      { email: fixedEmail ?? email, password },
      { onSuccess: () => navigate(next ?? '/complete-profile', { replace: Boolean(next) }) },
    ),
  );
  return (
    <form className="space-y-4" noValidate onSubmit={submit}>
      <FormField
        id="signup-email"
        label="Email"
        error={errors.email?.message}
        hint={fixedEmail ? 'The address you were invited with: the invitation can be accepted only with it.' : undefined}
      >
        <Input
          id="signup-email"
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          aria-invalid={!!errors.email}
          readOnly={Boolean(fixedEmail)}
          aria-readonly={fixedEmail ? true : undefined}
          className={fixedEmail ? 'bg-muted text-muted-foreground' : undefined}
          {...form.register('email')}
        />
      </FormField>
      <FormField id="signup-password" label="Password" error={errors.password?.message} hint="At least 8 characters">
        <Input
          id="signup-password"
          type="password"
          autoComplete="new-password"
          aria-invalid={!!errors.password}
          {...form.register('password')}
        />
      </FormField>
      <FormField id="signup-confirm" label="Confirm password" error={errors.confirmPassword?.message}>
        <Input
          id="signup-confirm"
          type="password"
          autoComplete="new-password"
          aria-invalid={!!errors.confirmPassword}
          {...form.register('confirmPassword')}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={register.isPending}>
        {register.isPending ? 'Creating account...' : 'Create Account'}
      </Button>
      <p className="text-center text-xs text-muted-foreground">
        By creating an account you agree to the <TermsLink />.
      </p>
      <p className="text-center text-sm text-muted-foreground">
        Already have an account?{' '}
        <button type="button" className="cursor-pointer font-medium text-primary hover:underline" onClick={onSwitch}>
          Sign in
        </button>
      </p>
    </form>
  );
}
