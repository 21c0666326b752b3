import { useQuery } from '@tanstack/react-query';
import { navigate } from 'wouter/use-browser-location';
import type { PublicUser } from '@shared/user';
import { ApiError, apiGet, setUnauthorizedHandler } from './api';
import { queryClient } from './query-client';
import { apiUrl } from '@shared/api-paths';

export const userQueryKey = [apiUrl('/api/user')] as const;

/** The signed-in user; null when not signed in (a 401 is not an error here). */
export async function fetchUser(): Promise<PublicUser | null> {
  try {
    return await apiGet<PublicUser>(apiUrl('/api/user'));
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

/** `?session=ended` on the sign-in page: it says why the user is there. */
export const SESSION_ENDED_PARAM = 'session';

/**
 * Where signing in may send the user afterwards: a path of this site only. "//host" and "/\host"
 * are other sites to a browser, so anything but a single leading "/" is refused (no open redirect).
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || !/^\/(?![/\\])/.test(next) || /[\s\\]/.test(next)) return null;
  const url = new URL(next, window.location.origin);
  if (url.origin !== window.location.origin || url.pathname === '/auth') return null;
  return url.pathname + url.search + url.hash;
}

/** The sign-in page, asked to come back to `next` afterwards. */
export function signInPath(next: string, sessionEnded = false): string {
  const params = new URLSearchParams();
  if (safeNextPath(next)) params.set('next', next);
  if (sessionEnded) params.set(SESSION_ENDED_PARAM, 'ended');
  const query = params.toString();
  return query ? `/auth?${query}` : '/auth';
}

/**
 * The sign-up tab of the sign-in page for an invitation (issue 57): the invited address filled in
 * and fixed, and the invitation's page (`next`) again once the account exists.
 */
export function invitedSignUpPath(next: string, email: string, tab: 'signup' | 'login' = 'signup'): string {
  const params = new URLSearchParams({ tab, email, next });
  return `/auth?${params.toString()}`;
}

/** An invitation's page (`/invite/{token}`): where `invitedSignUpPath` comes back to. */
export const isInvitationPath = (path: string | null): path is string => Boolean(path && /^\/invite\/[^/?#]+$/.test(path));

/**
 * A signed-in user's call answered 401: the sign-in session ended (expired, signed out elsewhere).
 * Nothing of the user may stay on screen (the sidebar's name and balance come from the cache), and
 * the user is sent to sign in, then back to the page they were on. Pages keep unsaved text themselves.
 */
function sessionEnded(url: string) {
  // a wrong password is a 401 too, and there is no session to end before signing in
  if (url === apiUrl('/api/login') || !queryClient.getQueryData(userQueryKey)) return;
  const here = window.location.pathname + window.location.search;
  setCurrentUser(null);
  navigate(signInPath(here, true), { replace: true });
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== userQueryKey[0] });
}

setUnauthorizedHandler(sessionEnded);
