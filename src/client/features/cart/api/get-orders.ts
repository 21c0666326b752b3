import type { z } from 'zod';
import type { orderSummarySchema } from '@shared/schemas/cart';
import { usePagedList } from '@/lib/paged-query';
import { apiUrl } from '@shared/api-paths';

export type OrderSummary = z.infer<typeof orderSummarySchema>;

/** Every order query's key starts with this: paying, refunding or ordering again refreshes them. */
export const ordersKey = [apiUrl('/api/brand/orders')] as const;

/**
 * GET /api/brand/orders: the organisation's paid orders, newest first (one client's with `clientId`),
 * LIST_MAX (1,000) a page, the next in its `Link`. The money moves on its own (publication releases
 * it, refunds): read again on each visit.
 */
export const useOrders = (clientId: string | null) =>
  usePagedList<OrderSummary>(
    [...ordersKey, { clientId }],
    apiUrl('/api/brand/orders', {}, { clientId }),
    true,
    'always',
  );
