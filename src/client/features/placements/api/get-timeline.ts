import type { MessageSide } from '@shared/messages';
import type { TimelineEntry } from '@shared/timeline';
import { usePagedList } from '@/lib/paged-query';

/**
 * Every timeline's key: a change to a placement (a review, a draft, a release, a refund) writes an
 * entry, so what makes one invalidates this too.
 */
export const timelineKey = ['/api/projects/timeline'] as const;

/** GET /api/{brand|admin}/projects/{paymentId}/timeline: what happened to the article, oldest first, page by page. */
export const useTimeline = (side: MessageSide, paymentId: string) =>
  usePagedList<TimelineEntry>([...timelineKey, side, paymentId], `/api/${side}/projects/${paymentId}/timeline`);
