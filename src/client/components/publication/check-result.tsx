import { AlertTriangle, CheckCircle2, XCircle } from 'lucide-react';
import type { PublicationCheck, PublicationHealth } from '@shared/publication';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

/** How each health reads, on My Articles and on Admin Placements. */
const HEALTH: Record<PublicationHealth, { label: string; variant: 'success' | 'warning' | 'destructive' | 'secondary' | 'info' }> = {
  ok: { label: 'Live', variant: 'success' },
  warning: { label: 'Live with warnings', variant: 'warning' },
  unverified: { label: 'Not verified', variant: 'secondary' },
  issue: { label: 'Issue detected', variant: 'destructive' },
  refunded: { label: 'Refunded', variant: 'info' },
};

export function HealthBadge({ health }: { health: PublicationHealth }) {
  const h = HEALTH[health];
  return (
    <Badge variant={h.variant} data-testid="publication-health">
      {h.label}
    </Badge>
  );
}

/**
 * What a check found, line by line: passed lines in green, problems (blocking or warnings) after them.
 * "Link to" names the site the check found the link to (a client's, issue 57); `brandHost` names it
 * for checks made before they said.
 */
export function CheckResult({ check, brandHost, className }: { check: PublicationCheck; brandHost?: string | null; className?: string }) {
  const passed: string[] = [];
  if (check.httpStatus !== null && check.httpStatus < 400) passed.push(`Reachable (HTTP ${check.httpStatus})`);
  if (check.indexable) passed.push('Indexable');
  if (check.link.found && check.link.rel) passed.push(`Link to ${check.link.site || brandHost || 'the brand'}: ${check.link.rel}`);
  return (
    <ul className={cn('space-y-1 text-sm', className)} aria-label="Check result" data-testid="check-result">
      {passed.map((line) => (
        <li key={line} className="flex items-start gap-1.5 text-emerald-700">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0" /> <span className="min-w-0">{line}</span>
        </li>
      ))}
      {check.problems.map((p) => {
        const warning = p.code === 'rel_mismatch' || p.code === 'text_changed';
        return (
          <li key={p.code + p.message} className={cn('flex items-start gap-1.5', warning ? 'text-amber-700' : 'text-destructive')}>
            {warning ? <AlertTriangle className="mt-0.5 size-4 shrink-0" /> : <XCircle className="mt-0.5 size-4 shrink-0" />}
            <span className="min-w-0">{p.message}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** "brand.example.com" of a website as profiles store it, for the link line. */
export function hostOf(website: string | null | undefined): string | null {
  if (!website) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(website) ? website : `https://${website}`);
    return url.hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}
