import * as React from 'react';
import { format } from 'date-fns';
import { CalendarClock, FileDown, Share2 } from 'lucide-react';
import { REPORT_COLUMN_LABELS, REPORT_STATUS_LABELS } from '@shared/reports';
import type { Report } from '@shared/schemas/reports';
import { ShareLinkDialog } from '@/components/share-link-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useReviewOnly } from '@/lib/org';
import { ScheduleDialog } from './schedule-dialog';
import { apiUrl } from '@shared/api-paths';

const day = (d: string) => format(new Date(`${d}T00:00:00`), 'MMM d, yyyy');

/** What the report takes in: its client, its days and its status. */
function filtersOf(r: Report): string {
  const parts = [r.clientName ?? 'All clients'];
  if (r.from && r.to) parts.push(`ordered ${day(r.from)} – ${day(r.to)}`);
  else if (r.from) parts.push(`ordered from ${day(r.from)}`);
  else if (r.to) parts.push(`ordered until ${day(r.to)}`);
  parts.push(r.status ? REPORT_STATUS_LABELS[r.status] : 'every status');
  return parts.join(' · ');
}

function scheduleOf(r: Report): string {
  if (!r.cadence) return 'Not sent by e-mail';
  const n = r.recipients.length;
  const sent = r.lastSentAt ? ` · last sent ${format(new Date(r.lastSentAt), 'MMM d, yyyy')}` : '';
  return `${r.cadence === 'weekly' ? 'Weekly' : 'Monthly'} to ${n} ${n === 1 ? 'recipient' : 'recipients'}${sent}`;
}

/** A report: what it shows, its schedule, its downloads, and (for those who can) Share and Schedule. */
export function ReportRow({ report: r, canWork }: { report: Report; canWork: boolean }) {
  const [sharing, setSharing] = React.useState(false);
  const [scheduling, setScheduling] = React.useState(false);
  // a client reviewer gets every report without prices, whoever made it (decision 035)
  const reviewOnly = useReviewOnly() === true;
  const prices = r.showPrices && !reviewOnly;
  const columns = r.columns.filter((c) => c !== 'price' || prices);
  return (
    <li
      className="flex flex-col gap-3 px-4 py-4 sm:px-6 lg:flex-row lg:items-center lg:justify-between"
      data-testid="report-row"
    >
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-medium wrap-anywhere">{r.name}</h3>
          {r.whiteLabel && <Badge variant="info">White label</Badge>}
          {/* a report stored with prices on but no price column prints none (issue 57) */}
          {prices && r.columns.includes('price') && <Badge variant="warning">Shows prices</Badge>}
        </div>
        <p className="text-sm text-muted-foreground" data-testid="report-filters">
          {filtersOf(r)}
        </p>
        <p className="text-sm text-muted-foreground wrap-anywhere" data-testid="report-columns-summary">
          <span className="sr-only">Columns: </span>
          {columns.map((c) => REPORT_COLUMN_LABELS[c]).join(', ')}
        </p>
        <p className="flex items-center gap-1.5 text-sm" data-testid="report-schedule">
          <CalendarClock className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          {scheduleOf(r)}
        </p>
      </div>
      <div className="flex flex-wrap gap-2 lg:shrink-0">
        <Button asChild variant="outline" size="sm">
          <a href={apiUrl('/api/org/reports/:id/pdf', { id: r.id })} download aria-label={`PDF of ${r.name}`}>
            <FileDown /> PDF
          </a>
        </Button>
        <Button asChild variant="outline" size="sm">
          <a href={apiUrl('/api/org/reports/:id/csv', { id: r.id })} download aria-label={`CSV of ${r.name}`}>
            <FileDown /> CSV
          </a>
        </Button>
        {canWork && (
          <>
            <Button variant="outline" size="sm" onClick={() => setSharing(true)} aria-label={`Share ${r.name}`}>
              <Share2 /> Share
            </Button>
            <Button variant="outline" size="sm" onClick={() => setScheduling(true)} aria-label={`Schedule ${r.name}`}>
              <CalendarClock /> Schedule
            </Button>
          </>
        )}
      </div>
      {canWork && (
        <>
          <ShareLinkDialog
            open={sharing}
            onOpenChange={setSharing}
            endpoint={apiUrl('/api/org/reports/:id/shares', { id: r.id })}
            title={`Share ${r.name}`}
            description="A link that opens the report signed out, as it is when opened, until it expires or you revoke it."
          />
          <ScheduleDialog report={r} open={scheduling} onOpenChange={setScheduling} />
        </>
      )}
    </li>
  );
}
