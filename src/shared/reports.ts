/**
 * Reports of an organisation's placements (issue 48): the columns one may choose, their headings,
 * and the limits. Shared by server and client.
 */
import type { PublicationHealth } from './enums';

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

export const LINK_STATUS_LABELS: Record<PublicationHealth, string> = {
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
