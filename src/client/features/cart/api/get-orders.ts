import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { orderSummarySchema } from '@shared/schemas/cart';
import { apiGet } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

export type OrderSummary = z.infer<typeof orderSummarySchema>;

/** Every order query's key starts with this: paying, refunding or ordering again refreshes them. */
export const ordersKey = [apiUrl('/api/brand/orders')] as const;

/** GET /api/brand/orders: the organisation's paid orders, newest first (one client's with `clientId`). */
export const useOrders = (clientId: string | null) =>
  useQuery({
    queryKey: [...ordersKey, { clientId }],
    queryFn: () =>
      apiGet<OrderSummary[]>(apiUrl('/api/brand/orders', {}, { clientId })),
    // the money moves on its own (publication releases it, refunds): read again on each visit
    refetchOnMount: 'always',
  });
