import { useMutation } from '@tanstack/react-query';
import type { PaymentDto } from '@shared/payment';
import type { PublishRequest } from '@shared/publication';
import { apiRequest } from '@/lib/api';
import { invalidateProjects } from './admin-projects';

/**
 * PATCH /api/admin/payments/{id}/status {status: 'released'}: the content is out, the escrow is
 * released; with the live article's URL (and a reason to release despite problems) it is checked first.
 */
export function usePublishContent() {
  return useMutation({
    mutationFn: ({ paymentId, body }: { paymentId: string; body?: PublishRequest }) =>
      apiRequest<PaymentDto>('PATCH', `/api/admin/payments/${paymentId}/status`, { status: 'released', ...body }),
    onSettled: invalidateProjects,
  });
}
