import { format } from 'date-fns';
import { AlertTriangle, ExternalLink, RotateCcw, ShieldCheck } from 'lucide-react';
import type { Publication } from '@shared/publication';
import { CheckResult, HealthBadge, hostOf } from '@/components/publication/check-result';
import { useUser } from '@/lib/auth';

const day = (iso: string) => format(new Date(iso), 'MMM d, yyyy');

/**
 * The proof that the article a brand paid for is live: the link, what Byline's check found, how
 * long the guarantee watches it, and what happens when it breaks (an open case and its deadline).
 */
export function PublicationPanel({ publication: p }: { publication: Publication }) {
  const { data: user } = useUser();
  const refunded = p.health === 'refunded';
  return (
    <section aria-label="Live article" className="space-y-3 rounded-lg border bg-muted/30 p-4" data-testid="publication-panel">
      <div className="flex flex-wrap items-center gap-2">
        <HealthBadge health={p.health} />
        {p.verifiedAt && !refunded && <span className="text-sm text-muted-foreground">Verified {day(p.verifiedAt)}</span>}
        {p.restoredAt && !p.issue && !refunded && (
          <span className="inline-flex items-center gap-1 text-sm text-emerald-700">
            <RotateCcw className="size-3.5" /> Restored {day(p.restoredAt)}
          </span>
        )}
      </div>
      {p.url ? (
        <a href={p.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-start gap-1.5 text-sm font-medium text-primary hover:underline">
          <ExternalLink className="mt-0.5 size-4 shrink-0" />
          <span>View live article</span>
        </a>
      ) : (
        <p className="text-sm text-muted-foreground">Published. The link to the live article will appear here.</p>
      )}
      {p.issue && !refunded && (
        <div role="alert" className="space-y-1 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <p className="flex items-start gap-1.5 font-semibold break-words">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" /> <span className="min-w-0">{p.issue.reason}</span>
          </p>
          <p>
            The outlet has until {day(p.issue.restoreBy)} to restore it. If it is not restored by then, you are refunded in full automatically.
          </p>
        </div>
      )}
      {p.lastCheck && !p.issue && !refunded && <CheckResult check={p.lastCheck} brandHost={hostOf(user?.website)} />}
      {refunded ? (
        <p className="text-sm text-muted-foreground">This placement was refunded in full.</p>
      ) : (
        p.url && (
          <p className="inline-flex items-center gap-1.5 text-sm text-muted-foreground">
            <ShieldCheck className="size-4" /> Guaranteed until {day(p.guaranteeEndsAt)}
          </p>
        )
      )}
    </section>
  );
}
