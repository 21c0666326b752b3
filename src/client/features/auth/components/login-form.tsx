import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import type { LoginInput } from '@shared/schemas/auth';
import { lazyZodResolver } from '@/lib/lazy-resolver';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useLogin } from '../api/login';

/** Sign in; `email` fills the address in (an invitation's, issue 57). */
export function LoginForm({ onSwitch, email = null }: { onSwitch: () => void; email?: string | null }) {
  const login = useLogin();
  const form = useForm<LoginInput>({
    resolver: lazyZodResolver(() => import('@shared/schemas/auth').then((m) => m.loginSchema)),
    defaultValues: { email: email ?? '', password: '' },
  });
  const { errors } = form.formState;
  return (
    <form className="space-y-4" noValidate onSubmit={form.handleSubmit((v) => login.mutate(v))}>
      <FormField id="login-email" label="Email" error={errors.email?.message}>
        <Input
          id="login-email"
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          aria-invalid={!!errors.email}
          {...form.register('email')}
        />
      </FormField>
      <FormField id="login-password" label="Password" error={errors.password?.message}>
        <Input
          id="login-password"
          type="password"
          autoComplete="current-password"
          aria-invalid={!!errors.password}
          {...form.register('password')}
        />
      </FormField>
      <div className="-mt-2 text-right">
        <Link href="/forgot-password" className="text-sm font-medium text-primary hover:underline">
          Forgot password?
        </Link>
      </div>
      <Button type="submit" className="w-full" disabled={login.isPending}>
        {login.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        Don't have an account?{' '}
        <button type="button" className="cursor-pointer font-medium text-primary hover:underline" onClick={onSwitch}>
          Sign up
        </button>
      </p>
    </form>
  );
}
