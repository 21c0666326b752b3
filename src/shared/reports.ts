/**
 * Reports of an organisation's placements (issue 48): the columns one may choose, their headings,
 * and the limits. Shared by server and client.
 */
import type { PublicationHealth } from './enums';
import { isBlocking, type PublicationCheck } from './publication';

export const REPORT_COLUMNS = [
  'outlet',
  'title',
  'client',
  'status',
  'orderedAt',
  'publishedAt',
  'liveUrl',
  'linkStatus',
  'lastChecked',
  'price',
] as const;
export type ReportColumn = (typeof REPORT_COLUMNS)[number];

export const REPORT_COLUMN_LABELS: Record<ReportColumn, string> = {
  outlet: 'Outlet',
  title: 'Article',
  client: 'Client',
  status: 'Status',
  orderedAt: 'Ordered',
  publishedAt: 'Published',
  liveUrl: 'Live URL',
  linkStatus: 'Link status',
  lastChecked: 'Last checked',
  price: 'Price',
};

export const REPORT_STATUSES = ['in_progress', 'published', 'refunded'] as const;
export const REPORT_STATUS_LABELS: Record<(typeof REPORT_STATUSES)[number], string> = {
  in_progress: 'In progress',
  published: 'Published',
  refunded: 'Refunded',
};

const LINK_STATUS_LABELS: Record<PublicationHealth, string> = {
  unverified: 'Not checked yet',
  ok: 'Live',
  warning: 'Live, with a warning',
  issue: 'Problem found',
  refunded: 'Refunded',
};

export const REPORT_FOOTER_MAX = 200;
export const REPORT_RECIPIENTS_MAX = 20;
export const SHARE_DAYS_DEFAULT = 30;
export const SHARE_DAYS_MAX = 365;
export const REPORT_CADENCES = ['weekly', 'monthly'] as const;
export type ReportCadence = (typeof REPORT_CADENCES)[number];

/**
 * The live link's state as its latest check found it (issue 57), beside "Last checked": the
 * publication's health stays "Live" through a first failure until a second confirms it, and a
 * check failing only on what the editorial team accepted is live with a warning, as the watch reads it.
 */
export function linkStatusOf(health: PublicationHealth, last: Pick<PublicationCheck, 'result' | 'problems'> | null, accepted: readonly string[]): string {
  if (health === 'refunded' || !last) return LINK_STATUS_LABELS[health];
  const blocking = last.problems.filter((p) => isBlocking(p.code) && !accepted.includes(p.code));
  if (blocking.length > 0) return LINK_STATUS_LABELS.issue;
  return last.result === 'pass' && accepted.length === 0 ? LINK_STATUS_LABELS.ok : LINK_STATUS_LABELS.warning;
}
