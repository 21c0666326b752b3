import * as React from 'react';
import { useSearchParams } from 'wouter';
import { useClients, useReviewOnly } from '@/lib/org';

/** The one client a list shows (`?client=` in the URL, so a reload or a shared link keeps it); null: all. */
export function useClientParam(): [string | null, (id: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = React.useCallback(
    (id: string | null) =>
      setParams((prev) => {
        const p = new URLSearchParams(prev);
        if (id) p.set('client', id);
        else p.delete('client');
        return p;
      }),
    [setParams],
  );
  return [params.get('client'), set];
}

/**
 * An agency's view of one client (decision 035), on My Articles and Payments: shown when the
 * organisation has clients (a member limited to some: theirs). A client reviewer sees only its
 * clients' placements already, and no filter.
 */
export function ClientFilter({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const reviewOnly = useReviewOnly();
  const clients = useClients(reviewOnly === false).data ?? [];
  if (reviewOnly !== false || clients.length === 0) return null;
  return (
    <div className="grid gap-1.5 text-sm sm:w-56">
      <label htmlFor="client-filter" className="font-medium">
        Client
      </label>
      <select
        id="client-filter"
        className="h-9 rounded-md border bg-background px-2"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value || null)}
        data-testid="client-filter"
      >
        <option value="">All clients</option>
        {clients.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}
