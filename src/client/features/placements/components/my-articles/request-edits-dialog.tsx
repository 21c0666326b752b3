import * as React from 'react';
import { EDIT_FEEDBACK_MAX } from '@shared/constants';
import { ANSWER_REASON_MAX, EXTRA_REVISION_REASON_REQUIRED, type Revisions } from '@shared/schemas/fair-terms';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/input';
import { LengthCounter, usePasteCut } from '@/components/ui/length-counter';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { apiFieldErrors, type FieldErrors } from '@/lib/form-errors';
import { useRequestEdits } from '../../api/review-draft';

const rounds = (n: number) => (n === 1 ? 'Your 1 included revision is used.' : `Your ${n} included revisions are used.`);

/**
 * "Submit Edit Request": optional feedback, at most 1000 characters, trimmed; empty sends none. An
 * empty request gives the team no reason, so it is confirmed first ("Send without comments?").
 * Once the included rounds are used (issue 47) it asks for an extra revision instead: the feedback
 * and a reason tied to the brief, both needed, which the editorial team accepts or declines.
 */
export function RequestEditsDialog({
  paymentId,
  revisions,
  open,
  onOpenChange,
}: {
  paymentId: string;
  revisions: Revisions;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [feedback, setFeedback] = React.useState('');
  const [reason, setReason] = React.useState('');
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const [confirmEmpty, setConfirmEmpty] = React.useState(false);
  const requestEdits = useRequestEdits();
  const extra = revisions.used >= revisions.included;
  const paste = usePasteCut(EDIT_FEEDBACK_MAX);
  const textareaRef = React.useRef<HTMLTextAreaElement>(null);
  const sendRef = React.useRef<HTMLButtonElement>(null);
  const id = `edit-feedback-${paymentId}`;

  const close = (next: boolean) => {
    if (requestEdits.isPending) return;
    if (!next) {
      setConfirmEmpty(false);
      setErrors({});
    }
    onOpenChange(next);
  };

  const send = () =>
    requestEdits.mutate(
      { paymentId, feedback, ...(extra ? { reason } : {}) },
      {
        onSuccess: (res) => {
          if (res.extra) {
            toast({ title: 'Extra revision sent to the editorial team', description: 'They will accept it or decline it with their reason.' });
          } else {
            toast({ title: 'Edits requested', description: 'The admin has been notified of your edit request.' });
          }
          setFeedback('');
          setReason('');
          setErrors({});
          setConfirmEmpty(false);
          onOpenChange(false);
        },
        onError: (err) => {
          if (!extra) {
            toast({ title: 'Failed to request edits', description: errorMessage(err, 'Please try again.'), variant: 'destructive' });
            return;
          }
          setErrors(apiFieldErrors(err, 'Please try again.'));
        },
      },
    );

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (extra) {
      // both are needed beyond the included rounds: said here, as the server would
      const missing: FieldErrors = {
        ...(feedback.trim() ? {} : { feedback: 'Say what should change' }),
        ...(reason.trim() ? {} : { reason: EXTRA_REVISION_REASON_REQUIRED }),
      };
      if (Object.keys(missing).length) return setErrors(missing);
      return send();
    }
    if (!confirmEmpty && !feedback.trim()) return setConfirmEmpty(true);
    send();
  };

  // the question replaces the form in the same dialog: its answer takes the focus, and Back returns it to the text
  React.useEffect(() => {
    if (confirmEmpty) sendRef.current?.focus();
  }, [confirmEmpty]);
  const back = () => {
    setConfirmEmpty(false);
    requestAnimationFrame(() => textareaRef.current?.focus());
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent data-testid="request-edits-dialog">
        {confirmEmpty ? (
          <>
            <DialogHeader>
              <DialogTitle>Send without comments?</DialogTitle>
              <DialogDescription>
                The editorial team will get your edit request with no reason. A few words on what to change help them revise the draft.
              </DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={back} disabled={requestEdits.isPending}>
                Back
              </Button>
              <Button ref={sendRef} type="button" onClick={send} disabled={requestEdits.isPending}>
                {requestEdits.isPending ? 'Sending...' : 'Send without comments'}
              </Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>{extra ? 'Ask for an extra revision' : 'Submit Edit Request'}</DialogTitle>
              <DialogDescription>
                {extra
                  ? `${rounds(revisions.included)} An extra revision needs a reason tied to the brief; the editorial team will accept or decline it.`
                  : 'Tell the editorial team what you would like changed in the draft. Feedback is optional.'}
              </DialogDescription>
            </DialogHeader>
            <form onSubmit={submit} className="space-y-4" noValidate>
              <div className="space-y-1.5">
                <Label htmlFor={id}>{extra ? 'Feedback' : 'Feedback (optional)'}</Label>
                <Textarea
                  ref={textareaRef}
                  id={id}
                  rows={6}
                  value={feedback}
                  maxLength={EDIT_FEEDBACK_MAX}
                  onChange={(e) => {
                    setFeedback(e.target.value.slice(0, EDIT_FEEDBACK_MAX));
                    setErrors((v) => ({ ...v, feedback: undefined }));
                  }}
                  onPaste={paste.onPaste}
                  onInput={paste.onInput}
                  placeholder="e.g. Please mention our new product line in the second paragraph."
                  aria-invalid={Boolean(errors.feedback)}
                  aria-describedby={errors.feedback ? `${id}-count ${id}-error` : `${id}-count`}
                />
                {/* the spec words this counter: "n/1000 characters" */}
                <LengthCounter id={`${id}-count`} length={feedback.length} max={EDIT_FEEDBACK_MAX} cut={paste.cut}>
                  {feedback.length}/{EDIT_FEEDBACK_MAX} characters
                </LengthCounter>
                {errors.feedback && (
                  <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
                    {errors.feedback}
                  </p>
                )}
              </div>
              {extra && (
                <div className="space-y-1.5">
                  <Label htmlFor={`${id}-reason`}>Reason</Label>
                  <p id={`${id}-reason-hint`} className="text-xs text-muted-foreground">
                    How the draft departs from the brief you submitted.
                  </p>
                  <Textarea
                    id={`${id}-reason`}
                    rows={3}
                    value={reason}
                    maxLength={ANSWER_REASON_MAX}
                    onChange={(e) => {
                      setReason(e.target.value);
                      setErrors((v) => ({ ...v, reason: undefined }));
                    }}
                    placeholder="e.g. The brief asked for our founder's quote; the draft leaves it out."
                    aria-invalid={Boolean(errors.reason)}
                    aria-describedby={errors.reason ? `${id}-reason-hint ${id}-reason-error` : `${id}-reason-hint`}
                  />
                  {errors.reason && (
                    <p id={`${id}-reason-error`} role="alert" className="text-sm font-medium text-destructive">
                      {errors.reason}
                    </p>
                  )}
                </div>
              )}
              {errors.form && (
                <p role="alert" className="text-sm font-medium text-destructive">
                  {errors.form}
                </p>
              )}
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => close(false)} disabled={requestEdits.isPending}>
                  Cancel
                </Button>
                <Button type="submit" disabled={requestEdits.isPending}>
                  {requestEdits.isPending ? 'Sending...' : extra ? 'Send to the editorial team' : 'Send Edit Request'}
                </Button>
              </DialogFooter>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
