import * as React from 'react';
import { Redirect } from 'wouter';
import type { Role } from '@shared/constants';
import { homeFor, type PublicUser } from '@shared/user';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { signInPath, useUser } from '@/lib/auth';
import { useReviewOnly } from '@/lib/org';
// the shell (sidebar, menus) is not needed by the sign-in and onboarding pages: load it with the first portal page
export const loadAppShell = () => import('./shell/app-shell');
const AppShell = React.lazy(() => loadAppShell().then((m) => ({ default: m.AppShell })));

function LoadError({ retry }: { retry: () => void }) {
  return (
    <div className="flex min-h-page flex-col items-center justify-center gap-3 p-6 text-center">
      <p className="text-lg font-semibold">We couldn't reach Byline.</p>
      <p className="text-sm text-muted-foreground">Check your connection and try again.</p>
      <Button onClick={retry}>Try again</Button>
    </div>
  );
}

/** Where a signed-in user who may not see this page goes instead (null: the page renders). */
export function guardRedirect(user: PublicUser, role?: Role): string | null {
  if (user.role === 'brand') {
    if (!user.name) return '/complete-profile';
    if (!user.approved) return '/pending-approval';
  }
  // a page for the other role sends the user to their own portal
  if (role && user.role !== role) return user.role === 'admin' ? '/admin' : '/brand/opportunities';
  return null;
}

/**
 * A redirect away from a page the user may not see, said in a toast (issue 57: forbidden pages
 * sent people elsewhere without a word, which read as a broken link).
 */
function RedirectWithNotice({ to, title, description }: { to: string; title: string; description: string }) {
  const said = React.useRef(false);
  React.useEffect(() => {
    if (said.current) return;
    said.current = true;
    toast({ title, description });
  }, [title, description]);
  return <Redirect to={to} replace />;
}

/** What a user sent to their own portal is told. */
const OTHER_PORTAL = {
  admin: "That page is part of the Brand Portal. You're in the Admin Portal, signed in as the editorial team.",
  brand: "That page is for Byline's editorial team. Here is your Brand Portal.",
} as const;

/**
 * Spec §2 route guard: spinner while loading, /auth without a user (which comes back to this page
 * after signing in), onboarding redirects.
 */
export function ProtectedRoute({ role, bare, children }: { role?: Role; bare?: boolean; children: React.ReactNode }) {
  const { data: user, isLoading, isError, refetch } = useUser();
  if (isLoading) return <FullScreenSpinner />;
  if (isError) return <LoadError retry={() => void refetch()} />;
  if (!user) return <Redirect to={signInPath(window.location.pathname + window.location.search)} replace />;
  const to = guardRedirect(user, role);
  // the other role's page: said why (the onboarding steps are where the user is anyway)
  if (to && role && user.role !== role && guardRedirect(user) === null)
    return <RedirectWithNotice to={to} title="You don't have access to that page" description={OTHER_PORTAL[user.role]} />;
  if (to) return <Redirect to={to} replace />;
  // bare pages (the built-in checkout) stand alone, without the portal's navigation
  return bare ? (
    <>{children}</>
  ) : (
    <React.Suspense fallback={<FullScreenSpinner />}>
      <AppShell user={user}>{children}</AppShell>
    </React.Suspense>
  );
}

/**
 * The brand pages a client reviewer (decision 035) does not see: the catalogue, payments and the
 * organisation's. Its server refuses them; the page goes to My Articles as soon as the member's
 * organisation is known (the others see the page at once, without waiting for it).
 */
export function NotForClientReviewers({ children }: { children: React.ReactNode }) {
  const reviewOnly = useReviewOnly();
  if (reviewOnly)
    return (
      <RedirectWithNotice
        to="/brand/my-articles"
        title="You don't have access to that page"
        description="As a client reviewer you work on your clients' placements here, in My Articles."
      />
    );
  return <>{children}</>;
}

/**
 * Public onboarding pages: without a user they go to /auth; a user who is past this step goes on
 * to where they belong.
 */
export function OnboardingRoute({ step, children }: { step: '/complete-profile' | '/pending-approval'; children: React.ReactNode }) {
  const { data: user, isLoading, isError, refetch } = useUser();
  if (isLoading) return <FullScreenSpinner />;
  if (isError) return <LoadError retry={() => void refetch()} />;
  if (!user) return <Redirect to="/auth" replace />;
  const home = homeFor(user);
  if (home !== step) return <Redirect to={home} replace />;
  return <>{children}</>;
}

/** `/`: nothing is shown while the session loads, then the user's home. */
export function RootRedirect() {
  const { data: user, isLoading, isError } = useUser();
  if (isLoading) return null;
  if (isError || !user) return <Redirect to="/auth" replace />;
  return <Redirect to={user.role === 'admin' ? '/admin' : '/brand/opportunities'} replace />;
}
