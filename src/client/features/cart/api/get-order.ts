import { useQuery } from '@tanstack/react-query';
import type { Order } from '@shared/schemas/cart';
import { apiGet } from '@/lib/api';
import { ordersKey } from './get-orders';
import { apiUrl } from '@shared/api-paths';

/** GET /api/brand/orders/{id}: its lines and their money, its invoice. */
export const useOrder = (id: string) =>
  useQuery({
    queryKey: [...ordersKey, id],
    queryFn: () => apiGet<Order>(apiUrl('/api/brand/orders/:id', { id })),
    // the money moves on its own (publication releases it, refunds): read again on each visit
    refetchOnMount: 'always',
  });
