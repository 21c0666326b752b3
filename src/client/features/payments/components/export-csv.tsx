import * as React from 'react';
import { Download } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { apiUrl } from '@shared/api-paths';

const STATUSES = [
  ['', 'All statuses'],
  ['paid', 'Paid - Held'],
  ['released', 'Released'],
  ['refunded', 'Refunded'],
] as const;

/**
 * "Export CSV": the payments whose brand, e-mail, opportunity or outlet the search finds, narrowed
 * by status and a date range, as one CSV file the server streams (any number of rows). The link
 * carries the filters, so it is a plain download.
 */
export function ExportCsv({ q }: { q: string }) {
  const [status, setStatus] = React.useState('');
  const [from, setFrom] = React.useState('');
  const [to, setTo] = React.useState('');
  const backwards = Boolean(from && to && from > to);
  const params = new URLSearchParams();
  if (status) params.set('status', status);
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  if (q) params.set('q', q);
  const query = params.toString();
  const href = apiUrl('/api/admin/payments/export.csv', {}, new URLSearchParams(query));
  const control = 'h-9 w-full sm:w-40';
  return (
    <div className="flex flex-col gap-3 rounded-lg border bg-card p-4 sm:flex-row sm:flex-wrap sm:items-end" data-testid="export-csv">
      <div className="space-y-1.5">
        <Label htmlFor="export-status">Status</Label>
        <select
          id="export-status"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          className={cn(control, 'block rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring')}
        >
          {STATUSES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="export-from">Paid from</Label>
        <Input id="export-from" type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} className={control} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="export-to">Paid to</Label>
        <Input id="export-to" type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} className={control} />
      </div>
      <div className="space-y-1.5">
        {backwards ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            “Paid from” must not be after “Paid to”
          </p>
        ) : (
          <Button asChild variant="outline" className="w-full sm:w-auto">
            <a href={href} download>
              <Download className="size-4" aria-hidden="true" />
              Export CSV
            </a>
          </Button>
        )}
      </div>
      {q && (
        // the export's search also looks at the opportunity and outlet, where the list's looks at the brand only
        <p className="text-xs text-muted-foreground sm:basis-full">
          Includes only the payments whose brand, e-mail, opportunity or outlet contains “{q}”.
        </p>
      )}
    </div>
  );
}
