/**
 * A placement's timeline (issue 19): what happened to one purchased article, who did it and when,
 * newest last. Written by the server in the same transaction as the change it records; never
 * edited. Shared by server and client.
 */

import type { z } from 'zod';
import type { timelineEntrySchema } from './schemas/responses/conversation';

export const TIMELINE_KINDS = [
  'paid',
  'brief_saved',
  'brief_submitted',
  'draft_attached',
  'edits_requested',
  'edits_completed',
  'approved',
  'published',
  'released',
  'refunded',
  'check_failed',
  'case_opened',
  'case_closed',
  'live_url_changed',
  'brief_reminder',
  'review_reminder',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const ACTOR_TYPES = ['brand', 'admin', 'system'] as const;

/** GET /api/{brand|admin}/projects/{paymentId}/timeline: one entry. */
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
