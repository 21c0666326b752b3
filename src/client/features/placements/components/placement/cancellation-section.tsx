import * as React from 'react';
import { format } from 'date-fns';
import { CircleSlash, Clock, XCircle, Undo2 } from 'lucide-react';
import { formatUsd, fromCents } from '@shared/money';
import type { MessageSide } from '@shared/messages';
import { leftToRefund } from '@shared/payment';
import type { AdminPlacementItem, BuyersPlacementItem } from '@shared/schemas/brief';
import { ANSWER_REASON_MAX, type Cancellation } from '@shared/schemas/fair-terms';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { apiFieldErrors, type FieldErrors } from '@/lib/form-errors';
import { useTerms } from '@/lib/terms';
import { useCancelLate, useCancelPlacement } from '../../api/cancel-placement';
import { may } from '../../life';
import { AnswerCancellationDialog } from './answer-cancellation-dialog';
import { PageSection } from '@/components/page-section';

const day = (iso: string) => format(new Date(iso), 'MMM d, yyyy');
const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** Where the latest cancellation stands, in the words of the side reading it. */
function CancellationState({ c, side, amount }: { c: Cancellation; side: MessageSide; amount: string }) {
  const card = side === 'brand' ? 'your card' : "the brand's card";
  const answers = side === 'brand' ? 'The editorial team answers' : 'You answer';
  if (c.status === 'requested') {
    return (
      <div
        className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
        role="status"
        data-testid="cancellation-state"
      >
        <p className="flex items-start gap-1.5">
          <Clock className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            <span className="font-medium">Cancellation requested</span> on {day(c.createdAt)}. {answers} by{' '}
            <span className="font-medium" data-testid="respond-by">
              {day(c.respondBy)}
            </span>
            ; unanswered by then, it is granted in full.
          </span>
        </p>
        {c.reason && (
          <p className="break-words whitespace-pre-wrap">
            <span className="font-medium">{side === 'brand' ? 'Your reason' : "The brand's reason"}:</span> {c.reason}
          </p>
        )}
      </div>
    );
  }
  if (c.status === 'refused') {
    return (
      <p
        className="flex items-start gap-1.5 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-950"
        data-testid="cancellation-state"
      >
        <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span className="min-w-0 break-words">
          <span className="font-medium">Cancellation refused</span>
          {c.answeredAt ? ` on ${day(c.answeredAt)}` : ''}: {c.answer || 'no reason given'}
        </span>
      </p>
    );
  }
  const given = c.amountUsd ? formatUsd(c.amountUsd) : null;
  return (
    <div className="space-y-1 rounded-md border bg-muted/40 p-3 text-sm" data-testid="cancellation-state">
      <p className="flex items-start gap-1.5">
        <Undo2 className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span className="min-w-0">
          <span className="font-medium">Cancellation granted</span>
          {c.answeredAt ? ` on ${day(c.answeredAt)}` : ''}
          {c.outcome === 'refund_partial'
            ? `: ${given ?? 'a part'} of ${formatUsd(amount)} refunded to ${card}; the rest was kept for the work done.`
            : `: ${given ?? 'the payment'} refunded to ${card} in full.`}
        </span>
      </p>
      {c.byDeadline && <p className="text-muted-foreground">Granted automatically: not answered in time.</p>}
      {c.answer && (
        <p className="break-words whitespace-pre-wrap">
          <span className="font-medium">{side === 'brand' ? "The editorial team's reason" : 'Your reason'}:</span>{' '}
          {c.answer}
        </p>
      )}
    </div>
  );
}

/**
 * Cancel placement (issue 47), on the brand's page while the placement is in progress and no request
 * is open. Before writing starts it is refunded in full at once; after, it is a request with a reason
 * the editorial team answers within the terms' days, granted in full if they do not.
 */
function CancelDialog({
  article: a,
  started,
  responseDays,
  open,
  onOpenChange,
}: {
  article: BuyersPlacementItem;
  started: boolean;
  responseDays: number | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const cancel = useCancelPlacement(a.payment.id);
  const [reason, setReason] = React.useState('');
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const left = formatUsd(fromCents(leftToRefund(a.payment)));
  const within = responseDays === undefined ? 'within a few days' : `within ${days(responseDays)}`;
  const id = `cancel-reason-${a.payment.id}`;
  const close = (next: boolean) => {
    if (cancel.isPending) return;
    if (!next) setErrors({});
    onOpenChange(next);
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (started && !reason.trim())
      return setErrors({ reason: 'Say why you want to cancel: the editorial team reads it' });
    cancel.mutate(started ? reason : '', {
      onSuccess: (res) => {
        setReason('');
        setErrors({});
        onOpenChange(false);
        if (res.refundedUsd !== undefined) {
          toast({
            title: 'Placement cancelled',
            description: `${formatUsd(res.refundedUsd)} is on its way back to your card.`,
          });
        } else {
          toast({
            title: 'Cancellation requested',
            description: `The editorial team answers by ${day(res.cancellation.respondBy)}.`,
          });
        }
      },
      onError: (err) => setErrors(apiFieldErrors(err, 'Could not cancel the placement')),
    });
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent data-testid="cancel-dialog">
        <DialogHeader>
          <DialogTitle>{started ? 'Ask to cancel this placement?' : 'Cancel this placement?'}</DialogTitle>
          <DialogDescription>
            {started
              ? `Writing has started, so cancelling is a request. The editorial team answers ${within}: a full refund, a part refund for the work done, or a refusal with its reason. A request not answered ${within} is granted in full.`
              : `The editorial team has not started writing: ${left} goes back to your card in full at once, with a credit note. The placement ends; this cannot be undone.`}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-4" noValidate>
          {started && (
            <FormField id={id} label="Reason" error={errors.reason}>
              <Textarea
                id={id}
                rows={4}
                maxLength={ANSWER_REASON_MAX}
                value={reason}
                onChange={(e) => {
                  setReason(e.target.value);
                  setErrors((v) => ({ ...v, reason: undefined }));
                }}
                placeholder="e.g. Our launch moved to next quarter."
                aria-invalid={Boolean(errors.reason)}
                aria-describedby={errors.reason ? `${id}-error` : undefined}
                disabled={cancel.isPending}
              />
            </FormField>
          )}
          {errors.form && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {errors.form}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={cancel.isPending}>
              Keep it
            </Button>
            <Button type="submit" variant="destructive" disabled={cancel.isPending}>
              {cancel.isPending ? 'Sending…' : started ? 'Ask to cancel' : 'Cancel and refund'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The brand's cancellation (issue 47): the latest request's state, and "Cancel placement" while the
 * placement is in progress with none open, for a member who may buy (the server's `can: 'buy'`).
 */
export function BrandCancellationSection({ article: a }: { article: BuyersPlacementItem }) {
  const [open, setOpen] = React.useState(false);
  const rules = useTerms().data?.rules;
  const c = a.cancellation;
  // what this member may do, as the server's table says (issue 58): cancel at once before writing
  // starts, else ask, never with a request already open
  const cancelsAtOnce = may(a, 'cancel');
  const canCancel = cancelsAtOnce || may(a, 'request_cancellation');
  const started = !cancelsAtOnce;
  // issue 59: very late (LATE_CANCEL_DAYS business days past "Live by"), one click refunds all that is left
  const cancelsLate = may(a, 'cancel_late');
  const late = useCancelLate(a.payment.id);
  if (!c && !canCancel && !cancelsLate) return null;
  const within = rules ? `within ${days(rules.responseDays)}` : 'within a few days';
  return (
    <PageSection
      title="Cancellation"
      icon={<CircleSlash />}
      testId="cancellation-section"
      actions={
        cancelsLate ? (
          <Button
            variant="destructive"
            size="sm"
            disabled={late.isPending}
            data-testid="cancel-late"
            onClick={() =>
              late.mutate(undefined, {
                onSuccess: (res) => toast({ title: 'Placement cancelled', description: `${formatUsd(res.refundedUsd)} is on its way back to your card.` }),
                onError: (err) => toast({ title: 'Could not cancel the placement', description: err instanceof Error ? err.message : undefined, variant: 'destructive' }),
              })
            }
          >
            {late.isPending ? 'Cancelling…' : 'Cancel for a full refund of what is left'}
          </Button>
        ) : (
          canCancel && (
            <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
              Cancel placement
            </Button>
          )
        )
      }
    >
      {cancelsLate && (
        <p className="text-sm text-muted-foreground" data-testid="cancel-late-rule">
          This placement is{rules ? ` ${rules.lateCancelDays} or more` : ''} business days past its &ldquo;Live by&rdquo; date and not published: you can cancel it now and are refunded
          all that is left after the late credits, with its credit note.
        </p>
      )}
      {c && <CancellationState c={c} side="brand" amount={a.payment.amount} />}
      {canCancel && (
        <p className="text-sm text-muted-foreground" data-testid="cancellation-rule">
          {started
            ? `Writing has started: cancelling is a request the editorial team answers ${within}, granted in full if they do not.`
            : 'Until the editorial team starts writing, cancelling refunds you in full at once.'}
        </p>
      )}
      {canCancel && (
        <CancelDialog
          article={a}
          started={started}
          responseDays={rules?.responseDays}
          open={open}
          onOpenChange={setOpen}
        />
      )}
    </PageSection>
  );
}

/** The editorial team's side: the latest cancellation and, while it awaits them, "Answer cancellation". */
export function AdminCancellationSection({ item }: { item: AdminPlacementItem }) {
  const [open, setOpen] = React.useState(false);
  const c = item.cancellation;
  if (!c) return null;
  const requested = c.status === 'requested';
  return (
    <PageSection
      title="Cancellation"
      icon={<CircleSlash />}
      testId="cancellation-section"
      className={requested ? 'border-amber-300' : undefined}
      actions={
        requested && (
          <Button size="sm" onClick={() => setOpen(true)}>
            Answer cancellation
          </Button>
        )
      }
    >
      <CancellationState c={c} side="admin" amount={item.payment.amount} />
      {requested && (
        <AnswerCancellationDialog
          cancellation={c}
          payment={item.payment}
          title={item.title}
          open={open}
          onOpenChange={setOpen}
        />
      )}
    </PageSection>
  );
}
