import { Redirect, Route, Switch } from 'wouter';
import { AuthPage } from '@/features/auth/pages/auth-page';
import { ForgotPasswordPage } from '@/features/auth/pages/forgot-password-page';
import { ResetPasswordPage } from '@/features/auth/pages/reset-password-page';
import { CompleteProfilePage } from '@/features/onboarding/pages/complete-profile-page';
import { PendingApprovalPage } from '@/features/onboarding/pages/pending-approval-page';
import { ProfilePage } from '@/features/profile/pages/profile-page';
import { ApprovalsPage } from '@/features/approvals/pages/approvals-page';
import { InviteCodesPage } from '@/features/invite-codes/pages/invite-codes-page';
import { DashboardPage } from '@/features/admin-opportunities/pages/dashboard-page';
import { EditOpportunityPage } from '@/features/admin-opportunities/pages/edit-opportunity-page';
import { NewOpportunityPage } from '@/features/admin-opportunities/pages/new-opportunity-page';
import { NotFoundPage } from '@/features/not-found/pages/not-found-page';
import { OpportunitiesPage } from '@/features/opportunities/pages/opportunities-page';
import { PaymentHistoryPage } from '@/features/payments/pages/payment-history-page';
import { AdminPaymentsPage } from '@/features/admin-payments/pages/admin-payments-page';
import { CheckoutPage } from '@/features/checkout/pages/checkout-page';
import { ProjectsPage } from '@/features/admin-projects/pages/projects-page';
import { MyArticlesPage } from '@/features/my-articles/pages/my-articles-page';
import { BriefPage } from '@/features/brief/pages/brief-page';
import { OlderBriefPage } from '@/features/brief/pages/older-brief-page';
import { OnboardingRoute, ProtectedRoute, RootRedirect } from './route-guard';

export function AppRouter() {
  return (
    <Switch>
      <Route path="/" component={RootRedirect} />
      <Route path="/auth" component={AuthPage} />
      <Route path="/forgot-password" component={ForgotPasswordPage} />
      <Route path="/reset-password" component={ResetPasswordPage} />
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

      <Route path="/checkout/:sessionId">
        <ProtectedRoute role="brand" bare>
          <CheckoutPage />
        </ProtectedRoute>
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
          <MyArticlesPage />
        </ProtectedRoute>
      </Route>
      <Route path="/brand/payments">
        <ProtectedRoute role="brand">
          <PaymentHistoryPage />
        </ProtectedRoute>
      </Route>
      <Route path="/brand/profile">
        <ProtectedRoute>
          <ProfilePage />
        </ProtectedRoute>
      </Route>
      <Route path="/brand/brief/:paymentId">
        <ProtectedRoute role="brand">
          <BriefPage />
        </ProtectedRoute>
      </Route>
      <Route path="/brand/brief">
        <ProtectedRoute role="brand">
          <OlderBriefPage />
        </ProtectedRoute>
      </Route>

      {/* admin */}
      <Route path="/admin">
        <ProtectedRoute role="admin">
          <DashboardPage />
        </ProtectedRoute>
      </Route>
      <Route path="/admin/new-opportunity">
        <ProtectedRoute role="admin">
          <NewOpportunityPage />
        </ProtectedRoute>
      </Route>
      <Route path="/admin/edit-opportunity/:id">
        <ProtectedRoute role="admin">
          <EditOpportunityPage />
        </ProtectedRoute>
      </Route>
      <Route path="/admin/projects">
        <ProtectedRoute role="admin">
          <ProjectsPage />
        </ProtectedRoute>
      </Route>
      <Route path="/admin/payments">
        <ProtectedRoute role="admin">
          <AdminPaymentsPage />
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
