import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation } from 'wouter';
import { MailOpen, Sparkles } from 'lucide-react';
import { completeProfileSchema, type CompleteProfileInput } from '@shared/schemas/profile';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useUser } from '@/lib/auth';
import { pendingInvite } from '@/lib/pending-invite';
import { useLogout } from '@/lib/use-logout';
import { useCompleteProfile } from '../api/complete-profile';

/** Whose account this is, and the way out for someone who is not them (issue 43). */
function NotYou() {
  const { data: user } = useUser();
  const logout = useLogout();
  return (
    <div className="space-y-1 text-center text-sm text-muted-foreground" data-testid="not-you">
      {user?.email && (
        <p>
          Signed in as <span className="break-words font-medium text-foreground">{user.email}</span>
        </p>
      )}
      <p>
        Not you?{' '}
        <button
          type="button"
          className="cursor-pointer font-medium text-primary hover:underline disabled:opacity-50"
          onClick={() => logout.mutate()}
          disabled={logout.isPending}
        >
          Log out
        </button>
      </p>
    </div>
  );
}

/** An invitation link opened before signing up (decision 033): joining asks only for the name, not the company. */
function PendingInvite() {
  const token = pendingInvite();
  if (!token) return null;
  return (
    <div className="mb-4 flex gap-3 rounded-md border border-primary/30 bg-primary/5 p-3 text-sm" role="note" data-testid="pending-invite">
      <MailOpen className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
      <p>
        You were invited to join an organisation.{' '}
        <Link href={`/invite/${encodeURIComponent(token)}`} className="font-medium text-primary hover:underline">
          Accept the invitation
        </Link>{' '}
        instead: it asks only for your name.
      </p>
    </div>
  );
}

export function CompleteProfilePage() {
  const [, navigate] = useLocation();
  const complete = useCompleteProfile();
  const form = useForm<CompleteProfileInput>({
    resolver: zodResolver(completeProfileSchema),
    defaultValues: { name: '', brandName: '', website: '', inviteCode: '' },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((values) => {
    const inviteCode = values.inviteCode?.trim();
    complete.mutate(
      { ...values, inviteCode: inviteCode ? inviteCode : undefined },
      {
        onSuccess: (res) => navigate(res.autoApproved ? '/brand' : '/pending-approval', { replace: true }),
        onError: (err) => {
          // a refused invite code belongs next to its field, so the brand can correct it
          if (err instanceof ApiError && err.errors) {
            for (const [field, message] of Object.entries(err.errors)) {
              if (field in values) form.setError(field as keyof CompleteProfileInput, { message });
            }
          }
          toast({ description: errorMessage(err, 'Failed to update profile'), variant: 'destructive' });
        },
      },
    );
  });

  return (
    <main className="flex min-h-page items-center justify-center bg-gradient-to-b from-primary/5 to-background p-4">
      <Card className="w-full max-w-lg">
        <CardHeader>
          <div className="mb-2 flex size-10 items-center justify-center rounded-full bg-primary/10 text-primary">
            <Sparkles className="size-5" />
          </div>
          <CardTitle as="h1" className="text-2xl">
            Almost there
          </CardTitle>
          <CardDescription>Tell us about you and your company to finish setting up your account.</CardDescription>
        </CardHeader>
        <CardContent>
          <PendingInvite />
          <form className="space-y-4" noValidate onSubmit={submit}>
            <FormField id="name" label="Full name" error={errors.name?.message}>
              <Input id="name" autoComplete="name" placeholder="Jane Cooper" aria-invalid={!!errors.name} {...form.register('name')} />
            </FormField>
            <FormField id="brandName" label="Company name" error={errors.brandName?.message}>
              <Input id="brandName" autoComplete="organization" placeholder="Acme Inc." aria-invalid={!!errors.brandName} {...form.register('brandName')} />
            </FormField>
            <FormField id="website" label="Company website" error={errors.website?.message}>
              <Input id="website" type="url" autoComplete="url" placeholder="https://acme.com" aria-invalid={!!errors.website} {...form.register('website')} />
            </FormField>
            <FormField
              id="inviteCode"
              label="Invite code (optional)"
              error={errors.inviteCode?.message}
              hint="Have an invite code? Enter it to skip the approval wait."
            >
              <Input id="inviteCode" autoComplete="off" placeholder="e.g. SPRING-2027" className="uppercase placeholder:normal-case" aria-invalid={!!errors.inviteCode} {...form.register('inviteCode')} />
            </FormField>
            <Button type="submit" className="w-full" disabled={complete.isPending}>
              {complete.isPending ? 'Saving...' : 'Complete profile'}
            </Button>
          </form>
          <div className="mt-4 border-t pt-4">
            <NotYou />
          </div>
        </CardContent>
      </Card>
    </main>
  );
}
