import { Link } from 'wouter';
import { FileText, PanelTop } from 'lucide-react';
import { toCents } from '@shared/money';
import type { PaymentStatus } from '@shared/payment';
import { apiUrl } from '@shared/api-paths';

const LINK =
  'inline-flex min-h-6 items-center gap-1 rounded-sm text-xs font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/**
 * "Invoice" and, once anything was refunded, "Credit note" (the latest: a payment refunded in parts
 * has one per part, listed on the placement's page): PDF downloads (the server answers them as
 * attachments named by their number), of the brand's or the admins' side. With
 * `pageHref`, "Details" first: the placement's page (brief, draft, publication, money, messages).
 */
export function DocumentLinks({
  side,
  paymentId,
  status,
  refundedAmount,
  pageHref,
}: {
  side: 'brand' | 'admin';
  paymentId: string;
  status: PaymentStatus;
  /** given back so far (issue 47): a part refund has its credit note too */
  refundedAmount: string;
  pageHref?: string;
}) {
  const link = (path: 'invoice' | 'credit-note', label: string) => (
    <a href={side === 'admin' ? apiUrl(`/api/admin/payments/:paymentId/${path}`, { paymentId }) : apiUrl(`/api/brand/payments/:paymentId/${path}`, { paymentId })} download className={LINK}>
      <FileText className="size-3.5" aria-hidden="true" />
      {label}
    </a>
  );
  return (
    <span className="flex flex-wrap gap-x-3" data-testid="document-links">
      {pageHref && (
        <Link href={pageHref} className={LINK} data-testid="placement-link">
          <PanelTop className="size-3.5" aria-hidden="true" />
          Details
        </Link>
      )}
      {link('invoice', 'Invoice')}
      {(status === 'refunded' || toCents(refundedAmount) > 0) && link('credit-note', 'Credit note')}
    </span>
  );
}
