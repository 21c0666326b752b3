import * as React from 'react';
import { Check, MessageSquareWarning, X, XCircle } from 'lucide-react';
import { ANSWER_REASON_MAX, answerReasonSchema, type Revisions } from '@shared/schemas/fair-terms';
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
import { errorMessage } from '@/lib/api';
import { apiFieldErrors, issuesByField, type FieldErrors } from '@/lib/form-errors';
import { useAnswerExtraRevision } from '../../api/extra-revision';

/** Decline: the reason the brand reads, asked for in a dialog. */
function DeclineExtraRevision({
  paymentId,
  open,
  onOpenChange,
}: {
  paymentId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const answer = useAnswerExtraRevision(paymentId);
  const [reason, setReason] = React.useState('');
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const id = `decline-revision-${paymentId}`;
  const close = (next: boolean) => {
    if (answer.isPending) return;
    if (!next) setErrors({});
    onOpenChange(next);
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = answerReasonSchema.safeParse({ reason });
    if (!parsed.success) return setErrors(issuesByField(parsed.error));
    answer.mutate(
      { accept: false, reason: parsed.data.reason },
      {
        onSuccess: () => {
          toast({ title: 'Extra revision declined', description: 'The brand has been told why.' });
          setReason('');
          setErrors({});
          onOpenChange(false);
        },
        onError: (err) => setErrors(apiFieldErrors(err, 'Could not decline the extra revision')),
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent data-testid="decline-revision-dialog">
        <DialogHeader>
          <DialogTitle>Decline the extra revision</DialogTitle>
          <DialogDescription>
            Say why the request is not tied to the brief. The brand reads your reason and may dispute it.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-4" noValidate>
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
              aria-invalid={Boolean(errors.reason)}
              aria-describedby={errors.reason ? `${id}-error` : undefined}
              disabled={answer.isPending}
            />
          </FormField>
          {errors.form && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {errors.form}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={answer.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={answer.isPending}>
              {answer.isPending ? 'Declining…' : 'Decline extra revision'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The brand's edit request beyond the included rounds (issue 47), on the Projects card and the
 * placement's page: its feedback and reason, with Accept (the round opens) and Decline (with a
 * reason), the two offered as the placement's life says (`life.actions`). Once declined, what the
 * brand was told.
 */
export function ExtraRevisionRequest({
  paymentId,
  revisions,
  canAnswer,
}: {
  paymentId: string;
  revisions: Revisions;
  canAnswer: boolean;
}) {
  const answer = useAnswerExtraRevision(paymentId);
  const [declining, setDeclining] = React.useState(false);
  const request = revisions.request;
  if (request?.status === 'declined') {
    return (
      <p className="flex items-start gap-1.5 text-sm text-muted-foreground" data-testid="extra-revision">
        <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span className="min-w-0 break-words">Extra revision declined: {request.answer || 'no reason given'}</span>
      </p>
    );
  }
  if (request?.status !== 'pending') return null;
  const accept = () =>
    answer.mutate(
      { accept: true },
      {
        onSuccess: () =>
          toast({
            title: 'Extra revision accepted',
            description: 'The round is open: the brand’s feedback is on the draft.',
          }),
        onError: (err) =>
          toast({
            title: 'Could not accept',
            description: errorMessage(err, 'Please try again.'),
            variant: 'destructive',
          }),
      },
    );
  return (
    <section
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
      aria-label="Extra revision requested"
      data-testid="extra-revision"
    >
      <p className="flex items-center gap-1.5 font-semibold">
        <MessageSquareWarning className="size-4 shrink-0" aria-hidden /> Extra revision requested
      </p>
      <p>
        The brand used its {revisions.included} included {revisions.included === 1 ? 'revision' : 'revisions'} and asks
        for another.
      </p>
      <dl className="space-y-2">
        <div>
          <dt className="font-medium">How the draft departs from the brief</dt>
          <dd className="whitespace-pre-wrap break-words" data-testid="extra-revision-reason">
            {request.reason}
          </dd>
        </div>
        <div>
          <dt className="font-medium">Feedback</dt>
          <dd className="whitespace-pre-wrap break-words">{request.feedback}</dd>
        </div>
      </dl>
      {canAnswer && (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={accept} disabled={answer.isPending}>
            <Check /> {answer.isPending ? 'Accepting…' : 'Accept extra revision'}
          </Button>
          <Button size="sm" variant="outline" onClick={() => setDeclining(true)} disabled={answer.isPending}>
            <X /> Decline
          </Button>
        </div>
      )}
      <DeclineExtraRevision paymentId={paymentId} open={declining} onOpenChange={setDeclining} />
    </section>
  );
}
