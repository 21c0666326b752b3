import { useParams } from 'wouter';
import { Building2, Mail, UserRound } from 'lucide-react';
import { PARTLY_REFUNDED, isPartlyRefunded } from '@shared/payment';
import type { ProjectTab } from '@shared/schemas/brief';
import { PartlyRefundedBadge } from '@/components/placement-status';
import { Badge } from '@/components/ui/badge';
import { useAdminPlacement } from '../api/get-placement';
import { AdminBriefSection, AdminDraftSection, AdminPublicationSection } from '../components/placement/admin-sections';
import { MoneySection } from '../components/placement/money-section';
import { AdminCancellationSection } from '../components/placement/cancellation-section';
import { AdminDisputeSection } from '../components/placement/dispute-section';
import { DeclineControl } from '../components/placement/swap-section';
import { PlacementFrame, PlacementHeader } from '../components/placement/placement-frame';
import { brandOf, projectTabOf, typeLabel } from '../components/projects/brief-text';
import { EditorPicker } from '../components/projects/editor-picker';

/** Where the placement stands, in the words of the Projects tab it is listed under. */
const TAB_BADGE: Record<ProjectTab, { label: string; variant: 'warning' | 'info' | 'success' | 'secondary' | 'destructive' }> = {
  awaiting: { label: 'Awaiting Brief', variant: 'warning' },
  review: { label: 'Pending Review', variant: 'info' },
  approved: { label: 'Brand approved', variant: 'success' },
  published: { label: 'Published', variant: 'secondary' },
  refunded: { label: 'Refunded', variant: 'destructive' },
};

// the words of its card in Projects
const AWAITING_DRAFT = { label: 'Brief in – draft to write', variant: 'info' } as const;

/**
 * /admin/projects/{paymentId}: the placement's home for the editorial team. The brief, the draft
 * (attach, edit, mark edits complete, publish), the live article and its checks, the money, then
 * the timeline and the conversation with the brand.
 */
export function AdminPlacementPage() {
  const { paymentId = '' } = useParams<{ paymentId: string }>();
  const query = useAdminPlacement(paymentId);
  return (
    <PlacementFrame key={paymentId} side="admin" paymentId={paymentId} query={query}>
      {(item) => {
        const tabKey = projectTabOf(item.payment);
        // the Projects tab "Awaiting Brief" holds a placement until its draft is attached: once the
        // brief is in, the page says what it waits for now (issue 57)
        const tab = tabKey === 'awaiting' && item.brief ? AWAITING_DRAFT : TAB_BADGE[tabKey];
        // a cancellation granted with a part refund: refunded, the rest kept (issue 47)
        const tabLabel = item.payment.status === 'refunded' && isPartlyRefunded(item.payment) ? PARTLY_REFUNDED : tab.label;
        const brand = brandOf(item.user);
        return {
          header: (
            <PlacementHeader
              title={item.title}
              life={{ life: item.life, reader: 'admin' }}
              promise={item}
              outletName={item.outletName}
              amount={item.payment.amount}
              badges={
                <>
                  <Badge variant="info">{typeLabel(item.type)}</Badge>
                  <Badge variant={tab.variant} data-testid="project-state">
                    {tabLabel}
                  </Badge>
                  <PartlyRefundedBadge payment={item.payment} />
                  {item.overdue && (
                    <Badge variant="destructive" title="The brief is in and no draft came within the turnaround">
                      Overdue
                    </Badge>
                  )}
                </>
              }
            >
              <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
                <span className="flex min-w-0 items-center gap-1.5">
                  <UserRound className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                  <span className="min-w-0 break-words" data-testid="placement-brand">
                    {brand}
                  </span>
                </span>
                <a href={`mailto:${item.user.email}`} className="flex min-w-0 items-center gap-1.5 hover:underline">
                  <Mail className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                  <span className="min-w-0 break-all">{item.user.email}</span>
                </a>
                {/* an agency's placement is for one of its clients: whose article it is (issue 57) */}
                {item.client && (
                  <span className="flex min-w-0 items-center gap-1.5">
                    <Building2 className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                    <span className="min-w-0 break-words" data-testid="placement-client">
                      For client {item.client.name}
                    </span>
                  </span>
                )}
              </p>
              <EditorPicker item={item} />
            </PlacementHeader>
          ),
          brief: <AdminBriefSection item={item} />,
          work: (
            <>
              <AdminCancellationSection item={item} />
              <AdminDisputeSection item={item} />
              <DeclineControl item={item} />
              <AdminDraftSection item={item} />
              <AdminPublicationSection item={item} />
              <MoneySection side="admin" payment={item.payment} title={item.title} brand={brand} />
            </>
          ),
        };
      }}
    </PlacementFrame>
  );
}
