import * as React from 'react';
import { useLocation } from 'wouter';
import { DOCUMENT_MAX_BYTES } from '@shared/constants';
import { LINK_DISPUTE_REASONS, type DisputeOutcome, type DisputeReason } from '@shared/enums';
import { formatUsd, fromCents } from '@shared/money';
import { leftToRefund } from '@shared/payment';
import type { BuyersPlacementItem } from '@shared/schemas/brief';
import { DISPUTE_TEXT_MAX, disputeRequestSchema } from '@shared/schemas/fair-terms';
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
import { LengthCounter, usePasteCut } from '@/components/ui/length-counter';
import { RadioChoices, type RadioChoice } from '@/components/ui/radio-choices';
import { toast } from '@/components/ui/use-toast';
import { apiFieldErrors, issuesByField, type FieldErrors } from '@/lib/form-errors';
import { useTerms } from '@/lib/terms';
import { useOpenDispute } from '../../api/disputes';
import { reasonLabel } from './dispute-text';

const ACCEPT =
  '.pdf,.doc,.docx,.png,.jpg,.jpeg,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document,image/png,image/jpeg';

const REASON_HINTS: Record<DisputeReason, string> = {
  not_published: 'The live article cannot be found at its address.',
  link_missing: 'The article is live, but its link to you is gone.',
  link_changed: 'The article or its link is no longer what was published.',
  not_as_briefed: 'The article departs from what your brief asked for.',
  other: 'Something else is wrong with the article.',
};
const CONTENT_REASONS: DisputeReason[] = ['not_as_briefed', 'other'];
const LINK_REASONS = LINK_DISPUTE_REASONS;

/** A field's error under a group of radio buttons (the fieldset has no FormField of its own). */
function GroupError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} role="alert" className="text-sm font-medium text-destructive">
      {error}
    </p>
  );
}

/**
 * "Open a dispute" (issue 47): what is wrong (only the reasons whose window is open), what the brand
 * asks for (a full refund, a part of it, or a correction), what happened, and a file as evidence.
 * The shared schema checks it as the server does; opened, the dispute's page is next.
 */
export function OpenDisputeDialog({
  article: a,
  windows,
  open,
  onOpenChange,
}: {
  article: BuyersPlacementItem;
  windows: { content: boolean; link: boolean };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [, navigate] = useLocation();
  const rules = useTerms().data?.rules;
  const send = useOpenDispute(a.payment.id);
  const [reason, setReason] = React.useState<DisputeReason | ''>('');
  const [outcome, setOutcome] = React.useState<DisputeOutcome | ''>('');
  const [amount, setAmount] = React.useState('');
  const [text, setText] = React.useState('');
  const [file, setFile] = React.useState<File | null>(null);
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const paste = usePasteCut(DISPUTE_TEXT_MAX);
  const left = formatUsd(fromCents(leftToRefund(a.payment)));
  const id = `dispute-${a.payment.id}`;

  const reasons: RadioChoice<DisputeReason>[] = [
    ...(windows.link ? LINK_REASONS : []),
    ...(windows.content ? CONTENT_REASONS : []),
  ].map((r) => ({ value: r, label: reasonLabel(r), hint: REASON_HINTS[r] }));
  const link = reason !== '' && LINK_REASONS.includes(reason);
  const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
  const who = link
    ? `Byline checks the live article at once: when two checks at least an hour apart confirm the problem, the outlet must restore it${rules ? ` within ${days(rules.restoreDays)}` : ''} or you are refunded in full.`
    : `The editorial team answers${rules ? ` within ${days(rules.responseDays)}` : ''}: it accepts, offers a part refund or a correction, or rejects with a reason. Not answered in time, you get what you ask for.`;

  const close = (next: boolean) => {
    if (send.isPending) return;
    if (!next) setErrors({});
    onOpenChange(next);
  };
  const clear = (field: string) => setErrors((v) => ({ ...v, [field]: undefined, form: undefined }));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = disputeRequestSchema.safeParse({
      reason: reason || undefined,
      outcome: outcome || undefined,
      amountUsd: outcome === 'refund_partial' && amount.trim() ? amount : undefined,
      text,
    });
    if (!parsed.success) return setErrors(issuesByField(parsed.error));
    setErrors({});
    send.mutate(
      { ...parsed.data, file },
      {
        onSuccess: (d) => {
          onOpenChange(false);
          toast({
            title: 'Dispute opened',
            description:
              d.kind === 'link'
                ? 'Byline is checking the live article.'
                : `The editorial team answers by ${new Date(d.respondBy!).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })}.`,
          });
          navigate(`/brand/disputes/${d.id}`);
        },
        onError: (err) => setErrors(apiFieldErrors(err, 'Could not open the dispute')),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent data-testid="open-dispute-dialog" className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Open a dispute</DialogTitle>
          <DialogDescription>
            Tell the editorial team what is wrong with “{a.title}” and what you ask for. What you write, and any file,
            also goes into this placement’s messages.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-4" noValidate>
          <div className="space-y-1">
            <RadioChoices
              name={`${id}-reason`}
              legend="What is the problem?"
              value={reason as DisputeReason}
              onChange={(r) => {
                setReason(r);
                clear('reason');
              }}
              disabled={send.isPending}
              choices={reasons}
            />
            <GroupError id={`${id}-reason-error`} error={errors.reason} />
          </div>
          <div className="space-y-1">
            <RadioChoices
              name={`${id}-outcome`}
              legend="What do you ask for?"
              value={outcome as DisputeOutcome}
              onChange={(o) => {
                setOutcome(o);
                clear('outcome');
              }}
              disabled={send.isPending}
              choices={[
                { value: 'refund_full', label: 'A full refund', hint: `${left} back to your card.` },
                { value: 'refund_partial', label: 'A partial refund', hint: 'Part of the price back; say how much.' },
                { value: 'correction', label: 'A correction', hint: 'The article is put right; no money moves.' },
              ]}
            />
            <GroupError id={`${id}-outcome-error`} error={errors.outcome} />
          </div>
          {outcome === 'refund_partial' && (
            <FormField
              id={`${id}-amount`}
              label="Amount you ask for (USD)"
              error={errors.amountUsd}
              hint={`At most ${left}`}
            >
              <Input
                id={`${id}-amount`}
                inputMode="decimal"
                autoComplete="off"
                placeholder="e.g. 150.00"
                value={amount}
                onChange={(e) => {
                  setAmount(e.target.value);
                  clear('amountUsd');
                }}
                aria-invalid={Boolean(errors.amountUsd)}
                aria-describedby={errors.amountUsd ? `${id}-amount-error` : undefined}
                disabled={send.isPending}
              />
            </FormField>
          )}
          <FormField id={`${id}-text`} label="What is wrong" error={errors.text}>
            <Textarea
              id={`${id}-text`}
              rows={5}
              maxLength={DISPUTE_TEXT_MAX}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                clear('text');
              }}
              onPaste={paste.onPaste}
              onInput={paste.onInput}
              placeholder="e.g. The brief asked for the founder quote and the product link; the article has neither."
              aria-invalid={Boolean(errors.text)}
              aria-describedby={[errors.text ? `${id}-text-error` : '', `${id}-text-count`].join(' ').trim()}
              disabled={send.isPending}
            />
            <LengthCounter id={`${id}-text-count`} length={text.length} max={DISPUTE_TEXT_MAX} cut={paste.cut} />
          </FormField>
          <FormField
            id={`${id}-file`}
            label="Evidence (optional)"
            error={errors.file}
            hint="A PDF, Word document, PNG or JPEG of at most 25 MB."
          >
            <input
              id={`${id}-file`}
              type="file"
              accept={ACCEPT}
              onChange={(e) => {
                const chosen = e.target.files?.[0] ?? null;
                if (chosen && chosen.size > DOCUMENT_MAX_BYTES) {
                  e.target.value = '';
                  setFile(null);
                  return setErrors((v) => ({ ...v, file: 'The file is larger than 25 MB' }));
                }
                setFile(chosen);
                clear('file');
              }}
              disabled={send.isPending}
              className="block w-full min-w-0 text-sm text-muted-foreground file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-foreground hover:file:bg-accent"
              data-testid="dispute-file"
            />
          </FormField>
          {reason !== '' && (
            <p className="rounded-md bg-muted px-3 py-2 text-sm" data-testid="dispute-who-decides">
              {who}
            </p>
          )}
          {errors.form && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {errors.form}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={send.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={send.isPending}>
              {send.isPending ? 'Sending…' : 'Open dispute'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
