import { useQuery } from '@tanstack/react-query';
import type { BrandOpportunity } from '@shared/opportunity';

export const opportunitiesQueryKey = ['/api/opportunities'];

export const useOpportunities = () => useQuery<BrandOpportunity[]>({ queryKey: opportunitiesQueryKey });
