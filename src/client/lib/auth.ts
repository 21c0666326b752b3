import { useQuery } from '@tanstack/react-query';
import type { PublicUser } from '@shared/user';
import { ApiError, apiGet } from './api';
import { queryClient } from './query-client';

export const userQueryKey = ['/api/user'] as const;

/** The signed-in user; null when not signed in (a 401 is not an error here). */
export async function fetchUser(): Promise<PublicUser | null> {
  try {
    return await apiGet<PublicUser>('/api/user');
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export function useUser() {
  return useQuery({ queryKey: userQueryKey, queryFn: fetchUser });
}

export function setCurrentUser(user: PublicUser | null) {
  queryClient.setQueryData(userQueryKey, user);
}

export function refreshUser() {
  return queryClient.invalidateQueries({ queryKey: userQueryKey });
}
