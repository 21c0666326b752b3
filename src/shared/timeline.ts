/**
 * A placement's timeline (issue 19): what happened to one purchased article, who did it and when,
 * newest last. Written by the server in the same transaction as the change it records; never
 * edited. Shared by server and client.
 */

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
type ActorType = (typeof ACTOR_TYPES)[number];

/** GET /api/{brand|admin}/projects/{paymentId}/timeline: one entry. */
export interface TimelineEntry {
  id: string;
  kind: TimelineKind;
  /** who: the brand, an admin by name, or "Byline" for automatic steps */
  actor: { type: ActorType; name: string };
  at: string;
  /** what the kind needs to be told: amount, round, feedback, url, reason… */
  details: Record<string, unknown>;
}
