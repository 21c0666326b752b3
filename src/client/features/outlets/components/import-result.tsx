import * as React from 'react';
import { Link } from 'wouter';
import { AlertTriangle, ArrowRight, CheckCircle2 } from 'lucide-react';
import { METRIC_LABELS, METRIC_STALE_DAYS } from '@shared/outlets';
import type { MetricsImportResult } from '@shared/schemas/outlets';
import { formatMetricDay, formatMetricValue, plural } from '@/components/outlet/outlet-text';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';

/** How many rows of a long list show before "Show all" (an export of 5,000 hosts has 15,000 changes). */
const SHOWN = 100;

/** The first SHOWN items of a list, and the button that shows the rest. */
function useShowAll<T>(items: T[]) {
  const [all, setAll] = React.useState(false);
  const shown = all ? items : items.slice(0, SHOWN);
  const more =
    items.length > shown.length ? (
      <Button variant="ghost" size="sm" onClick={() => setAll(true)}>
        Show all {items.length.toLocaleString('en-US')}
      </Button>
    ) : null;
  return { shown, more };
}

/** "3 changes, 1 host not on Byline, 0 rows with problems": what the file holds, in one line. */
function importSummary(r: MetricsImportResult): string {
  const stale = r.changes.filter((c) => c.stale).length;
  return [
    `${plural(r.changes.length, 'change', 'changes')}${stale ? ` (${stale.toLocaleString('en-US')} stale)` : ''}`,
    plural(r.unmatched.length, 'host not on Byline', 'hosts not on Byline'),
    plural(r.errors.length, 'row with problems', 'rows with problems'),
  ].join(', ');
}

/** The header cells (the table's on a wide screen; read by screen readers only on a phone). */
const HEADERS = ['Outlet', 'Host', 'Metric', 'From → to', 'As of'];
/** On a phone each row is a small card: outlet, host and metric on the left, the values and day on the right. */
const CELL = 'px-3 py-2 max-sm:p-0';

function Changes({ changes }: { changes: MetricsImportResult['changes'] }) {
  const { shown, more } = useShowAll(changes);
  if (changes.length === 0) return null;
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">Changes</h3>
      {changes.some((c) => c.stale) && (
        <p className="text-sm text-muted-foreground" data-testid="import-stale-note">
          Values marked Stale are dated more than {METRIC_STALE_DAYS} days ago: they show as stale on the outlets’ pages
          and do not count as fresh metrics in the catalogue’s search.
        </p>
      )}
      {/*
        A table on a wide screen, scrolling sideways inside its border when the window is narrower
        than it; stacked cards on a phone. The roles keep it a table to screen readers whatever its
        CSS display; `relative` clips its screen-reader-only words with it.
      */}
      <div className="relative sm:overflow-x-auto sm:rounded-lg sm:border">
        <table role="table" className="w-full text-sm max-sm:block sm:min-w-[640px]">
          <thead role="rowgroup" className="max-sm:sr-only">
            <tr role="row" className="border-b bg-muted/50 text-left text-muted-foreground">
              {HEADERS.map((h) => (
                <th key={h} role="columnheader" scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody role="rowgroup" className="max-sm:block max-sm:space-y-2">
            {shown.map((c, i) => (
              <tr
                key={`${i}-${c.outletId}-${c.metric}`}
                role="row"
                className="border-b last:border-0 max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:rounded-lg max-sm:border max-sm:p-3 max-sm:last:border"
                data-testid="import-change"
              >
                <td role="cell" className={CELL}>
                  <Link
                    href={`/admin/outlets/${c.outletId}`}
                    className="font-medium break-words text-primary underline-offset-4 hover:underline"
                  >
                    {c.outletName}
                  </Link>
                </td>
                <td
                  role="cell"
                  className={`${CELL} break-all text-muted-foreground max-sm:col-start-1 max-sm:row-start-2 max-sm:text-xs`}
                >
                  {c.host}
                </td>
                <td
                  role="cell"
                  className={`${CELL} max-sm:col-start-1 max-sm:row-start-3`}
                  data-testid="import-change-metric"
                >
                  {METRIC_LABELS[c.metric]}
                </td>
                <td
                  role="cell"
                  className={`${CELL} whitespace-nowrap tabular-nums max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right`}
                  data-testid="import-change-values"
                >
                  <span className="text-muted-foreground">
                    {c.from === null ? 'none' : formatMetricValue(c.metric, c.from)}
                  </span>
                  <ArrowRight className="mx-1 inline size-3.5 text-muted-foreground" aria-hidden />
                  <span className="sr-only"> to </span>
                  <span className="font-semibold">{formatMetricValue(c.metric, c.to)}</span>
                </td>
                <td
                  role="cell"
                  className={`${CELL} whitespace-nowrap tabular-nums max-sm:col-start-2 max-sm:row-start-2 max-sm:text-right max-sm:text-xs max-sm:text-muted-foreground`}
                >
                  {formatMetricDay(c.asOf)}
                  {c.stale && (
                    <Badge variant="warning" className="ml-1.5" data-testid="import-change-stale">
                      Stale
                    </Badge>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more}
    </div>
  );
}

function Unmatched({ hosts }: { hosts: string[] }) {
  const { shown, more } = useShowAll(hosts);
  if (hosts.length === 0) return null;
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">Hosts not on Byline</h3>
      <p className="text-sm text-muted-foreground">
        No outlet has these websites, so their rows are left out. They become outlets when an opportunity lists them.
      </p>
      <ul className="flex flex-wrap gap-1.5">
        {shown.map((h) => (
          <li
            key={h}
            className="rounded-md bg-secondary px-2 py-0.5 text-xs font-medium break-all text-secondary-foreground"
            data-testid="import-unmatched"
          >
            {h}
          </li>
        ))}
      </ul>
      {more}
    </div>
  );
}

function Problems({ errors }: { errors: MetricsImportResult['errors'] }) {
  const { shown, more } = useShowAll(errors);
  if (errors.length === 0) return null;
  return (
    <div className="space-y-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-950">
      <h3 className="flex items-center gap-1.5 font-semibold">
        <AlertTriangle className="size-4 shrink-0" aria-hidden /> Rows with problems
      </h3>
      <p>A file with any row that cannot be used is not imported at all: fix these rows and check the file again.</p>
      <ul className="space-y-1">
        {shown.map((e) => (
          <li key={`${e.line}-${e.message}`} className="break-words" data-testid="import-error">
            <span className="font-semibold tabular-nums">Line {e.line}:</span> {e.message}
          </li>
        ))}
      </ul>
      {more}
    </div>
  );
}

/**
 * What a checked (or applied) file changes: the summary, the rows with problems and their lines, the
 * changes outlet by outlet, and the hosts no outlet has.
 */
export function ImportResult({ result, children }: { result: MetricsImportResult; children?: React.ReactNode }) {
  return (
    <section
      className="min-w-0 space-y-4 rounded-xl border bg-card p-4 text-card-foreground shadow-sm sm:p-6"
      aria-labelledby="import-result-title"
      data-testid="import-result"
    >
      <div className="space-y-1">
        <h2 id="import-result-title" className="flex items-center gap-2 text-base font-semibold">
          {result.applied && <CheckCircle2 className="size-4 text-emerald-700" aria-hidden />}
          {result.applied ? 'Imported' : 'What this file would change'}
        </h2>
        <p className="text-sm" data-testid="import-summary">
          {importSummary(result)}
          <span className="text-muted-foreground"> ({plural(result.rows, 'row', 'rows')} read)</span>
        </p>
        {result.applied && (
          <p className="text-sm text-muted-foreground">These values now show on the outlets’ pages.</p>
        )}
      </div>
      <Problems errors={result.errors} />
      <Changes changes={result.changes} />
      <Unmatched hosts={result.unmatched} />
      {children}
    </section>
  );
}
