import { useQuery } from '@tanstack/react-query';
import type { Terms } from '@shared/terms';
import { apiGet } from './api';
import { apiUrl } from '@shared/api-paths';

/**
 * GET /api/terms: public, the same for everyone. Here rather than in the terms feature: the
 * placement's page reads its rules too (issue 47: how many days the editorial team has to answer).
 */
export const useTerms = () => useQuery<Terms>({ queryKey: [apiUrl('/api/terms')], queryFn: () => apiGet(apiUrl('/api/terms')) });
