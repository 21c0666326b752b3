import { useQuery } from '@tanstack/react-query';
import type { Terms } from '@shared/terms';
import { apiGet } from '@/lib/api';

/** GET /api/terms: public, the same for everyone. */
export const useTerms = () => useQuery<Terms>({ queryKey: ['/api/terms'], queryFn: () => apiGet('/api/terms') });
