import * as React from 'react';
import { Link } from 'wouter';
import type { UseQueryResult } from '@tanstack/react-query';
import { AlertTriangle, ArrowLeft, CheckCircle2, FileWarning, Gavel, Radar, Scale, Store, XCircle } from 'lucide-react';
import { formatUsd, toCents } from '@shared/money';
import type { MessageSide } from '@shared/messages';
import type { DisputeDetail } from '@shared/schemas/fair-terms';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { ApiError, errorMessage } from '@/lib/api';
import { useTerms } from '@/lib/terms';
import { cn } from '@/lib/utils';
import { ConversationPanel } from '../conversation/conversation-panel';
import { PageSection } from '@/components/page-section';
import {
  askedFor,
  disputeBadge,
  disputeDay,
  disputeMoment,
  dueAtOf,
  dueLine,
  reasonLabel,
  RESOLUTION_LABELS,
} from './dispute-text';

const placementHref = (side: MessageSide, paymentId: string) =>
  side === 'brand' ? `/brand/my-articles/${paymentId}` : `/admin/projects/${paymentId}`;

/** The dispute's heading: whose placement at which outlet, where the dispute stands. */
function DisputeHeader({ d, side, showAmount }: { d: DisputeDetail; side: MessageSide; showAmount: boolean }) {
  const badge = disputeBadge({ ...d, dueAt: dueAtOf(d), answered: d.answer?.action ?? null }, side);
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="outline">
            <Scale className="size-3" aria-hidden /> Dispute
          </Badge>
          <Badge variant="secondary">{d.kind === 'link' ? 'About the live link' : 'About the content'}</Badge>
          <Badge variant={badge.variant} data-testid="dispute-status">
            {badge.label}
          </Badge>
        </div>
        <h1
          className="text-xl font-semibold leading-snug tracking-tight break-words sm:text-2xl"
          data-testid="dispute-title"
        >
          {d.title}
        </h1>
        <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
          <Store className="size-4 shrink-0" aria-hidden /> <span className="min-w-0 break-words">{d.outletName}</span>
          {side === 'admin' && <span className="min-w-0 break-words" data-testid="dispute-brand">· {d.brandName}</span>}
        </p>
      </div>
      {showAmount && (
        <p className="shrink-0 text-lg font-semibold tabular-nums sm:text-right" data-testid="dispute-placement-price">
          {formatUsd(d.amount)}
        </p>
      )}
    </div>
  );
}

/** What the brand says is wrong, and what it asks for. */
function DisputeFacts({ d, side }: { d: DisputeDetail; side: MessageSide }) {
  return (
    <PageSection title="The problem" icon={<FileWarning />} testId="dispute-facts">
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
        <dt className="text-muted-foreground">Problem</dt>
        <dd className="font-medium" data-testid="dispute-reason">
          {reasonLabel(d.reason)}
        </dd>
        <dt className="mt-1 text-muted-foreground sm:mt-0">
          {side === 'brand' ? 'You asked for' : 'The brand asks for'}
        </dt>
        <dd className="font-medium" data-testid="dispute-asked">
          {askedFor(d)}
        </dd>
        <dt className="mt-1 text-muted-foreground sm:mt-0">Opened</dt>
        <dd>{disputeDay(d.createdAt)}</dd>
      </dl>
      <div className="rounded-md bg-muted/60 px-3 py-2 text-sm">
        <p className="font-medium">{side === 'brand' ? 'What you wrote' : 'What the brand wrote'}</p>
        <p className="mt-1 whitespace-pre-wrap break-words" data-testid="dispute-text">
          {d.text}
        </p>
      </div>
      <p className="text-xs text-muted-foreground">
        Any file sent with it is in the messages below, where both sides keep talking about it.
      </p>
    </PageSection>
  );
}

/**
 * The deadline that applies now (respond by, escalate by, decide by), as a date, with when it was
 * escalated and resolved: a deadline already met is history the answer and the outcome tell.
 */
function Deadlines({ d }: { d: DisputeDetail }) {
  const rows: { label: string; at: string; testId: string }[] = [];
  if (d.status === 'open' && d.respondBy)
    rows.push({ label: 'Respond by', at: d.respondBy, testId: 'deadline-respond-by' });
  if (d.status === 'offered' && d.escalateBy)
    rows.push({ label: 'Escalate by', at: d.escalateBy, testId: 'deadline-escalate-by' });
  if (d.escalatedAt) rows.push({ label: 'Escalated', at: d.escalatedAt, testId: 'escalated-at' });
  if (d.status === 'escalated' && d.decideBy)
    rows.push({ label: 'Decide by', at: d.decideBy, testId: 'deadline-decide-by' });
  if (d.resolvedAt) rows.push({ label: 'Resolved', at: d.resolvedAt, testId: 'resolved-at' });
  if (rows.length === 0) return null;
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm" data-testid="dispute-deadlines">
      {rows.map((r) => (
        <React.Fragment key={r.testId}>
          <dt className="text-muted-foreground">{r.label}</dt>
          <dd className="font-medium tabular-nums" data-testid={r.testId}>
            {disputeDay(r.at)}
          </dd>
        </React.Fragment>
      ))}
    </dl>
  );
}

/** What happens when the deadline that applies passes, in the words of the side reading it. */
function consequence(d: DisputeDetail, side: MessageSide): string | null {
  const brand = side === 'brand';
  if (d.status === 'open' && d.kind === 'content')
    return brand
      ? 'Not answered by then, you get what you asked for.'
      : 'Unanswered by then, the brand gets what it asked for.';
  if (d.status === 'offered')
    return d.answer?.action === 'offer'
      ? brand
        ? 'Accept the offer, or escalate it to another member of the editorial team; if you do neither, the offer stands.'
        : 'The brand accepts or escalates; if it does neither, the offer stands.'
      : brand
        ? 'Escalate it to another member of the editorial team if you disagree; otherwise the rejection stands.'
        : 'If the brand does not escalate, the rejection stands.';
  if (d.status === 'escalated')
    return `${brand ? 'A member of the editorial team' : 'An admin'} who neither published this placement nor answered the dispute decides it, with a written reason. Not decided by then, ${brand ? 'you get what you' : 'the brand gets what it'} asked for.`;
  return null;
}

/** The editorial team's answer (or Byline's checks'), as the side reading it says it. */
function Answer({ d, side }: { d: DisputeDetail; side: MessageSide }) {
  const a = d.answer;
  if (!a) return null;
  const who = side === 'brand' ? 'The editorial team' : 'The team';
  // a link dispute's rejection without an admin is Byline's checks' (disputes/service.ts linkEvidence)
  const what =
    a.action === 'accept'
      ? `${who} accepted: ${side === 'brand' ? 'you get what you' : 'the brand gets what it'} asked for`
      : a.action === 'offer'
        ? a.amountUsd
          ? `${who} offered ${formatUsd(a.amountUsd)} back`
          : `${who} offered a correction`
        : d.kind === 'link'
          ? 'Rejected'
          : `${who} rejected the dispute`;
  const tone =
    a.action === 'reject' ? 'border-red-200 bg-red-50 text-red-950' : 'border-amber-200 bg-amber-50 text-amber-950';
  return (
    <div className={cn('space-y-1 rounded-md border p-3 text-sm', tone)} data-testid="dispute-answer">
      <p className="flex items-start gap-1.5">
        {a.action === 'reject' ? (
          <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
        ) : (
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
        )}
        <span className="min-w-0">
          <span className="font-medium">{what}</span> on {disputeDay(a.answeredAt)}
        </span>
      </p>
      {a.reason && (
        <p className="break-words whitespace-pre-wrap">
          <span className="font-medium">Reason:</span> {a.reason}
        </p>
      )}
    </div>
  );
}

/** How it ended: the resolution, what was refunded, and the deciding admin's reason. */
function Outcome({ d, side }: { d: DisputeDetail; side: MessageSide }) {
  if (d.status !== 'resolved' && !d.decision) return null;
  const refunded = toCents(d.refundedUsd) > 0;
  const card = side === 'brand' ? 'your card' : "the brand's card";
  return (
    <div className="space-y-1 rounded-md border bg-muted/40 p-3 text-sm" data-testid="dispute-resolution">
      {d.resolution && (
        <p className="flex items-start gap-1.5">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-hidden />
          <span className="min-w-0">
            <span className="font-medium" data-testid="dispute-resolution-label">
              {RESOLUTION_LABELS[d.resolution]}
            </span>
            {d.resolvedAt ? ` on ${disputeDay(d.resolvedAt)}` : ''}
            {refunded && (
              <>
                {': '}
                <span className="font-medium" data-testid="dispute-refunded">
                  {formatUsd(d.refundedUsd)} refunded
                </span>{' '}
                to {card}, with a credit note.
              </>
            )}
          </span>
        </p>
      )}
      {d.decision && (
        <p className="break-words whitespace-pre-wrap" data-testid="dispute-decision">
          <span className="font-medium">Decision of {disputeDay(d.decision.decidedAt)}:</span>{' '}
          {d.decision.reason || 'no reason given'}
        </p>
      )}
      {refunded && (
        <p className="text-muted-foreground">
          The refund and its credit note are in the Money section of the{' '}
          <Link href={placementHref(side, d.paymentId)} className="text-primary underline underline-offset-4">
            placement’s page
          </Link>
          .
        </p>
      )}
    </div>
  );
}

/** Where the dispute stands: its state, deadlines, the answer, the outcome, and what the reader can do. */
function DisputeStanding({ d, side, actions }: { d: DisputeDetail; side: MessageSide; actions: React.ReactNode }) {
  const rules = useTerms().data?.rules;
  const due = dueLine({ ...d, dueAt: dueAtOf(d) }, side);
  const then = consequence(d, side);
  const restore = rules ? `within ${rules.restoreDays} days` : 'in time';
  return (
    <PageSection title="Where it stands" icon={<Gavel />} testId="dispute-standing">
      {(due || then) && (
        <p className="text-sm" data-testid="dispute-due">
          {due && <span className="font-medium">{due}.</span>} {then}
        </p>
      )}
      {d.kind === 'link' && d.status === 'open' && (
        <p
          className="rounded-md border border-sky-200 bg-sky-50 p-3 text-sm text-sky-950"
          data-testid="dispute-checking"
        >
          Byline checks the live article now. When two checks at least an hour apart confirm the problem, the outlet
          must restore it {restore}, or {side === 'brand' ? 'you are' : 'the brand is'} refunded in full; if the checks
          keep passing, the dispute is answered as rejected and {side === 'brand' ? 'you' : 'the brand'} may escalate.
          {d.caseId ? ' The checks have confirmed the problem: the outlet is asked to restore it.' : ''}
        </p>
      )}
      <Deadlines d={d} />
      <Answer d={d} side={side} />
      <Outcome d={d} side={side} />
      <div className="flex flex-wrap gap-2 empty:hidden">{actions}</div>
    </PageSection>
  );
}

const RESULT: Record<'pass' | 'warning' | 'fail', { label: string; variant: 'success' | 'warning' | 'destructive' }> = {
  pass: { label: 'Passed', variant: 'success' },
  warning: { label: 'Warning', variant: 'warning' },
  fail: { label: 'Failed', variant: 'destructive' },
};

/** The check a link dispute waits for (issue 57): due now, or when it is planned. */
function PendingCheck({ at }: { at: string }) {
  // the moment the page opened (the dispute is read again as it moves)
  const [now] = React.useState(() => Date.now());
  const due = new Date(at).getTime() <= now;
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-dashed px-3 py-2.5 text-sm"
      data-testid="pending-check"
    >
      <span>{due ? 'Next check: due now' : `Next check: ${disputeMoment(at)}`}</span>
      <Badge variant="info">Pending</Badge>
    </div>
  );
}

/** Byline's checks of the live article around and since the dispute opened, newest first. */
function DisputeEvidence({ d }: { d: DisputeDetail }) {
  return (
    <PageSection title="Byline’s checks" icon={<Radar />} testId="dispute-evidence">
      {d.nextCheckAt && <PendingCheck at={d.nextCheckAt} />}
      {d.evidence.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="no-evidence">
          {d.kind === 'link'
            ? 'No check yet: Byline checks the live article now, and each check shows here.'
            : 'No checks of the live article around this dispute.'}
        </p>
      ) : (
        <ul className="divide-y rounded-lg border text-sm" aria-label="Checks of the live article">
          {d.evidence.map((e) => {
            const r = RESULT[e.result];
            return (
              <li key={e.checkedAt + e.url} className="space-y-1 px-3 py-2.5" data-testid="evidence-check">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="tabular-nums">{disputeMoment(e.checkedAt)}</span>
                  <Badge variant={r.variant} data-testid="evidence-result">
                    {r.label}
                  </Badge>
                </div>
                <p className="break-all text-xs text-muted-foreground">{e.url}</p>
                {e.problems.length > 0 && (
                  <ul className="space-y-0.5">
                    {e.problems.map((p) => (
                      <li key={p} className="flex items-start gap-1.5 text-destructive">
                        <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
                        <span className="min-w-0 break-words">{p}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </PageSection>
  );
}

/**
 * A dispute's page, for its brand or the editorial team: the heading, what is wrong and asked,
 * where it stands (deadlines, the answer, the outcome) with what the reader can do, Byline's checks,
 * then the placement's conversation, where the dispute's text and file were posted.
 */
export function DisputeFrame({
  side,
  query,
  showAmount = true,
  actions,
}: {
  side: MessageSide;
  query: UseQueryResult<DisputeDetail>;
  showAmount?: boolean;
  actions: (d: DisputeDetail) => React.ReactNode;
}) {
  const d = query.data;
  const back = d
    ? { href: placementHref(side, d.paymentId), label: 'Back to the placement' }
    : side === 'brand'
      ? { href: '/brand/my-articles', label: 'Back to My Articles' }
      : { href: '/admin/disputes', label: 'Back to Disputes' };
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-x-2">
        <Button asChild variant="ghost" size="sm" className="-ml-2">
          <Link href={back.href}>
            <ArrowLeft /> {back.label}
          </Link>
        </Button>
        {side === 'admin' && d && (
          <Button asChild variant="ghost" size="sm">
            <Link href="/admin/disputes">All disputes</Link>
          </Button>
        )}
      </div>
      {query.isLoading ? (
        <PageSpinner />
      ) : !d && !(query.error instanceof ApiError && query.error.status === 404) ? (
        <QueryError query={query} title="Failed to load this dispute" />
      ) : !d ? (
        <div role="alert" className="rounded-lg border border-destructive/30 bg-red-50 p-4 text-sm text-destructive">
          <p className="font-medium">Dispute not found</p>
          <p>{errorMessage(query.error, 'Please try again.')}</p>
        </div>
      ) : (
        <>
          <DisputeHeader d={d} side={side} showAmount={showAmount} />
          <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <div className="min-w-0 space-y-5 lg:col-start-2 lg:row-start-1">
              <DisputeStanding d={d} side={side} actions={actions(d)} />
            </div>
            <div className="min-w-0 space-y-5 lg:col-start-1 lg:row-start-1">
              <DisputeFacts d={d} side={side} />
              <DisputeEvidence d={d} />
            </div>
          </div>
          <ConversationPanel side={side} paymentId={d.paymentId} />
        </>
      )}
    </div>
  );
}
