import { apiUrl } from '@shared/api-paths';
import { queryClient } from './query-client';

/**
 * What each kind of change refreshes, in one place (issue 58): the lists and pages a mutation's
 * answer makes stale. Query keys start with the API path they read (the default query function
 * fetches `key.join('/')`), so a key invalidates every page, filter and item under it; the
 * timelines and conversations have keys of their own (every change writes a timeline entry).
 */
export const TIMELINES_KEY = ['timelines'] as const;
export const CONVERSATIONS_KEY = ['conversations'] as const;
export const UNREAD_MESSAGES_KEY = ['unread-messages'] as const;

/** The admins' screens whose money, counts or state a change to one placement moves. */
const ADMIN_PLACEMENT_SCREENS = [
  apiUrl('/api/admin/projects'),
  apiUrl('/api/admin/projects/counts'),
  apiUrl('/api/admin/payments'),
  apiUrl('/api/admin/payments/totals'),
  apiUrl('/api/admin/opportunities'),
  apiUrl('/api/admin/placements'),
  apiUrl('/api/admin/placements/counts'),
  apiUrl('/api/admin/attention'),
];

export const CHANGES = {
  /** an admin's change to a placement's work (draft, edits, writing started, decline) */
  project: [...ADMIN_PLACEMENT_SCREENS, TIMELINES_KEY],
  /** a release: the placement leaves the held money and Approved, joins Released and Placements */
  release: [...ADMIN_PLACEMENT_SCREENS, TIMELINES_KEY],
  /** a refund: the money moved, a slot may be free, a watch ends, a cancellation may be answered */
  refund: [...ADMIN_PLACEMENT_SCREENS, apiUrl('/api/admin/cancellations'), TIMELINES_KEY],
} as const;

/** Refreshes what a change of this kind makes stale. */
export function refreshAfter(change: keyof typeof CHANGES): void {
  for (const key of CHANGES[change]) void queryClient.invalidateQueries({ queryKey: typeof key === 'string' ? [key] : [...key] });
}
