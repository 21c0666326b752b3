import * as React from 'react';
import type { CancellationOutcome } from '@shared/enums';
import { formatUsd, fromCents } from '@shared/money';
import { leftToRefund } from '@shared/payment';
import type { PlacementPayment } from '@shared/schemas/brief';
import { ANSWER_REASON_MAX, cancellationAnswerSchema, type Cancellation } from '@shared/schemas/fair-terms';
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
import { useAnswerCancellation } from '../../api/cancellations';

type Outcome = CancellationOutcome;

const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/**
 * "Answer cancellation" (issue 47): refund in full (the placement ends), refund a part (the rest is
 * kept for the work done, the placement ends) or refuse (it carries on). A part and a refusal carry
 * the reason the brand reads. The shared schema checks it as the server does.
 */
export function AnswerCancellationDialog({
  cancellation: c,
  payment,
  title,
  open,
  onOpenChange,
}: {
  cancellation: Cancellation;
  payment: PlacementPayment;
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const answer = useAnswerCancellation(c.id);
  const [outcome, setOutcome] = React.useState<Outcome>('refund_full');
  const [amount, setAmount] = React.useState('');
  const [reason, setReason] = React.useState('');
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const left = formatUsd(fromCents(leftToRefund(payment)));
  const id = `answer-${c.id}`;

  const close = (next: boolean) => {
    if (answer.isPending) return;
    if (!next) setErrors({});
    onOpenChange(next);
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = cancellationAnswerSchema.safeParse({
      outcome,
      amountUsd: outcome === 'refund_partial' && amount.trim() ? amount : undefined,
      reason: reason.trim() || undefined,
    });
    if (!parsed.success) return setErrors(issuesByField(parsed.error));
    setErrors({});
    answer.mutate(parsed.data, {
      onSuccess: (done) => {
        onOpenChange(false);
        if (done.status === 'refused')
          toast({
            title: 'Cancellation refused',
            description: 'The brand has been told why; the placement carries on.',
          });
        else
          toast({
            title: 'Cancellation granted',
            description: `${done.amountUsd ? formatUsd(done.amountUsd) : left} has been refunded to the brand.`,
          });
      },
      onError: (err) => setErrors(apiFieldErrors(err, 'Could not answer the cancellation')),
    });
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent data-testid="answer-cancellation-dialog">
        <DialogHeader>
          <DialogTitle>Answer the cancellation</DialogTitle>
          <DialogDescription>
            The brand asks to cancel “{title}” ({formatUsd(payment.amount)}). Answer by{' '}
            {day.format(new Date(c.respondBy))}: unanswered by then, it is granted in full.
          </DialogDescription>
        </DialogHeader>
        {c.reason && (
          <p className="rounded-md bg-muted px-3 py-2 text-sm break-words whitespace-pre-wrap">
            <span className="font-medium">The brand’s reason:</span> {c.reason}
          </p>
        )}
        <form onSubmit={submit} className="space-y-4" noValidate>
          <RadioChoices
            name={`${id}-outcome`}
            legend="Your answer"
            value={outcome}
            onChange={(o) => {
              setOutcome(o);
              setErrors({});
            }}
            disabled={answer.isPending}
            choices={[
              {
                value: 'refund_full',
                label: 'Refund in full',
                hint: `${left} goes back to the brand; the placement ends.`,
              },
              {
                value: 'refund_partial',
                label: 'Refund part',
                hint: 'The rest is kept for the work done; the placement ends.',
              },
              { value: 'refuse', label: 'Refuse', hint: 'The placement carries on; the brand reads your reason.' },
            ]}
          />
          {outcome === 'refund_partial' && (
            <FormField
              id={`${id}-amount`}
              label="Amount to refund (USD)"
              error={errors.amountUsd}
              hint={`At most ${left}`}
            >
              <Input
                id={`${id}-amount`}
                inputMode="decimal"
                autoComplete="off"
                placeholder="e.g. 250.00"
                value={amount}
                onChange={(e) => {
                  setAmount(e.target.value);
                  setErrors((v) => ({ ...v, amountUsd: undefined }));
                }}
                aria-invalid={Boolean(errors.amountUsd)}
                aria-describedby={errors.amountUsd ? `${id}-amount-error` : undefined}
                disabled={answer.isPending}
              />
            </FormField>
          )}
          <FormField
            id={`${id}-reason`}
            label={outcome === 'refund_full' ? 'Reason (optional)' : 'Reason'}
            error={errors.reason}
            hint="The brand reads it."
          >
            <Textarea
              id={`${id}-reason`}
              rows={3}
              maxLength={ANSWER_REASON_MAX}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setErrors((v) => ({ ...v, reason: undefined }));
              }}
              aria-invalid={Boolean(errors.reason)}
              aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
              disabled={answer.isPending}
            />
          </FormField>
          {(errors.form || errors.outcome) && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {errors.form ?? errors.outcome}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={answer.isPending}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant={outcome === 'refuse' ? 'default' : 'destructive'}
              disabled={answer.isPending}
            >
              {answer.isPending ? 'Sending…' : 'Send answer'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
