import { Redirect, Route, Switch } from 'wouter';
import { AuthPage } from '@/features/auth/pages/auth-page';
import { CompleteProfilePage } from '@/features/onboarding/pages/complete-profile-page';
import { PendingApprovalPage } from '@/features/onboarding/pages/pending-approval-page';
import { ProfilePage } from '@/features/profile/pages/profile-page';
import { ApprovalsPage } from '@/features/approvals/pages/approvals-page';
import { InviteCodesPage } from '@/features/invite-codes/pages/invite-codes-page';
import { NotFoundPage } from '@/features/not-found/pages/not-found-page';
import { OpportunitiesPage } from '@/features/opportunities/pages/opportunities-page';
import { PlaceholderPage } from '@/features/placeholders/pages/placeholder-page';
import { OnboardingRoute, ProtectedRoute, RootRedirect } from './route-guard';

export function AppRouter() {
  return (
    <Switch>
      <Route path="/" component={RootRedirect} />
      <Route path="/auth" component={AuthPage} />
      <Route path="/complete-profile">
        <OnboardingRoute step="/complete-profile">
          <CompleteProfilePage />
        </OnboardingRoute>
      </Route>
      <Route path="/pending-approval">
        <OnboardingRoute step="/pending-approval">
          <PendingApprovalPage />
        </OnboardingRoute>
      </Route>

      {/* brand */}
      <Route path="/brand">
        <ProtectedRoute role="brand">
          <Redirect to="/brand/opportunities" replace />
        </ProtectedRoute>
      </Route>
      <Route path="/brand/opportunities">
        <ProtectedRoute role="brand">
          <OpportunitiesPage />
        </ProtectedRoute>
      </Route>
      <Route path="/brand/my-articles">
        <ProtectedRoute role="brand">
          <PlaceholderPage title="My Articles" description="Track your content placements and submissions" upcoming="Your purchased placements, briefs and drafts will appear here." />
        </ProtectedRoute>
      </Route>
      <Route path="/brand/payments">
        <ProtectedRoute role="brand">
          <PlaceholderPage title="Payment History" description="View all your transactions and payment statuses" upcoming="Your payments and their escrow status will appear here." />
        </ProtectedRoute>
      </Route>
      <Route path="/brand/profile">
        <ProtectedRoute>
          <ProfilePage />
        </ProtectedRoute>
      </Route>
      <Route path="/brand/brief/:paymentId">
        <ProtectedRoute role="brand">
          <PlaceholderPage title="Brief" description="Tell the editorial team about you and your story" upcoming="The two-part brief form for this placement will appear here." />
        </ProtectedRoute>
      </Route>
      <Route path="/brand/brief">
        <ProtectedRoute role="brand">
          <PlaceholderPage title="Brief" description="Tell the editorial team about you and your story" upcoming="The brief form for this opportunity will appear here." />
        </ProtectedRoute>
      </Route>

      {/* admin */}
      <Route path="/admin">
        <ProtectedRoute role="admin">
          <PlaceholderPage title="Dashboard" description="Manage opportunities and payments" upcoming="The table of opportunities with filters and actions will appear here." />
        </ProtectedRoute>
      </Route>
      <Route path="/admin/new-opportunity">
        <ProtectedRoute role="admin">
          <PlaceholderPage title="New Opportunity" description="Add a placement to the catalogue" upcoming="The form to create an opportunity will appear here." />
        </ProtectedRoute>
      </Route>
      <Route path="/admin/edit-opportunity/:id">
        <ProtectedRoute role="admin">
          <PlaceholderPage title="Edit Opportunity" description="Change a placement in the catalogue" upcoming="The form to edit this opportunity will appear here." />
        </ProtectedRoute>
      </Route>
      <Route path="/admin/projects">
        <ProtectedRoute role="admin">
          <PlaceholderPage title="Projects" description="Track all paid opportunities and their progress" upcoming="Paid placements, their briefs and drafts will appear here." />
        </ProtectedRoute>
      </Route>
      <Route path="/admin/payments">
        <ProtectedRoute role="admin">
          <PlaceholderPage title="Payments" description="Track all payments and escrow status" upcoming="Every payment with its escrow status and totals will appear here." />
        </ProtectedRoute>
      </Route>
      <Route path="/admin/approvals">
        <ProtectedRoute role="admin">
          <ApprovalsPage />
        </ProtectedRoute>
      </Route>
      <Route path="/admin/invite-codes">
        <ProtectedRoute role="admin">
          <InviteCodesPage />
        </ProtectedRoute>
      </Route>

      <Route component={NotFoundPage} />
    </Switch>
  );
}
