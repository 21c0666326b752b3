import { useQuery } from '@tanstack/react-query';
import { apiUrl } from '@shared/api-paths';

export interface Wallet {
  balance: string;
}

// spec §7/§9: fresh for 60 s, kept 5 min
export function useWallet(enabled: boolean) {
  return useQuery<Wallet>({ queryKey: [apiUrl('/api/brand/wallet')], staleTime: 60_000, gcTime: 5 * 60_000, enabled });
}
