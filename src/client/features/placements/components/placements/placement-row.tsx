import * as React from 'react';
import { format } from 'date-fns';
import { Link } from 'wouter';
import { AlertOctagon, ExternalLink, Link2Off, PanelTop, RefreshCw } from 'lucide-react';
import { formatUsd } from '@shared/money';
import type { LivePlacementItem, PublicationCheck } from '@shared/publication';
import { CheckResult, HealthBadge, hostOf } from '@/components/publication/check-result';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useRecheckPlacement } from '../../api/admin-placements';
import { brandLabel } from './brand-label';
import { ChangeUrlDialog } from './change-url-dialog';
import { RefundButton } from '@/components/refund-button';

const day = (iso: string) => format(new Date(iso), 'MMM d, yyyy');
const moment = (iso: string) => format(new Date(iso), 'MMM d, yyyy, h:mm a');
// the next check is at most days away: the year goes without saying
const soon = (iso: string) => format(new Date(iso), 'MMM d, h:mm a');

/** The toast of a check made now: all good, warnings, or the problems it found. */
function checkToast(check: PublicationCheck) {
  const problems = check.problems.map((p) => p.message).join(' ');
  if (check.result === 'pass') {
    return { title: 'Article checked', description: 'The page is live, indexable and links to the brand.' };
  }
  if (check.result === 'warning') return { title: 'Article checked, with warnings', description: problems };
  return { title: 'The check found problems', description: problems, variant: 'destructive' as const };
}

/** Recheck now: the live article checked at once, its result applied (Placements, and the placement's page). */
export function RecheckButton({ paymentId }: { paymentId: string }) {
  const recheck = useRecheckPlacement();
  const run = () =>
    recheck.mutate(paymentId, {
      onSuccess: (check) => toast(checkToast(check)),
      onError: (err) =>
        toast({
          title: 'Check failed',
          description: errorMessage(err, 'The article could not be checked'),
          variant: 'destructive',
        }),
    });
  return (
    <Button variant="outline" size="sm" onClick={run} disabled={recheck.isPending}>
      <RefreshCw className={recheck.isPending ? 'animate-spin' : undefined} />
      {recheck.isPending ? 'Checking...' : 'Recheck now'}
    </Button>
  );
}

/** The open case: what is wrong and the date by which the outlet must restore the article. */
export function OpenCase({ issue }: { issue: NonNullable<LivePlacementItem['publication']['issue']> }) {
  return (
    <div className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="placement-case">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold">
        <AlertOctagon className="size-4 shrink-0 text-destructive" />
        <span>Restore by {day(issue.restoreBy)}</span>
      </p>
      <p className="mt-1 break-words">{issue.reason}</p>
      <p className="mt-1 text-xs text-red-800/80">
        Case opened {day(issue.openedAt)}. If the article is not restored by then, the brand is refunded automatically.
      </p>
    </div>
  );
}

/** The live article's address as a link, or what to do when it was published without one. */
export function LiveUrl({ url }: { url: string | null }) {
  return url ? (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      className="flex items-start gap-1.5 text-sm text-primary hover:underline"
      data-testid="placement-url"
    >
      <ExternalLink className="mt-0.5 size-4 shrink-0" />
      <span className="min-w-0 wrap-anywhere">{url}</span>
    </a>
  ) : (
    <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
      <Link2Off className="size-4 shrink-0" /> Published without a live link: add its URL to start the guarantee's checks.
    </p>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt> <dd className="text-sm">{children}</dd>
    </div>
  );
}

/** One published placement: what, where, for whom, its live article, its health and what the admin can do. */
export function PlacementRow({ placement: p }: { placement: LivePlacementItem }) {
  const [changing, setChanging] = React.useState(false);
  const pub = p.publication;
  const refunded = pub.health === 'refunded';
  const last = pub.lastCheck;
  // a failing check with no case yet: the next one (an hour on at the earliest) confirms it first. A
  // placement with a reason on record may have accepted these problems, so it says nothing then.
  const unconfirmed = Boolean(p.failingSince) && !pub.issue;

  return (
    <li className="space-y-4 p-4 sm:p-5" data-testid="placement-row">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="min-w-0 space-y-1">
          <p className="font-medium leading-snug break-words">{p.title}</p>
          <p className="text-sm break-words">
            <span className="text-muted-foreground">{p.outletName}</span>
            <span className="text-muted-foreground"> · </span>
            <span>{brandLabel(p.brand)}</span>
          </p>
          {/* whose it is (decision 033) and for which of its clients (decision 035) */}
          <p className="text-sm break-words">
            <Link href={`/admin/organisations/${p.organisation.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
              {p.organisation.name}
            </Link>
            {p.client && <span> for {p.client.name}</span>}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-3 sm:flex-col sm:items-end sm:gap-1.5">
          <HealthBadge health={pub.health} />
          <p className="font-semibold tabular-nums">{formatUsd(p.amount)}</p>
        </div>
      </div>

      <LiveUrl url={pub.url} />

      {pub.issue && <OpenCase issue={pub.issue} />}

      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-3">
        <Fact label="Published">{day(p.publishedAt)}</Fact>
        <Fact label="Guaranteed until">{day(pub.guaranteeEndsAt)}</Fact>
        <Fact label="Next check">
          {p.nextCheckAt ? soon(p.nextCheckAt) : refunded ? 'Not watched' : 'None scheduled'}
        </Fact>
        {pub.restoredAt && !pub.issue && <Fact label="Restored">{day(pub.restoredAt)}</Fact>}
      </dl>

      {last && (
        <div className="min-w-0 space-y-2 rounded-lg border bg-muted/30 px-3 py-2.5" data-testid="placement-last-check">
          <p className="text-xs font-medium text-muted-foreground">Last check · {moment(last.checkedAt)}</p>
          <CheckResult check={last} brandHost={hostOf(p.brandWebsite)} className="sm:flex sm:flex-wrap sm:gap-x-5 sm:gap-y-1 sm:space-y-0" />
          {unconfirmed && (
            <p className="text-xs text-amber-800">
              Not confirmed yet: a case opens only if the next check, at least an hour later, finds the problem again.
            </p>
          )}
        </div>
      )}

      {pub.overrideReason && (
        <p className="text-xs break-words text-muted-foreground">
          <span className="font-medium text-foreground">Admin's reason:</span> {pub.overrideReason}
        </p>
      )}

      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <Link href={`/admin/projects/${p.paymentId}`} data-testid="placement-link">
            <PanelTop /> Details
          </Link>
        </Button>
        {!refunded && (
          <>
            {pub.url && <RecheckButton paymentId={p.paymentId} />}
            <Button variant="outline" size="sm" onClick={() => setChanging(true)}>
              {pub.url ? 'Change URL' : 'Add URL'}
            </Button>
            <RefundButton
              paymentId={p.paymentId}
              amount={p.amount}
              refundedAmount={p.refundedAmount}
              title={p.title}
              brand={brandLabel(p.brand)}
              question="Refund this placement?"
              consequence="the article is no longer watched"
            />
            <ChangeUrlDialog placement={p} open={changing} onOpenChange={setChanging} />
          </>
        )}
      </div>
    </li>
  );
}
