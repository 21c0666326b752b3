import type { MessageSide } from '@shared/messages';
import type { TimelineEntry } from '@shared/timeline';
import { usePagedList } from '@/lib/paged-query';

/** GET /api/{brand|admin}/projects/{paymentId}/timeline: what happened to the article, oldest first, page by page. */
export const useTimeline = (side: MessageSide, paymentId: string) =>
  usePagedList<TimelineEntry>(
    ['/api/projects/timeline', side, paymentId],
    `/api/${side}/projects/${paymentId}/timeline`,
  );
