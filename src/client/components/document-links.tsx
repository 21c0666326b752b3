import { Link } from 'wouter';
import { FileText, PanelTop } from 'lucide-react';
import type { PaymentStatus } from '@shared/payment';

const LINK =
  'inline-flex min-h-6 items-center gap-1 rounded-sm text-xs font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/**
 * "Invoice" and, for a refunded payment, "Credit note": PDF downloads (the server answers them as
 * attachments named by their number). `base`: /api/brand/payments or /api/admin/payments. With
 * `pageHref`, "Details" first: the placement's page (brief, draft, publication, money, messages).
 */
export function DocumentLinks({
  base,
  paymentId,
  status,
  pageHref,
}: {
  base: string;
  paymentId: string;
  status: PaymentStatus;
  pageHref?: string;
}) {
  const link = (path: string, label: string) => (
    <a href={`${base}/${paymentId}/${path}`} download className={LINK}>
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
      {status === 'refunded' && link('credit-note', 'Credit note')}
    </span>
  );
}
