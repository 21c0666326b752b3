import { and, desc, eq, getTableColumns, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { opportunities, outletMetrics, outlets } from '../../db/schema';
import { startOfUtcDay } from '../../lib/dates';
import type { MetricSource, OutletMetric } from '../../../shared/outlets';
import type { OutletDetail, OutletMetricValue, OutletRecord } from '../../../shared/schemas/outlets';
import { claimable, freshSinceOf, promiseOn } from '../opportunities/claimable';
import { toBrandOpportunityJson } from '../opportunities/service';
import { now as clockNow } from '../../lib/clock';

/** Whether a value dated `asOf` is older than METRIC_STALE_DAYS on `now`'s day (as search's "fresh metrics" filter reads it). */
const isStale = (asOf: Date, now: Date) => asOf.getTime() < Date.parse(freshSinceOf(now));

/**
 * An outlet's metrics as they stand: the latest value of each metric from each source (the SEO
 * tools' imports), and the domain authority an admin typed on its newest opportunity that has one
 * (source `admin`, as of that opportunity's creation): each with its date, and whether it is stale.
 */
async function currentMetrics(db: Db, outletId: string, now: Date): Promise<OutletMetricValue[]> {
  const imported = await db
    .selectDistinctOn([outletMetrics.metric, outletMetrics.source], {
      metric: outletMetrics.metric,
      value: outletMetrics.value,
      source: outletMetrics.source,
      asOf: outletMetrics.asOf,
    })
    .from(outletMetrics)
    .where(eq(outletMetrics.outletId, outletId))
    .orderBy(outletMetrics.metric, outletMetrics.source, desc(outletMetrics.asOf));
  const [typed] = await db
    .select({ value: opportunities.domainAuthority, asOf: opportunities.createdAt })
    .from(opportunities)
    .where(and(eq(opportunities.outletId, outletId), isNotNull(opportunities.domainAuthority)))
    .orderBy(desc(opportunities.createdAt))
    .limit(1);
  const values: { metric: OutletMetric; value: number; source: MetricSource; asOf: Date }[] = imported.map((m) => ({
    ...m,
    value: Number(m.value),
  }));
  if (typed?.value != null) values.push({ metric: 'da', value: typed.value, source: 'admin', asOf: typed.asOf });
  return values.map((m) => ({
    name: m.metric,
    value: m.value,
    source: m.source,
    asOf: m.asOf.toISOString(),
    stale: isStale(m.asOf, now),
  }));
}

const rate = (n: number, of: number) => (of === 0 ? null : Math.round((n / of) * 1000) / 1000);

/**
 * Byline's own record of an outlet, from its placements and the watch's checks (issue 48):
 * - delivered: placements published (with or without a live link);
 * - onTimeRate: the share published by the promised date (issue 59: its "Live by",
 *   live_by(promised_by, promise_moved_days)), or, for a placement bought before promises, within
 *   its opportunity's turnaround of payment (these two by `outlet_delivery()`, drizzle/0054, which
 *   the cards' copy and the search's on-time sort are kept by);
 *   onTime: the same as counts, "n of m" (issue 57: "100% on time" read as a record from one placement);
 * - medianDaysToPublish: from payment to publication, in days (one decimal);
 * - survival30 / survival90: of the live links published at least 30 (90) days ago, the share still
 *   live that many days on: no publication case was open then, nor had one ended in a refund;
 * - deliveredAsListed: of the live links checked, those whose first check found the link to the
 *   brand with the rel the opportunity promised (dofollow when it promised none) on an indexable page.
 */
async function outletRecord(db: Db, outletId: string, now: Date): Promise<OutletRecord> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    WITH delivered AS (
      SELECT pay.id, pay.paid_at, pub.published_at, pub.url, o.tat_days, o.link_type,
        -- the promise it was held to (issue 59): its "Live by" when it has one
        CASE WHEN pl.promised_by IS NOT NULL THEN live_by(pl.promised_by, pl.promise_moved_days) END AS live_by
      FROM opportunities o
      JOIN payments pay ON pay.opportunity_id = o.id
      JOIN publications pub ON pub.placement_id = pay.id
      LEFT JOIN placements pl ON pl.id = pay.id
      WHERE o.outlet_id = ${outletId}
    ),
    survival AS (
      SELECT d.id, n.days,
        NOT EXISTS (
          SELECT 1 FROM publication_cases c
          WHERE c.placement_id = d.id AND c.opened_at <= d.published_at + make_interval(days => n.days)
            AND (c.outcome = 'refunded' OR c.closed_at IS NULL OR c.closed_at > d.published_at + make_interval(days => n.days))
        ) AS live
      FROM delivered d CROSS JOIN (VALUES (30), (90)) AS n(days)
      WHERE d.url IS NOT NULL AND d.published_at + make_interval(days => n.days) <= ${at}
    ),
    first_checks AS (
      SELECT DISTINCT ON (d.id) d.id, d.link_type, ch."check" AS c
      FROM delivered d JOIN publication_checks ch ON ch.placement_id = d.id
      WHERE d.url IS NOT NULL
      ORDER BY d.id, ch.checked_at
    )
    SELECT
      r.delivered, r.on_time_rate, x.promise_p50_days, x.promise_p90_days,
      (SELECT count(*)::int FROM delivered WHERE live_by IS NOT NULL OR tat_days IS NOT NULL) AS timed,
      (SELECT count(*)::int FROM delivered WHERE CASE WHEN live_by IS NOT NULL THEN published_at <= live_by
        ELSE tat_days IS NOT NULL AND published_at <= paid_at + make_interval(days => tat_days) END) AS on_time,
      (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM published_at - paid_at) / 86400)
        FROM delivered) AS median_days,
      (SELECT count(*)::int FROM survival WHERE days = 30) AS eligible30,
      (SELECT count(*)::int FROM survival WHERE days = 30 AND live) AS live30,
      (SELECT count(*)::int FROM survival WHERE days = 90) AS eligible90,
      (SELECT count(*)::int FROM survival WHERE days = 90 AND live) AS live90,
      (SELECT count(*)::int FROM first_checks) AS checked,
      (SELECT count(*)::int FROM first_checks
        WHERE (c->'link'->>'found')::boolean IS TRUE
          AND c->'link'->>'rel' = coalesce(link_type, 'dofollow')
          AND (c->>'indexable')::boolean IS NOT FALSE) AS as_listed
    FROM outlet_delivery(${outletId}) r
    JOIN outlets x ON x.id = ${outletId}
  `);
  const [r] = (result as unknown as { rows: Record<string, number | string | null>[] }).rows;
  const n = (k: string) => Number(r[k] ?? 0);
  return {
    delivered: n('delivered'),
    onTimeRate: r.on_time_rate == null ? null : Number(r.on_time_rate),
    onTime: { n: n('on_time'), m: n('timed') },
    medianDaysToPublish: r.median_days == null ? null : Math.round(Number(r.median_days) * 10) / 10,
    survival30: rate(n('live30'), n('eligible30')),
    survival90: rate(n('live90'), n('eligible90')),
    deliveredAsListed: { n: n('as_listed'), m: n('checked') },
    // kept on the outlet by the database (drizzle/0047)
    promiseDays: r.promise_p90_days == null ? null : { p50: n('promise_p50_days'), p90: n('promise_p90_days') },
  };
}

/** GET /api/outlets/{id}: the outlet, its metrics with their dates, Byline's record and the opportunities a brand can buy now. Null: no such outlet. */
export async function outletDetail(db: Db, outletId: string, now: Date = clockNow()): Promise<OutletDetail | null> {
  const [outlet] = await db.select().from(outlets).where(eq(outlets.id, outletId));
  if (!outlet) return null;
  const since = startOfUtcDay(now).toISOString();
  const [metrics, record, available] = await Promise.all([
    currentMetrics(db, outletId, now),
    outletRecord(db, outletId, now),
    db
      // with the promise, as the cards have it
      .select({ ...getTableColumns(opportunities), promise: promiseOn(since) })
      .from(opportunities)
      .where(and(eq(opportunities.outletId, outletId), claimable(since)))
      .orderBy(desc(opportunities.createdAt))
      .limit(100),
  ]);
  return {
    id: outlet.id,
    host: outlet.host,
    name: outlet.name,
    url: outlet.url,
    logoUrl: outlet.logoUrl,
    country: outlet.country,
    language: outlet.language,
    topics: outlet.topics,
    metrics,
    record,
    opportunities: available.map(toBrandOpportunityJson),
  };
}
