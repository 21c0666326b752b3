import * as React from 'react';
import { Link } from 'wouter';
import type { UseQueryResult } from '@tanstack/react-query';
import { ArrowLeft, BarChart3, ExternalLink, Newspaper, ShieldCheck } from 'lucide-react';
import type { MessageSide } from '@shared/messages';
import { METRIC_LABELS, METRIC_STALE_DAYS, ON_TIME_MIN_PLACEMENTS, SOURCE_LABELS } from '@shared/outlets';
import type { OutletDetail, OutletMetricValue, OutletRecord } from '@shared/schemas/outlets';
import { TopicChips, knownTopics, outletFacts } from '@/components/outlet/catalogue-facts';
import { OutletLogo } from '@/components/outlet/outlet-logo';
import { formatMetricDay, formatMetricValue, formatShare, sortMetrics } from '@/components/outlet/outlet-text';
import { QueryError } from '@/components/query-error';
import { PageSection } from '@/components/page-section';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { ApiError, errorMessage } from '@/lib/api';

const BACK: Record<MessageSide, { href: string; label: string }> = {
  brand: { href: '/brand/opportunities', label: 'Back to Opportunities' },
  admin: { href: '/admin/outlets/import', label: 'Back to Outlet metrics' },
};

/**
 * The outlet's own address as a link target: http(s) as it is, a bare host as https, and nothing
 * for any other scheme (the URL is typed by an admin; only web pages are opened from here).
 */
function webHref(url: string): string | null {
  if (/^https?:\/\//i.test(url)) return url;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return null;
  return `https://${url}`;
}

/** The outlet's logo, name, website, country, language and topics. */
function OutletHeader({ o }: { o: OutletDetail }) {
  const facts = outletFacts(o);
  const href = o.url ? webHref(o.url) : null;
  const shown = o.host ?? o.url;
  return (
    <div className="flex items-start gap-4">
      <OutletLogo name={o.name} logoUrl={o.logoUrl} className="size-14 sm:size-16" />
      <div className="min-w-0 flex-1 space-y-1.5">
        <h1
          className="text-xl font-semibold leading-snug tracking-tight break-words sm:text-2xl"
          data-testid="outlet-name"
        >
          {o.name}
        </h1>
        {href && shown ? (
          <a
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex max-w-full items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
            data-testid="outlet-website"
          >
            <span className="min-w-0 break-all">{shown}</span>
            <ExternalLink className="size-3.5 shrink-0" aria-hidden />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : (
          shown && <p className="text-sm break-all text-muted-foreground">{shown}</p>
        )}
        {facts.length > 0 && (
          <p className="text-sm text-muted-foreground" data-testid="outlet-facts">
            {facts.join(' · ')}
          </p>
        )}
        <TopicChips topics={knownTopics(o.topics)} />
      </div>
    </div>
  );
}

/** One value of a metric: the tool's latest, with its date, flagged when older than METRIC_STALE_DAYS. */
function MetricRow({ m }: { m: OutletMetricValue }) {
  return (
    <div
      className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 px-3 py-2.5"
      data-testid="outlet-metric"
      data-metric={m.name}
      data-source={m.source}
    >
      <dt className="min-w-0 space-y-0.5">
        <span className="block font-medium" data-testid="metric-name">
          {METRIC_LABELS[m.name]}
        </span>
        <span className="block text-xs text-muted-foreground">
          <span data-testid="metric-source">{SOURCE_LABELS[m.source]}</span>, as of{' '}
          <span className="tabular-nums" data-testid="metric-as-of">
            {formatMetricDay(m.asOf)}
          </span>
        </span>
      </dt>
      <dd className="ml-auto text-right text-base font-semibold tabular-nums" data-testid="metric-value">
        {formatMetricValue(m.name, m.value)}
      </dd>
      {m.stale && (
        <dd className="flex basis-full flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
          <Badge variant="warning" data-testid="metric-stale">
            Stale
          </Badge>
          older than {METRIC_STALE_DAYS} days
        </dd>
      )}
    </div>
  );
}

/** The metrics the SEO tools report for the outlet (and the domain authority its listing states), each with its source and date. */
function OutletMetrics({ metrics }: { metrics: OutletMetricValue[] }) {
  const sorted = React.useMemo(() => sortMetrics(metrics), [metrics]);
  return (
    <PageSection
      title="Metrics"
      icon={<BarChart3 />}
      description="The latest value each tool reported, with the day it was true on. Domain Rating (Ahrefs) and Domain Authority (Moz, and the one the listing states) both rate a website from 1 to 100, each on its own scale: compare them tool by tool."
      testId="outlet-metrics"
    >
      {sorted.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="no-metrics">
          No metrics yet.
        </p>
      ) : (
        <dl className="divide-y rounded-lg border text-sm">
          {sorted.map((m) => (
            <MetricRow key={`${m.name}-${m.source}`} m={m} />
          ))}
        </dl>
      )}
    </PageSection>
  );
}

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
const businessDays = (n: number) => `${n} business ${n === 1 ? 'day' : 'days'}`;

/** Byline's own record of the outlet: what it delivered, how fast, and whether the links stayed live. */
function OutletRecordSection({ record: r }: { record: OutletRecord }) {
  const rows: { label: string; value: string; testId: string }[] = [
    { label: 'Delivered', value: String(r.delivered), testId: 'record-delivered' },
    // the count always, the share only once there are enough to make one (issue 57); on time is
    // published by the promised date ("Live by"), or within the listed turnaround before promises (issue 59)
    {
      label: 'Published by the promised date',
      value:
        r.onTime.m === 0
          ? '—'
          : `${r.onTime.n} of ${r.onTime.m}${r.onTime.m >= ON_TIME_MIN_PLACEMENTS ? ` (${formatShare(r.onTimeRate)})` : ''}`,
      testId: 'record-on-time',
    },
    {
      label: 'Median days to publish',
      value: r.medianDaysToPublish === null ? '—' : days(r.medianDaysToPublish),
      testId: 'record-median-days',
    },
    // what its "Live by" promise counts (issue 59): business days from brief to publication
    {
      label: 'Days to publish',
      value:
        r.promiseDays === null
          ? 'Not enough deliveries yet'
          : `P50 ${businessDays(r.promiseDays.p50)} · P90 ${businessDays(r.promiseDays.p90)} to publish`,
      testId: 'record-promise-days',
    },
    { label: 'Link live at 30 days', value: formatShare(r.survival30), testId: 'record-live-30' },
    { label: 'Link live at 90 days', value: formatShare(r.survival90), testId: 'record-live-90' },
    {
      label: 'Delivered as listed',
      value: `${r.deliveredAsListed.n}/${r.deliveredAsListed.m}`,
      testId: 'record-as-listed',
    },
  ];
  return (
    <PageSection
      title="Byline’s record"
      icon={<ShieldCheck />}
      description="From Byline’s own placements and the daily checks of their live links."
      testId="outlet-record"
    >
      <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-2 text-sm">
        {rows.map((row) => (
          <React.Fragment key={row.testId}>
            <dt className="text-muted-foreground">{row.label}</dt>
            <dd className="text-right font-semibold tabular-nums" data-testid={row.testId}>
              {row.value}
            </dd>
          </React.Fragment>
        ))}
      </dl>
      <p className="text-xs text-muted-foreground">
        {r.delivered === 0 ? 'No placement at this outlet has been published through Byline yet. ' : ''}
        On time: published within the turnaround the listing states. Delivered as listed: of the live links checked,
        those with the promised link type on an indexable page. Days to publish: business days from the brief to
        publication over its last 50 deliveries; half were as fast as P50, nine in ten as P90, the date “Live by” promises.
      </p>
    </PageSection>
  );
}

/**
 * An outlet's page (issue 48), for brands and admins alike: its logo, name, website and facts; its
 * metrics with their sources and dates; Byline's record of it; and its opportunities, which each
 * side lists in its own way (a brand opens and buys them, an admin edits them).
 */
export function OutletFrame({
  side,
  query,
  opportunities,
}: {
  side: MessageSide;
  query: UseQueryResult<OutletDetail>;
  opportunities: (o: OutletDetail) => React.ReactNode;
}) {
  const back = BACK[side];
  const o = query.data;
  return (
    <div className="space-y-5">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link href={back.href}>
          <ArrowLeft /> {back.label}
        </Link>
      </Button>
      {query.isLoading ? (
        <PageSpinner />
      ) : !o && !(query.error instanceof ApiError && query.error.status === 404) ? (
        <QueryError query={query} title="Failed to load this outlet" />
      ) : !o ? (
        <div role="alert" className="rounded-lg border border-destructive/30 bg-red-50 p-4 text-sm text-destructive">
          {/* the page's one h1, even when there is no outlet to name */}
          <h1 className="font-medium">Outlet not found</h1>
          <p>{errorMessage(query.error, 'Please try again.')}</p>
        </div>
      ) : (
        <>
          <OutletHeader o={o} />
          <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-2">
            <OutletMetrics metrics={o.metrics} />
            <OutletRecordSection record={o.record} />
          </div>
          <PageSection
            title="Opportunities"
            icon={<Newspaper />}
            description={
              side === 'brand' ? 'What you can buy from this outlet now.' : 'What brands can buy from this outlet now.'
            }
            testId="outlet-opportunities"
          >
            {opportunities(o)}
          </PageSection>
        </>
      )}
    </div>
  );
}
