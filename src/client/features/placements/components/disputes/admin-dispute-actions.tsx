import * as React from 'react';
import { Check, Gavel, HandCoins, X } from 'lucide-react';
import type { DisputeDetail } from '@shared/schemas/fair-terms';
import {
  ANSWER_REASON_MAX,
  disputeAnswerSchema,
  disputeDecisionSchema,
  type DisputeAnswer,
} from '@shared/schemas/fair-terms';
import { formatUsd, fromCents, toCents } from '@shared/money';
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
import { Input, Textarea } from '@/components/ui/input';
import { RadioChoices } from '@/components/ui/radio-choices';
import { toast } from '@/components/ui/use-toast';
import { apiFieldErrors, issuesByField, type FieldErrors } from '@/lib/form-errors';
import { useAnswerDispute, useDecideDispute } from '../../api/disputes';
import { mayOnDispute } from '../../life';
import { askedFor, disputeDay } from './dispute-text';

type Action = DisputeAnswer['action'];

const ANSWER_COPY: Record<Action, { title: string; submit: string; pending: string; reason: string }> = {
  accept: {
    title: 'Accept the dispute',
    submit: 'Accept and grant',
    pending: 'Accepting…',
    reason: 'Reason (optional)',
  },
  offer: { title: 'Make an offer', submit: 'Send offer', pending: 'Sending…', reason: 'Reason' },
  reject: { title: 'Reject the dispute', submit: 'Reject dispute', pending: 'Rejecting…', reason: 'Reason' },
};

/** An amount and a reason typed by the admin, checked by the shared schema as the server does. */
function AmountField({
  id,
  value,
  onChange,
  error,
  hint,
  disabled,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  hint: string;
  disabled: boolean;
}) {
  return (
    <FormField id={id} label="Amount to refund (USD)" error={error} hint={hint}>
      <Input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        placeholder="e.g. 150.00"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
        disabled={disabled}
      />
    </FormField>
  );
}

function ReasonField({
  id,
  label,
  value,
  onChange,
  error,
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  disabled: boolean;
}) {
  return (
    <FormField id={id} label={label} error={error} hint="The brand reads it.">
      <Textarea
        id={id}
        rows={3}
        maxLength={ANSWER_REASON_MAX}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
        disabled={disabled}
      />
    </FormField>
  );
}

function FormAlert({ error }: { error?: string }) {
  if (!error) return null;
  return (
    <p role="alert" className="text-sm font-medium text-destructive" data-testid="dispute-form-error">
      {error}
    </p>
  );
}

/**
 * The editorial team's answer to an open dispute: accept (the brand gets what it asked for, now),
 * offer a part refund or a correction, or reject; an offer and a rejection carry the reason the
 * brand reads, and the brand then accepts or escalates within its days.
 */
function AnswerDisputeDialog({
  d,
  action,
  open,
  onOpenChange,
}: {
  d: DisputeDetail;
  action: Action;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const answer = useAnswerDispute(d.id);
  const [kind, setKind] = React.useState<'part' | 'correction'>('part');
  const [amount, setAmount] = React.useState('');
  const [reason, setReason] = React.useState('');
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const id = `answer-dispute-${d.id}`;
  const copy = ANSWER_COPY[action];
  const price = formatUsd(d.amount);
  const left = formatUsd(fromCents(toCents(d.amount) - toCents(d.refundedAmount)));

  const close = (next: boolean) => {
    if (answer.isPending) return;
    if (!next) setErrors({});
    onOpenChange(next);
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = disputeAnswerSchema.safeParse({
      action,
      amountUsd: action === 'offer' && kind === 'part' ? amount.trim() || undefined : undefined,
      reason: reason.trim() || undefined,
    });
    if (!parsed.success) return setErrors(issuesByField(parsed.error));
    if (action === 'offer' && kind === 'part' && !parsed.data.amountUsd)
      return setErrors({ amountUsd: 'Give the amount you offer' });
    setErrors({});
    answer.mutate(parsed.data, {
      onSuccess: (done) => {
        onOpenChange(false);
        setReason('');
        setAmount('');
        toast({
          title: action === 'accept' ? 'Dispute accepted' : action === 'offer' ? 'Offer sent' : 'Dispute rejected',
          description:
            action === 'accept'
              ? toCents(done.refundedUsd) > 0
                ? `${formatUsd(done.refundedUsd)} has been refunded to the brand.`
                : 'The brand has been told.'
              : 'The brand has been told; it accepts or escalates.',
        });
      },
      onError: (err) => setErrors(apiFieldErrors(err, 'Could not answer the dispute')),
    });
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent data-testid="answer-dispute-dialog">
        <DialogHeader>
          <DialogTitle>{copy.title}</DialogTitle>
          <DialogDescription>
            The brand asks for {askedFor(d).toLowerCase()} on “{d.title}” ({price}).
            {d.respondBy ? ` Answer by ${disputeDay(d.respondBy)}: unanswered by then, it is granted.` : ''}
          </DialogDescription>
        </DialogHeader>
        {action === 'accept' && (
          <p className="rounded-md bg-muted px-3 py-2 text-sm">
            Accepting grants it now: {askedFor(d).toLowerCase()}
            {d.outcome === 'correction' ? '.' : ', refunded to the brand’s card with a credit note.'}
          </p>
        )}
        <form onSubmit={submit} className="space-y-4" noValidate>
          {action === 'offer' && (
            <RadioChoices
              name={`${id}-kind`}
              legend="What you offer"
              value={kind}
              onChange={(k) => {
                setKind(k);
                setErrors({});
              }}
              disabled={answer.isPending}
              choices={[
                { value: 'part', label: 'A partial refund', hint: 'Part of the price back to the brand.' },
                { value: 'correction', label: 'A correction', hint: 'The article is put right; no money moves.' },
              ]}
            />
          )}
          {action === 'offer' && kind === 'part' && (
            <AmountField
              id={`${id}-amount`}
              value={amount}
              onChange={(v) => {
                setAmount(v);
                setErrors((x) => ({ ...x, amountUsd: undefined, form: undefined }));
              }}
              error={errors.amountUsd}
              hint={`At most what is left: ${left} of ${price}`}
              disabled={answer.isPending}
            />
          )}
          <ReasonField
            id={`${id}-reason`}
            label={copy.reason}
            value={reason}
            onChange={(v) => {
              setReason(v);
              setErrors((x) => ({ ...x, reason: undefined, form: undefined }));
            }}
            error={errors.reason}
            disabled={answer.isPending}
          />
          <FormAlert error={errors.form ?? errors.action} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={answer.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant={action === 'reject' ? 'default' : 'destructive'} disabled={answer.isPending}>
              {answer.isPending ? copy.pending : copy.submit}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

type Decision = 'refund_full' | 'refund_partial' | 'reject';

/**
 * "Decide" an escalated dispute, with a written reason: refund in full, refund a part, or reject.
 * Only an admin who neither published the placement nor answered the dispute may: the server's 403
 * says so here, in the dialog.
 */
function DecideDisputeDialog({
  d,
  open,
  onOpenChange,
}: {
  d: DisputeDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const decide = useDecideDispute(d.id);
  const [outcome, setOutcome] = React.useState<Decision>('refund_partial');
  const [amount, setAmount] = React.useState('');
  const [reason, setReason] = React.useState('');
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const id = `decide-dispute-${d.id}`;
  const price = formatUsd(d.amount);
  const left = formatUsd(fromCents(toCents(d.amount) - toCents(d.refundedAmount)));

  const close = (next: boolean) => {
    if (decide.isPending) return;
    if (!next) setErrors({});
    onOpenChange(next);
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = disputeDecisionSchema.safeParse({
      outcome,
      amountUsd: outcome === 'refund_partial' ? amount.trim() || undefined : undefined,
      reason,
    });
    if (!parsed.success) return setErrors(issuesByField(parsed.error));
    setErrors({});
    decide.mutate(parsed.data, {
      onSuccess: (done) => {
        onOpenChange(false);
        toast({
          title: 'Dispute decided',
          description:
            done.resolution === 'rejected'
              ? 'Rejected: the brand reads your reason.'
              : `${formatUsd(done.refundedUsd)} has been refunded to the brand.`,
        });
      },
      onError: (err) => setErrors(apiFieldErrors(err, 'Could not decide the dispute')),
    });
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent data-testid="decide-dispute-dialog">
        <DialogHeader>
          <DialogTitle>Decide the dispute</DialogTitle>
          <DialogDescription>
            The brand escalated its dispute about “{d.title}” ({price}) and asks for {askedFor(d).toLowerCase()}.
            {d.decideBy ? ` Decide by ${disputeDay(d.decideBy)}: not decided by then, it is granted.` : ''} Only an
            admin who neither published this placement nor answered the dispute may decide it.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-4" noValidate>
          <RadioChoices
            name={`${id}-outcome`}
            legend="Your decision"
            value={outcome}
            onChange={(o) => {
              setOutcome(o);
              setErrors({});
            }}
            disabled={decide.isPending}
            choices={[
              {
                value: 'refund_full',
                label: 'Refund in full',
                hint: 'What is left of the payment goes back to the brand.',
              },
              { value: 'refund_partial', label: 'Refund part', hint: 'Say how much goes back to the brand.' },
              { value: 'reject', label: 'Reject', hint: 'Nothing is refunded; the brand reads your reason.' },
            ]}
          />
          {outcome === 'refund_partial' && (
            <AmountField
              id={`${id}-amount`}
              value={amount}
              onChange={(v) => {
                setAmount(v);
                setErrors((x) => ({ ...x, amountUsd: undefined, form: undefined }));
              }}
              error={errors.amountUsd}
              hint={`At most what is left: ${left} of ${price}`}
              disabled={decide.isPending}
            />
          )}
          <ReasonField
            id={`${id}-reason`}
            label="Written reason"
            value={reason}
            onChange={(v) => {
              setReason(v);
              setErrors((x) => ({ ...x, reason: undefined, form: undefined }));
            }}
            error={errors.reason}
            disabled={decide.isPending}
          />
          <FormAlert error={errors.form ?? errors.outcome} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={decide.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={decide.isPending}>
              {decide.isPending ? 'Deciding…' : 'Decide'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The editorial team's moves on a dispute's page: answer it while open, decide it once escalated. */
export function AdminDisputeActions({ d }: { d: DisputeDetail }) {
  const [action, setAction] = React.useState<Action>('accept');
  const [answering, setAnswering] = React.useState(false);
  const answer = (a: Action) => {
    setAction(a);
    setAnswering(true);
  };
  const [deciding, setDeciding] = React.useState(false);
  if (mayOnDispute(d, 'answer_dispute')) {
    return (
      <>
        <Button size="sm" onClick={() => answer('accept')}>
          <Check /> Accept
        </Button>
        {/* a dispute about the live link is decided by Byline's checks: the team may only grant it */}
        {d.kind === 'content' && (
          <>
            <Button size="sm" variant="outline" onClick={() => answer('offer')}>
              <HandCoins /> Offer
            </Button>
            <Button size="sm" variant="outline" onClick={() => answer('reject')}>
              <X /> Reject
            </Button>
          </>
        )}
        <AnswerDisputeDialog d={d} action={action} open={answering} onOpenChange={setAnswering} />
      </>
    );
  }
  if (mayOnDispute(d, 'decide_dispute')) {
    const deciders = d.deciders;
    const names = deciders?.names ?? [];
    const others = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
    return (
      <>
        {deciders && names.length === 0 ? (
          <p
            role="alert"
            className="w-full rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900"
            data-testid="no-decider"
          >
            No admin may decide this dispute: every admin released this placement or answered the dispute. Add an
            admin who did neither
            {d.decideBy ? `, or on ${disputeDay(d.decideBy)} the brand gets what it asked for` : ''}.
          </p>
        ) : deciders && !deciders.you ? (
          <p className="w-full text-sm text-muted-foreground" data-testid="deciders">
            You released this placement or answered the dispute, so you may not decide it: {others}{' '}
            {names.length === 1 ? 'may' : 'may each'}.
          </p>
        ) : (
          deciders && (
            <p className="w-full text-sm text-muted-foreground" data-testid="deciders">
              May decide it: {others}.
            </p>
          )
        )}
        {(!deciders || deciders.you) && (
          <>
            <Button size="sm" onClick={() => setDeciding(true)}>
              <Gavel /> Decide
            </Button>
            <DecideDisputeDialog d={d} open={deciding} onOpenChange={setDeciding} />
          </>
        )}
      </>
    );
  }
  return null;
}
