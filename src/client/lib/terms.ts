import { useQuery } from '@tanstack/react-query';
import type { Terms } from '@shared/terms';
import { apiGet } from './api';

/**
 * GET /api/terms: public, the same for everyone. Here rather than in the terms feature: the
 * placement's page reads its rules too (issue 47: how many days the editorial team has to answer).
 */
export const useTerms = () => useQuery<Terms>({ queryKey: ['/api/terms'], queryFn: () => apiGet('/api/terms') });
