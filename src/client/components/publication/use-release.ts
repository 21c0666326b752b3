import { useMutation } from '@tanstack/react-query';
import type { PaymentDto } from '@shared/payment';
import type { PublishRequest } from '@shared/publication';
import { apiRequest } from '@/lib/api';
import { queryClient } from '@/lib/query-client';

/**
 * The admin lists a release changes: the placement leaves the held payments and Approved, joins
 * Released and Placements; its page and its timeline (a new entry) change too.
 */
const CHANGED = [
  '/api/admin/projects',
  '/api/admin/payments',
  '/api/admin/payments/totals',
  '/api/admin/opportunities',
  '/api/admin/placements',
  '/api/projects/timeline',
];

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
        ? apiRequest<PaymentDto>('POST', `/api/admin/payments/${paymentId}/release`, body)
        : apiRequest<PaymentDto>('PATCH', `/api/admin/payments/${paymentId}/status`, { status: 'released', ...body }),
    onSettled: () => {
      for (const key of CHANGED) void queryClient.invalidateQueries({ queryKey: [key] });
    },
  });
}
