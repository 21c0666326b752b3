import { useQuery } from '@tanstack/react-query';
import type { Onboarding } from '@shared/schemas/responses/account';
import { apiGet } from '@/lib/api';
import { apiUrl } from '@shared/api-paths';

const onboardingQueryKey = [apiUrl('/api/user/onboarding')] as const;

/** GET /api/user/onboarding: an open invitation to the account's address, the organisation that removed it (issue 57). */
export const useOnboarding = () => useQuery({ queryKey: onboardingQueryKey, queryFn: () => apiGet<Onboarding>(apiUrl('/api/user/onboarding')), staleTime: 0 });
