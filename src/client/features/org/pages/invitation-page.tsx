import * as React from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { MailOpen } from 'lucide-react';
import { ORG_ROLE_DESCRIPTIONS, ORG_ROLE_LABELS } from '@shared/org';
import { acceptInvitationSchema } from '@shared/schemas/org';
import { homeFor, type PublicUser } from '@shared/user';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Logo } from '@/components/ui/logo';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { fetchUser, invitedSignUpPath, userQueryKey, useUser } from '@/lib/auth';
import { forgetInvite, rememberInvite } from '@/lib/pending-invite';
import { queryClient } from '@/lib/query-client';
import { useLogout } from '@/lib/use-logout';
import { useAcceptInvitation, useInvitationPreview } from '../api/invitation';

function InvitationCard({ title, description, children }: { title: string; description?: React.ReactNode; children: React.ReactNode }) {
  return (
    <main className="flex min-h-page flex-col items-center justify-center gap-6 p-4 sm:p-8">
      <div className="flex items-center gap-2 text-lg font-semibold">
        <Logo /> Byline
      </div>
      <Card className="w-full max-w-md">
        <CardHeader>
          <div className="mb-2 flex size-10 items-center justify-center rounded-full bg-primary/10 text-primary">
            <MailOpen className="size-5" aria-hidden />
          </div>
          <CardTitle as="h1" className="text-2xl">
            {title}
          </CardTitle>
          {description && <CardDescription className="wrap-anywhere">{description}</CardDescription>}
        </CardHeader>
        <CardContent className="space-y-4">{children}</CardContent>
      </Card>
    </main>
  );
}

/** Signed in with the invited address: accept, giving a name when the account has none yet. */
function Accept({ token, user }: { token: string; user: PublicUser }) {
  const [, navigate] = useLocation();
  const accept = useAcceptInvitation(token);
  const [name, setName] = React.useState('');
  const [nameError, setNameError] = React.useState<string | undefined>();
  const [failure, setFailure] = React.useState<string | null>(null);
  const needsName = !user.name;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setFailure(null);
    if (needsName) {
      const checked = acceptInvitationSchema.shape.name.safeParse(name);
      if (!checked.success || !checked.data) return setNameError(checked.error?.issues[0]?.message ?? 'Name is required');
    }
    accept.mutate(needsName ? name.trim() : undefined, {
      onSuccess: async () => {
        forgetInvite();
        // the account now has a name, an organisation and maybe its approval: the guards read it afresh
        const fresh = await queryClient.fetchQuery({ queryKey: userQueryKey, queryFn: fetchUser, staleTime: 0 });
        toast({ title: 'Welcome to the team', description: 'You have joined the organisation.' });
        navigate(fresh ? homeFor(fresh) : '/auth', { replace: true });
      },
      onError: (err) => {
        if (err instanceof ApiError && err.errors?.name) setNameError(err.errors.name);
        else setFailure(errorMessage(err, 'Could not accept the invitation'));
      },
    });
  };
  return (
    <form className="space-y-4" noValidate onSubmit={submit}>
      {failure && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
          {failure}
        </p>
      )}
      {needsName && (
        <FormField id="invite-name" label="Full name" error={nameError}>
          <Input
            id="invite-name"
            autoComplete="name"
            placeholder="Jane Cooper"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setNameError(undefined);
            }}
            aria-invalid={Boolean(nameError)}
          />
        </FormField>
      )}
      <Button type="submit" className="w-full" disabled={accept.isPending}>
        {accept.isPending ? 'Joining...' : 'Accept invitation'}
      </Button>
    </form>
  );
}

/** /invite/{token}: the link of an invitation e-mail (decision 033), opened signed in or not. */
export function InvitationPage() {
  const { token = '' } = useParams<{ token: string }>();
  const { data: user, isLoading } = useUser();
  const preview = useInvitationPreview(token);
  const logout = useLogout();
  const signedOut = !isLoading && !user;
  const gone = preview.error instanceof ApiError && preview.error.status === 410;

  // the sign-up comes back here by itself; should the account reach profile completion meanwhile (a
  // sign-in elsewhere, a reload), that sends it back here too
  const invitedEmail = preview.data?.email;
  React.useEffect(() => {
    if (signedOut && invitedEmail) rememberInvite(token, invitedEmail);
  }, [signedOut, invitedEmail, token]);
  React.useEffect(() => {
    if (gone) forgetInvite();
  }, [gone]);

  if (isLoading || preview.isLoading) return <FullScreenSpinner />;
  if (gone) {
    return (
      <InvitationCard title="This invitation can no longer be used">
        <p className="text-sm" role="alert">
          {preview.error?.message}
        </p>
        <Button asChild variant="outline" className="w-full">
          <Link href={user ? homeFor(user) : '/auth'}>{user ? 'Go to Byline' : 'Sign in'}</Link>
        </Button>
      </InvitationCard>
    );
  }
  if (preview.isError || !preview.data) {
    return (
      <main className="flex min-h-page items-center justify-center p-4">
        <QueryError query={preview} title="Couldn't load the invitation" className="w-full max-w-md" />
      </main>
    );
  }

  const { organisationName, email, role } = preview.data;
  const here = `/invite/${encodeURIComponent(token)}`;
  return (
    <InvitationCard
      title="You're invited"
      description={`${organisationName} invited ${email} to join as ${ORG_ROLE_LABELS[role].toLowerCase()}.`}
    >
      <p className="text-sm text-muted-foreground">
        <span className="font-medium text-foreground">{ORG_ROLE_LABELS[role]}:</span> {ORG_ROLE_DESCRIPTIONS[role]}.
      </p>
      {!user ? (
        <>
          <p className="text-sm">
            To accept, sign up or sign in with <span className="font-medium wrap-anywhere">{email}</span>.
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button asChild className="flex-1">
              <Link href={invitedSignUpPath(here, email)}>Sign up</Link>
            </Button>
            <Button asChild variant="outline" className="flex-1">
              <Link href={invitedSignUpPath(here, email, 'login')}>Sign in</Link>
            </Button>
          </div>
        </>
      ) : user.email !== email ? (
        <>
          <p className="text-sm" role="alert">
            You are signed in as <span className="font-medium wrap-anywhere">{user.email}</span>, but this invitation is for{' '}
            <span className="font-medium wrap-anywhere">{email}</span>. Log out and sign in with that address to accept it.
          </p>
          <Button
            variant="outline"
            className="w-full"
            onClick={() => {
              // after signing in with the invited address, profile completion points back here
              rememberInvite(token, email);
              logout.mutate();
            }}
            disabled={logout.isPending}
          >
            Log out
          </Button>
        </>
      ) : (
        <Accept token={token} user={user} />
      )}
    </InvitationCard>
  );
}
