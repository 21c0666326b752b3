import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import { formatUsd, fromCents, toCents } from '@shared/money';
import { leftToRefund, type PaymentDto } from '@shared/payment';
import { ANSWER_REASON_MAX, refundRequestSchema, type RefundRequest } from '@shared/schemas/fair-terms';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { RadioChoices } from '@/components/ui/radio-choices';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { apiFieldErrors, issuesByField, type FieldErrors } from '@/lib/form-errors';
import { refreshAfter } from '@/lib/changes';
import { apiUrl } from '@shared/api-paths';

type Mode = 'full' | 'part';

/**
 * Refunds a payment through the provider, after a confirmation that says what goes back, to whom
 * and what follows (Payments: a held payment; Placements: a published one). In full (what is left),
 * or a part of it with a reason the brand reads (issue 47): the placement then carries on, and the
 * part has its own credit note. Offered while something is left to refund.
 */
export function RefundButton({
  paymentId,
  amount,
  refundedAmount = '0.00',
  title,
  brand,
  question,
  consequence,
}: {
  paymentId: string;
  amount: string;
  /** given back so far (a list without it: nothing) */
  refundedAmount?: string;
  /** the opportunity's title */
  title: string;
  brand: string;
  /** the dialog's title */
  question: string;
  /** what happens besides the money, e.g. "the slot becomes available again" */
  consequence: string;
}) {
  const [open, setOpen] = React.useState(false);
  const [mode, setMode] = React.useState<Mode>('full');
  const [part, setPart] = React.useState('');
  const [reason, setReason] = React.useState('');
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const refund = useMutation({
    mutationFn: (body: RefundRequest | undefined) => apiRequest<PaymentDto>('POST', apiUrl('/api/admin/placements/:placementId/refund', { placementId: paymentId }), body),
    onSettled: () => refreshAfter('refund'),
  });
  const left = leftToRefund({ amount, refundedAmount });
  if (left <= 0) return null;
  const refundedSoFar = toCents(refundedAmount) > 0;

  const start = () => {
    setMode('full');
    setPart(fromCents(left));
    setReason('');
    setErrors({});
    setOpen(true);
  };
  const confirm = () => {
    let body: RefundRequest | undefined;
    if (mode === 'part') {
      const parsed = refundRequestSchema.safeParse({ amountUsd: part, reason: reason.trim() || undefined });
      if (!parsed.success) return setErrors(issuesByField(parsed.error));
      body = parsed.data;
    }
    setErrors({});
    const given = body?.amountUsd ?? fromCents(left);
    refund.mutate(body, {
      onSuccess: () => {
        toast({ title: 'Payment refunded', description: `${formatUsd(given)} has been refunded to the brand.` });
        setOpen(false);
      },
      onError: (err) => {
        setErrors(apiFieldErrors(err, 'Failed to refund payment'));
        if (!body) toast({ title: 'Refund failed', description: errorMessage(err, 'Failed to refund payment'), variant: 'destructive' });
      },
    });
  };

  const id = `refund-${paymentId}`;
  return (
    <>
      <Button variant="outline" size="sm" onClick={start}>
        Refund
      </Button>
      <Dialog open={open} onOpenChange={(o) => !refund.isPending && setOpen(o)}>
        <DialogContent data-testid="refund-dialog">
          <DialogHeader>
            <DialogTitle>{question}</DialogTitle>
            <DialogDescription>
              {mode === 'part'
                ? `Part of the ${formatUsd(amount)} for "${title}" goes back to ${brand}, with its own credit note; the placement carries on. This cannot be undone.`
                : refundedSoFar
                  ? `The ${formatUsd(fromCents(left))} left of ${formatUsd(amount)} for "${title}" goes back to ${brand}, and ${consequence}. This cannot be undone.`
                  : `${formatUsd(amount)} for "${title}" goes back in full to ${brand}, and ${consequence}. This cannot be undone.`}
            </DialogDescription>
          </DialogHeader>
          {refundedSoFar && (
            <p className="rounded-md bg-muted px-3 py-2 text-sm" data-testid="refunded-so-far">
              {formatUsd(refundedAmount)} refunded so far · {formatUsd(fromCents(left))} left
            </p>
          )}
          <RadioChoices
            name={`${id}-mode`}
            legend="How much"
            value={mode}
            onChange={(m) => {
              setMode(m);
              setErrors({});
            }}
            disabled={refund.isPending}
            choices={[
              { value: 'full', label: refundedSoFar ? `Refund the rest (${formatUsd(fromCents(left))})` : 'Refund in full' },
              { value: 'part', label: 'Refund part of it' },
            ]}
          />
          {mode === 'part' && (
            <div className="space-y-3">
              <FormField id={`${id}-amount`} label="Amount to refund (USD)" error={errors.amountUsd} hint={`At most ${formatUsd(fromCents(left))}`}>
                <Input
                  id={`${id}-amount`}
                  inputMode="decimal"
                  autoComplete="off"
                  value={part}
                  onChange={(e) => {
                    setPart(e.target.value);
                    setErrors((v) => ({ ...v, amountUsd: undefined }));
                  }}
                  aria-invalid={Boolean(errors.amountUsd)}
                  aria-describedby={errors.amountUsd ? `${id}-amount-error` : undefined}
                  disabled={refund.isPending}
                />
              </FormField>
              <FormField id={`${id}-reason`} label="Reason" error={errors.reason} hint="The brand reads it.">
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
                  disabled={refund.isPending}
                  placeholder="e.g. The article ran without the agreed backlink."
                />
              </FormField>
            </div>
          )}
          {errors.form && (
            <p role="alert" className="text-sm font-medium text-destructive" data-testid="refund-error">
              {errors.form}
            </p>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={refund.isPending}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={confirm} disabled={refund.isPending}>
              {refund.isPending ? 'Refunding...' : mode === 'part' ? 'Refund part' : 'Refund payment'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
