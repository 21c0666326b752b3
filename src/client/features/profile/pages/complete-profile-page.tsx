import * as React from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Redirect, useLocation } from 'wouter';
import { MailOpen, Sparkles, UserX } from 'lucide-react';
import { ORG_ROLE_LABELS } from '@shared/org';
import type { Onboarding } from '@shared/schemas/responses/account';
import { completeProfileSchema, type CompleteProfileInput } from '@shared/schemas/profile';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useUser } from '@/lib/auth';
import { pendingInvite } from '@/lib/pending-invite';
import { useLogout } from '@/lib/use-logout';
import { useCompleteProfile } from '../api/complete-profile';
import { useOnboarding } from '../api/onboarding';

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

const joinedOn = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

/**
 * An organisation invited this address (issue 57): it joins by the e-mail's link, which proves the
 * address; a company of its own would be a second organisation (the server refuses it).
 */
function InvitedNotice({ invitation }: { invitation: NonNullable<Onboarding['invitation']> }) {
  const org = invitation.organisationName;
  return (
    <div className="space-y-3 text-sm" data-testid="invited-notice">
      <p>
        <span className="font-medium wrap-anywhere">{org}</span> invited you to join as {ORG_ROLE_LABELS[invitation.role].toLowerCase()}. Open the
        link in the invitation e-mail to join: it asks only for your name.
      </p>
      <p className="text-muted-foreground">
        Can’t find the e-mail, or has the link expired? Ask <span className="wrap-anywhere">{org}</span> to send the invitation again. To set up a
        company of your own instead, ask them to revoke it.
      </p>
    </div>
  );
}

/** An owner or admin removed this account from its organisation (issue 57): said before anything else is offered. */
function RemovedNotice({ removedFrom, onOwnCompany }: { removedFrom: NonNullable<Onboarding['removedFrom']>; onOwnCompany: () => void }) {
  const org = removedFrom.organisationName;
  return (
    <div className="space-y-4 text-sm" data-testid="removed-notice">
      <p role="status">
        An owner or admin of <span className="font-medium wrap-anywhere">{org}</span> removed you from its team on {joinedOn.format(new Date(removedFrom.at))}.
        What you did there stays with <span className="wrap-anywhere">{org}</span>.
      </p>
      <p className="text-muted-foreground">
        If this is a mistake, ask them for a new invitation and open its link to join again.
      </p>
      <Button variant="outline" className="w-full" onClick={onOwnCompany}>
        Set up a company of my own
      </Button>
    </div>
  );
}

function Onboarded({ icon, title, description, children }: { icon: React.ReactNode; title: string; description: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-page items-center justify-center bg-gradient-to-b from-primary/5 to-background p-4">
      <Card className="w-full max-w-lg">
        <CardHeader>
          <div className="mb-2 flex size-10 items-center justify-center rounded-full bg-primary/10 text-primary">{icon}</div>
          <CardTitle as="h1" className="text-2xl wrap-anywhere">
            {title}
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent>
          {children}
          <div className="mt-4 border-t pt-4">
            <NotYou />
          </div>
        </CardContent>
      </Card>
    </main>
  );
}

/**
 * "Almost there": the company form of a new account (spec §2). An invited account never sees it
 * (issue 57): an invitation opened in this browser is where it goes back to, one known to the server
 * is pointed out instead of the form; a removed member is told so first.
 */
export function CompleteProfilePage() {
  const { data: user } = useUser();
  const onboarding = useOnboarding();
  const [ownCompany, setOwnCompany] = React.useState(false);
  const pending = pendingInvite();
  if (pending && (pending.email === null || pending.email === user?.email)) {
    return <Redirect to={`/invite/${encodeURIComponent(pending.token)}`} replace />;
  }
  if (onboarding.isLoading) return <FullScreenSpinner />;
  const { invitation = null, removedFrom = null } = onboarding.data ?? {};
  if (invitation) {
    return (
      <Onboarded icon={<MailOpen className="size-5" />} title="You’re invited" description="Join your team with the link in your invitation e-mail.">
        <InvitedNotice invitation={invitation} />
      </Onboarded>
    );
  }
  if (removedFrom && !ownCompany) {
    return (
      <Onboarded icon={<UserX className="size-5" />} title={`You were removed from ${removedFrom.organisationName}`} description="You are no longer a member of this organisation.">
        <RemovedNotice removedFrom={removedFrom} onOwnCompany={() => setOwnCompany(true)} />
      </Onboarded>
    );
  }
  return <CompanyForm onInvited={() => void onboarding.refetch()} />;
}

function CompanyForm({ onInvited }: { onInvited: () => void }) {
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
          // invited meanwhile: the invitation replaces the form
          if (err instanceof ApiError && err.code === 'invited_to_organisation') onInvited();
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
