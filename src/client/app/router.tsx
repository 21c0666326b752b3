import * as React from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { prefetchOpportunities } from '@/features/opportunities/api/search-page';
import { loadSearchReader } from '@/features/opportunities/search/reader';
import { fetchUser, userQueryKey } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import {
  NotForClientReviewers,
  OnboardingRoute,
  ProtectedRoute,
  RootRedirect,
  guardRedirect,
  loadAppShell,
} from './route-guard';

/**
 * Every page is its own chunk: a brand never downloads admin screens, and the first visit loads
 * only the page it lands on.
 */
function page<K extends string>(load: () => Promise<Record<K, React.ComponentType>>, name: K) {
  return React.lazy(() => load().then((m) => ({ default: m[name] })));
}

const loadAuthPage = () => import('@/features/auth/pages/auth-page');
const AuthPage = page(loadAuthPage, 'AuthPage');
const ForgotPasswordPage = page(() => import('@/features/auth/pages/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = page(() => import('@/features/auth/pages/reset-password-page'), 'ResetPasswordPage');
const CompleteProfilePage = page(() => import('@/features/profile/pages/complete-profile-page'), 'CompleteProfilePage');
const PendingApprovalPage = page(() => import('@/features/profile/pages/pending-approval-page'), 'PendingApprovalPage');
const ProfilePage = page(() => import('@/features/profile/pages/profile-page'), 'ProfilePage');
const ApprovalsPage = page(() => import('@/features/approvals/pages/approvals-page'), 'ApprovalsPage');
const InviteCodesPage = page(() => import('@/features/invite-codes/pages/invite-codes-page'), 'InviteCodesPage');
const DashboardPage = page(() => import('@/features/admin-opportunities/pages/dashboard-page'), 'DashboardPage');
const EditOpportunityPage = page(
  () => import('@/features/admin-opportunities/pages/edit-opportunity-page'),
  'EditOpportunityPage',
);
const NewOpportunityPage = page(
  () => import('@/features/admin-opportunities/pages/new-opportunity-page'),
  'NewOpportunityPage',
);
const TermsPage = page(() => import('@/features/terms/pages/terms-page'), 'TermsPage');
const NotFoundPage = page(() => import('@/features/not-found/pages/not-found-page'), 'NotFoundPage');
const loadOpportunitiesPage = () => import('@/features/opportunities/pages/opportunities-page');
const OpportunitiesPage = page(loadOpportunitiesPage, 'OpportunitiesPage');
const PaymentHistoryPage = page(() => import('@/features/payments/pages/payment-history-page'), 'PaymentHistoryPage');
const AdminPaymentsPage = page(() => import('@/features/payments/pages/admin-payments-page'), 'AdminPaymentsPage');
const AdminPlacementsPage = page(
  () => import('@/features/placements/pages/admin-placements-page'),
  'AdminPlacementsPage',
);
const CheckoutPage = page(() => import('@/features/payments/pages/checkout-page'), 'CheckoutPage');
const ProjectsPage = page(() => import('@/features/placements/pages/projects-page'), 'ProjectsPage');
const MyArticlesPage = page(() => import('@/features/placements/pages/my-articles-page'), 'MyArticlesPage');
const BriefPage = page(() => import('@/features/placements/pages/brief-page'), 'BriefPage');
const OlderBriefPage = page(() => import('@/features/placements/pages/older-brief-page'), 'OlderBriefPage');
const BrandPlacementPage = page(() => import('@/features/placements/pages/brand-placement-page'), 'BrandPlacementPage');
const AdminPlacementPage = page(() => import('@/features/placements/pages/admin-placement-page'), 'AdminPlacementPage');
const BrandDisputePage = page(() => import('@/features/placements/pages/brand-dispute-page'), 'BrandDisputePage');
const AdminDisputePage = page(() => import('@/features/placements/pages/admin-dispute-page'), 'AdminDisputePage');
const AdminDisputesPage = page(() => import('@/features/placements/pages/admin-disputes-page'), 'AdminDisputesPage');
const AttentionPage = page(() => import('@/features/attention/pages/attention-page'), 'AttentionPage');
const OrganisationPage = page(
  () => import('@/features/admin-organisations/pages/organisation-page'),
  'OrganisationPage',
);
const OrganisationsPage = page(
  () => import('@/features/admin-organisations/pages/organisations-page'),
  'OrganisationsPage',
);
const TeamPage = page(() => import('@/features/org/pages/team-page'), 'TeamPage');
const ClientsPage = page(() => import('@/features/org/pages/clients-page'), 'ClientsPage');
const AuditLogPage = page(() => import('@/features/org/pages/audit-log-page'), 'AuditLogPage');
const PurchaseRequestsPage = page(() => import('@/features/org/pages/purchase-requests-page'), 'PurchaseRequestsPage');
const ReportsPage = page(() => import('@/features/reports/pages/reports-page'), 'ReportsPage');
const InvitationPage = page(() => import('@/features/org/pages/invitation-page'), 'InvitationPage');
const CartPage = page(() => import('@/features/cart/pages/cart-page'), 'CartPage');
const OrdersPage = page(() => import('@/features/cart/pages/orders-page'), 'OrdersPage');
const OrderPage = page(() => import('@/features/cart/pages/order-page'), 'OrderPage');
// the outlets feature's page with the catalogue's list of opportunities, composed in app/pages
const BrandOutletPage = page(() => import('./pages/brand-outlet-page'), 'BrandOutletPage');
const AdminOutletPage = page(() => import('@/features/outlets/pages/admin-outlet-page'), 'AdminOutletPage');
const MetricsImportPage = page(() => import('@/features/outlets/pages/metrics-import-page'), 'MetricsImportPage');

/**
 * Called once before the first render: what the landing page will need (its chunks, the session
 * and the brand's opportunity list or search page) is requested at once and side by side, instead
 * of one after the other as the guard, the shell and the page each find out.
 */
export function preloadRoute(path: string) {
  const user = queryClient.fetchQuery({ queryKey: userQueryKey, queryFn: fetchUser }).catch(() => null);
  if (path === '/auth') void loadAuthPage();
  if (path === '/brand' || path === '/brand/opportunities') {
    void loadAppShell();
    void loadOpportunitiesPage();
    // a search in the URL needs its reader for the first page: fetched beside the session
    if (window.location.search) void loadSearchReader();
    void user.then((u) => {
      if (u?.role === 'brand' && !guardRedirect(u, 'brand')) prefetchOpportunities(window.location.search);
    });
  }
}

export function AppRouter() {
  return (
    <React.Suspense fallback={<FullScreenSpinner />}>
      <Switch>
        <Route path="/" component={RootRedirect} />
        <Route path="/auth" component={AuthPage} />
        <Route path="/forgot-password" component={ForgotPasswordPage} />
        <Route path="/reset-password" component={ResetPasswordPage} />
        <Route path="/terms" component={TermsPage} />
        {/* an invitation's link: opened before signing up, too */}
        <Route path="/invite/:token" component={InvitationPage} />
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
            <NotForClientReviewers>
              <OpportunitiesPage />
            </NotForClientReviewers>
          </ProtectedRoute>
        </Route>
        <Route path="/brand/outlets/:id">
          <ProtectedRoute role="brand">
            {/* prices and what can be bought: not for a client reviewer, like the catalogue */}
            <NotForClientReviewers>
              <BrandOutletPage />
            </NotForClientReviewers>
          </ProtectedRoute>
        </Route>
        <Route path="/brand/my-articles">
          <ProtectedRoute role="brand">
            <MyArticlesPage />
          </ProtectedRoute>
        </Route>
        <Route path="/brand/my-articles/:paymentId">
          <ProtectedRoute role="brand">
            <BrandPlacementPage />
          </ProtectedRoute>
        </Route>
        <Route path="/brand/disputes/:id">
          <ProtectedRoute role="brand">
            {/* a client reviewer reads no amounts: the API refuses it a dispute (decision 035) */}
            <NotForClientReviewers>
              <BrandDisputePage />
            </NotForClientReviewers>
          </ProtectedRoute>
        </Route>
        <Route path="/brand/payments">
          <ProtectedRoute role="brand">
            <NotForClientReviewers>
              <PaymentHistoryPage />
            </NotForClientReviewers>
          </ProtectedRoute>
        </Route>
        <Route path="/brand/cart">
          <ProtectedRoute role="brand">
            <NotForClientReviewers>
              <CartPage />
            </NotForClientReviewers>
          </ProtectedRoute>
        </Route>
        <Route path="/brand/orders">
          <ProtectedRoute role="brand">
            <NotForClientReviewers>
              <OrdersPage />
            </NotForClientReviewers>
          </ProtectedRoute>
        </Route>
        <Route path="/brand/orders/:id">
          <ProtectedRoute role="brand">
            <NotForClientReviewers>
              <OrderPage />
            </NotForClientReviewers>
          </ProtectedRoute>
        </Route>
        <Route path="/brand/clients">
          <ProtectedRoute role="brand">
            <NotForClientReviewers>
              <ClientsPage />
            </NotForClientReviewers>
          </ProtectedRoute>
        </Route>
        {/* a client reviewer too: reports of its clients' placements, without prices */}
        <Route path="/brand/reports">
          <ProtectedRoute role="brand">
            <ReportsPage />
          </ProtectedRoute>
        </Route>
        <Route path="/brand/team">
          <ProtectedRoute role="brand">
            <NotForClientReviewers>
              <TeamPage />
            </NotForClientReviewers>
          </ProtectedRoute>
        </Route>
        <Route path="/brand/audit">
          <ProtectedRoute role="brand">
            <NotForClientReviewers>
              <AuditLogPage />
            </NotForClientReviewers>
          </ProtectedRoute>
        </Route>
        <Route path="/brand/requests">
          <ProtectedRoute role="brand">
            <NotForClientReviewers>
              <PurchaseRequestsPage />
            </NotForClientReviewers>
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
        <Route path="/admin/projects/:paymentId">
          <ProtectedRoute role="admin">
            <AdminPlacementPage />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/disputes">
          <ProtectedRoute role="admin">
            <AdminDisputesPage />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/disputes/:id">
          <ProtectedRoute role="admin">
            <AdminDisputePage />
          </ProtectedRoute>
        </Route>
        {/* before /admin/outlets/:id, which would take "import" for an id */}
        <Route path="/admin/outlets/import">
          <ProtectedRoute role="admin">
            <MetricsImportPage />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/outlets/:id">
          <ProtectedRoute role="admin">
            <AdminOutletPage />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/attention">
          <ProtectedRoute role="admin">
            <AttentionPage />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/payments">
          <ProtectedRoute role="admin">
            <AdminPaymentsPage />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/placements">
          <ProtectedRoute role="admin">
            <AdminPlacementsPage />
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
        <Route path="/admin/organisations">
          <ProtectedRoute role="admin">
            <OrganisationsPage />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/organisations/:id">
          <ProtectedRoute role="admin">
            <OrganisationPage />
          </ProtectedRoute>
        </Route>

        <Route component={NotFoundPage} />
      </Switch>
    </React.Suspense>
  );
}
