import { FileText } from 'lucide-react';
import type { PaymentStatus } from '@shared/payment';

/**
 * "Invoice" and, for a refunded payment, "Credit note": PDF downloads (the server answers them as
 * attachments named by their number). `base`: /api/brand/payments or /api/admin/payments.
 */
export function DocumentLinks({ base, paymentId, status }: { base: string; paymentId: string; status: PaymentStatus }) {
  const link = (path: string, label: string) => (
    <a
      href={`${base}/${paymentId}/${path}`}
      download
      className="inline-flex min-h-6 items-center gap-1 rounded-sm text-xs font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <FileText className="size-3.5" aria-hidden="true" />
      {label}
    </a>
  );
  return (
    <span className="flex flex-wrap gap-x-3" data-testid="document-links">
      {link('invoice', 'Invoice')}
      {status === 'refunded' && link('credit-note', 'Credit note')}
    </span>
  );
}
