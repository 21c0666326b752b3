/**
 * Outlets (issue 48): one per website host, with the metrics the SEO tools report for it and
 * Byline's own record of its placements. Shared by server and client.
 */

/** The metrics an outlet keeps, as the API names them. */
export const OUTLET_METRICS = ['da', 'dr', 'organicTraffic', 'referringDomains', 'spamScore'] as const;
export type OutletMetric = (typeof OUTLET_METRICS)[number];

/** Where a metric came from: an SEO tool's CSV export, or the domain authority an admin typed on an opportunity. */
export const METRIC_SOURCES = ['ahrefs', 'moz', 'semrush', 'admin'] as const;
export type MetricSource = (typeof METRIC_SOURCES)[number];
/** The sources a CSV can be imported from. */
export const IMPORT_SOURCES = ['ahrefs', 'moz', 'semrush'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/**
 * Fewer placements published than this, and an outlet's on-time share is not shown as a percentage
 * on its card: "100% on time" from one placement promised a record it does not have (issue 57). Its
 * page says "n of m" whatever the number.
 */
export const ON_TIME_MIN_PLACEMENTS = 5;

/** A value older than this is shown as stale, and not "fresh" in search. */
export const METRIC_STALE_DAYS = 180;

export const METRIC_LABELS: Record<OutletMetric, string> = {
  da: 'Domain Authority',
  dr: 'Domain Rating',
  organicTraffic: 'Organic traffic',
  referringDomains: 'Referring domains',
  spamScore: 'Spam score',
};

export const SOURCE_LABELS: Record<MetricSource, string> = {
  ahrefs: 'Ahrefs',
  moz: 'Moz',
  semrush: 'Semrush',
  admin: 'Byline catalogue',
};

/**
 * The host an outlet is known by: lower case, without `www.` and port. Null for what is not a URL.
 * The migration and the database's trigger (drizzle/0034) derive it the same way.
 */
export function outletHost(url: string | null | undefined): string | null {
  if (!url) return null;
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/:?#\s]+)/i.exec(url.trim());
  if (!m) return null;
  const host = m[1]
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/\.$/, '');
  return host.includes('.') ? host : null;
}
