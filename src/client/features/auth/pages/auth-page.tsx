import * as React from 'react';
import { Redirect, useSearch } from 'wouter';
import { CheckCircle2, Clock } from 'lucide-react';
import { GUARANTEE_NAME } from '@shared/constants';
import { homeFor } from '@shared/user';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { SESSION_ENDED_PARAM, isInvitationPath, safeNextPath, useUser } from '@/lib/auth';
import { Logo } from '@/components/ui/logo';
import { dismissAuthFailure } from '../api/failure-toast';
import { LoginForm } from '../components/login-form';
import { SignUpForm } from '../components/sign-up-form';

const POINTS = [
  'Placements at trusted media outlets, priced up front',
  'Your payment is held in escrow until the article is published',
  `${GUARANTEE_NAME}: a full refund if your placement is not delivered`,
];

export function AuthPage() {
  const { data: user, isLoading } = useUser();
  const params = new URLSearchParams(useSearch());
  const next = safeNextPath(params.get('next'));
  // from an invitation (issue 57): its address, fixed on the sign-up tab, and back to it afterwards
  const invited = isInvitationPath(next) ? params.get('email') : null;
  const [tab, setTab] = React.useState(params.get('tab') === 'signup' ? 'signup' : 'login');
  // a failed sign-in's toast does not belong over the sign-up form (nor the other way round)
  const switchTo = (next: string) => {
    dismissAuthFailure();
    setTab(next);
  };
  const sessionEnded = params.get(SESSION_ENDED_PARAM) === 'ended';
  if (isLoading) return <FullScreenSpinner />;
  // back to the page that asked for sign-in (its guard still sends an unfinished profile to onboarding)
  if (user) return <Redirect to={next ?? homeFor(user)} replace />;
  return (
    <main className="grid min-h-page lg:grid-cols-2">
      <section className="hidden flex-col justify-between bg-gradient-to-br from-indigo-600 via-indigo-700 to-violet-800 p-12 text-white lg:flex">
        <div className="flex items-center gap-2 text-lg font-semibold">
          <svg viewBox="0 0 32 32" className="size-8" aria-hidden>
            <rect width="32" height="32" rx="7" fill="#fff" fillOpacity="0.15" />
            <path d="M10 8h7.5a4.5 4.5 0 0 1 2.6 8.2A4.8 4.8 0 0 1 18 25h-8z" fill="#fff" />
          </svg>
          Byline
        </div>
        <div className="space-y-6">
          <h2 className="text-4xl font-semibold leading-tight tracking-tight">Get your story told by the outlets your customers read.</h2>
          <ul className="space-y-3 text-indigo-100">
            {POINTS.map((p) => (
              <li key={p} className="flex gap-3">
                <CheckCircle2 className="mt-0.5 size-5 shrink-0" /> {p}
              </li>
            ))}
          </ul>
        </div>
        <p className="text-sm text-indigo-200">© {new Date().getFullYear()} Byline</p>
      </section>
      <section className="flex flex-col items-center justify-center gap-6 p-4 sm:p-8">
        <div className="flex items-center gap-2 text-lg font-semibold lg:hidden">
          <Logo /> Byline
        </div>
        <Card className="w-full max-w-md">
          <CardHeader>
            <CardTitle as="h1" className="text-2xl">
              Welcome to Byline
            </CardTitle>
            <CardDescription className="wrap-anywhere">
              {invited ? `To accept your invitation, create an account with ${invited} or sign in with it.` : 'Sign in to your account or create a new brand account.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {sessionEnded && (
              <div role="status" data-testid="session-ended" className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
                <Clock className="mt-0.5 size-4 shrink-0" />
                <span>Your session has ended. Sign in again to continue where you left off.</span>
              </div>
            )}
            <Tabs value={tab} onValueChange={switchTo}>
              <TabsList className="grid w-full grid-cols-2">
                <TabsTrigger value="login">Sign In</TabsTrigger>
                <TabsTrigger value="signup">Sign Up</TabsTrigger>
              </TabsList>
              <TabsContent value="login">
                <LoginForm email={invited} onSwitch={() => switchTo('signup')} />
              </TabsContent>
              <TabsContent value="signup">
                <SignUpForm fixedEmail={invited} next={next} onSwitch={() => switchTo('login')} />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
      </section>
    </main>
  );
}
