import type { MessageSide } from '@shared/messages';
import type { TimelineEntry } from '@shared/timeline';
import { TIMELINES_KEY } from '@/lib/changes';
import { usePagedList } from '@/lib/paged-query';
import { apiUrl } from '@shared/api-paths';

/**
 * Every timeline's key: a change to a placement (a review, a draft, a release, a refund) writes an
 * entry, so what makes one invalidates this too.
 */
export const timelineKey = TIMELINES_KEY;

/** GET /api/{brand|admin}/projects/{paymentId}/timeline: what happened to the article, oldest first, page by page. */
export const useTimeline = (side: MessageSide, paymentId: string) =>
  usePagedList<TimelineEntry>([...timelineKey, side, paymentId], apiUrl(side === 'admin' ? '/api/admin/placements/:placementId/timeline' : '/api/brand/placements/:placementId/timeline', { placementId: paymentId }));
