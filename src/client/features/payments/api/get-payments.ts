import { useQuery } from '@tanstack/react-query';
import type { BrandPaymentItem } from '@shared/payment';

export const useBrandPayments = () => useQuery<BrandPaymentItem[]>({ queryKey: ['/api/brand/payments'] });
