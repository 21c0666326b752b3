import * as React from 'react';
import { ClipboardCheck } from 'lucide-react';
import { useSearchParams } from 'wouter';
import { PURCHASE_REQUEST_VIEW_STATUSES, roleCan, type PurchaseRequestStatus } from '@shared/org';
import type { PurchaseRequest } from '@shared/schemas/org';
import { QueryError } from '@/components/query-error';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useUser } from '@/lib/auth';
import { usePurchaseRequests } from '../api/budget';
import { useOrg } from '@/lib/org';
import { DeclineDialog } from '../components/decline-dialog';
import { PurchaseRequestRow } from '../components/purchase-request-row';

const LABELS: Record<PurchaseRequestStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  declined: 'Declined',
  expired: 'Expired',
  paid: 'Paid',
};

const EMPTY: Record<PurchaseRequestStatus, string> = {
  pending: 'Nothing waits for a decision.',
  approved: 'No approved purchase waits for its payment.',
  declined: 'No request was declined.',
  expired: 'No request expired.',
  paid: 'No approved purchase was paid yet.',
};

const RESULTS_ID = 'purchase-request-results';
const tabId = (s: PurchaseRequestStatus) => `purchase-request-tab-${s}`;

/** The tab in the page's URL (?status=), Pending unless it names another. */
function useStatus() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const status = PURCHASE_REQUEST_VIEW_STATUSES.includes(raw as PurchaseRequestStatus) ? (raw as PurchaseRequestStatus) : 'pending';
  const set = (next: PurchaseRequestStatus) => setParams(next === 'pending' ? {} : { status: next }, { replace: true });
  return [status, set] as const;
}

/**
 * Purchases above a member's approval threshold (decision 034): owners and admins see every
 * request and decide the others'; a member sees their own and pays an approved one.
 */
export function PurchaseRequestsPage() {
  const { data: user } = useUser();
  const org = useOrg();
  const [status, setStatus] = useStatus();
  const requests = usePurchaseRequests(status);
  const [declining, setDeclining] = React.useState<PurchaseRequest | null>(null);
  const approver = roleCan(org.data?.role, 'manage');
  const items = requests.data ?? [];
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Purchase requests</h1>
        <p className="text-muted-foreground">
          {approver
            ? 'Purchases above a member’s approval limit wait here for an owner or admin.'
            : 'Your purchases above your approval limit: pay one once an owner or admin approves it.'}
        </p>
      </div>
      <Tabs value={status} onValueChange={(v) => setStatus(v as PurchaseRequestStatus)}>
        <TabsList className="flex w-full sm:inline-flex sm:w-auto">
          {PURCHASE_REQUEST_VIEW_STATUSES.map((s) => (
            <TabsTrigger key={s} value={s} id={tabId(s)} aria-controls={RESULTS_ID} className="flex-1 px-2 sm:flex-none sm:px-3">
              {LABELS[s]}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      <div role="tabpanel" id={RESULTS_ID} aria-labelledby={tabId(status)}>
        {requests.isLoading || org.isLoading ? (
          <PageSpinner />
        ) : requests.isError ? (
          <QueryError query={requests} title="Couldn't load the purchase requests" />
        ) : items.length === 0 ? (
          <EmptyState icon={<ClipboardCheck />} title={`No ${LABELS[status].toLowerCase()} requests`} description={EMPTY[status]} />
        ) : (
          <Card>
            <ul className="divide-y">
              {items.map((r) => (
                <PurchaseRequestRow key={r.id} request={r} mine={r.requestedBy.id === user?.id} canDecide={approver} onDecline={setDeclining} />
              ))}
            </ul>
          </Card>
        )}
      </div>
      <DeclineDialog request={declining} onClose={() => setDeclining(null)} />
    </div>
  );
}
