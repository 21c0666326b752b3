import { useMutation } from '@tanstack/react-query';
import type { PaymentDto } from '@shared/payment';
import type { PublishRequest } from '@shared/publication';
import { apiRequest } from '@/lib/api';
import { refreshAfter } from '@/lib/changes';
import { apiUrl } from '@shared/api-paths';

/**
 * The release of a placement's money, the one client hook for both of the spec's calls, which the
 * server answers through one route and one service: "Mark Published" on the catalogue sends
 * `POST …/release` (`via: 'release'`), "Publish Content" on Projects sends
 * `PATCH …/status {status: "released"}` (`via: 'status'`). Without a body the money is released as
 * the spec says; with `{liveUrl, overrideReason?}` the live article is checked first.
 */
export function useRelease(via: 'release' | 'status') {
  return useMutation({
    mutationFn: ({ paymentId, body }: { paymentId: string; body?: PublishRequest }) =>
      via === 'release'
        ? apiRequest<PaymentDto>('POST', apiUrl('/api/admin/payments/:id/release', { id: paymentId }), body)
        : apiRequest<PaymentDto>('PATCH', apiUrl('/api/admin/payments/:id/status', { id: paymentId }), { status: 'released', ...body }),
    onSettled: () => refreshAfter('release'),
  });
}
