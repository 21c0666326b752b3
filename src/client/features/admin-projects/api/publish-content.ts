import { useMutation } from '@tanstack/react-query';
import type { PaymentDto } from '@shared/payment';
import { apiRequest } from '@/lib/api';
import { invalidateProjects } from './admin-projects';

/** PATCH /api/admin/payments/{id}/status {status: 'released'}: the content is out, the escrow is released. */
export function usePublishContent() {
  return useMutation({
    mutationFn: (paymentId: string) => apiRequest<PaymentDto>('PATCH', `/api/admin/payments/${paymentId}/status`, { status: 'released' }),
    onSettled: invalidateProjects,
  });
}
