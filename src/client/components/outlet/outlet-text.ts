import { METRIC_SOURCES, OUTLET_METRICS, type OutletMetric } from '@shared/outlets';
import type { OutletMetricValue } from '@shared/schemas/outlets';

/*
 * How the outlet pages and the metrics import write metrics, shares and days. Kept apart from the
 * components so the catalogue's card can use them without loading the outlet page.
 */

const thousands = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const score = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Traffic and referring domains with thousands separators ("1,204,300"); scores as they are ("71"). */
export function formatMetricValue(name: OutletMetric, value: number): string {
  return name === 'organicTraffic' || name === 'referringDomains' ? thousands.format(value) : score.format(value);
}

/** A share (0..1) as a whole percentage ("75%"); "—" when there is nothing to count. */
export const formatShare = (share: number | null): string => (share === null ? '—' : `${Math.round(share * 100)}%`);

/*
 * A metric's day is the day the tool reported it, stored as 00:00 UTC: printed in UTC, or readers
 * west of UTC would read the day before. The same form as date-fns' 'MMM d, yyyy' ("Nov 1, 2026").
 */
const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
export const formatMetricDay = (iso: string): string => dayFormat.format(new Date(iso));

/** One metric per group in the order the outlet page lists them (DA, DR, traffic…), each source's in a fixed order. */
export function sortMetrics(metrics: readonly OutletMetricValue[]): OutletMetricValue[] {
  return [...metrics].sort(
    (a, b) =>
      OUTLET_METRICS.indexOf(a.name) - OUTLET_METRICS.indexOf(b.name) ||
      METRIC_SOURCES.indexOf(a.source) - METRIC_SOURCES.indexOf(b.source),
  );
}

export const plural = (n: number, one: string, many: string) => `${thousands.format(n)} ${n === 1 ? one : many}`;
