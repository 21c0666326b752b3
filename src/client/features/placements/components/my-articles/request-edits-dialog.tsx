import * as React from 'react';
import { EDIT_FEEDBACK_MAX } from '@shared/constants';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/input';
import { LengthCounter, usePasteCut } from '@/components/ui/length-counter';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useRequestEdits } from '../../api/review-draft';

/**
 * "Submit Edit Request": optional feedback, at most 1000 characters, trimmed; empty sends none. An
 * empty request gives the team no reason, so it is confirmed first ("Send without comments?").
 */
export function RequestEditsDialog({ paymentId, open, onOpenChange }: { paymentId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [feedback, setFeedback] = React.useState('');
  const [confirmEmpty, setConfirmEmpty] = React.useState(false);
  const requestEdits = useRequestEdits();
  const paste = usePasteCut(EDIT_FEEDBACK_MAX);
  const textareaRef = React.useRef<HTMLTextAreaElement>(null);
  const sendRef = React.useRef<HTMLButtonElement>(null);
  const id = `edit-feedback-${paymentId}`;

  const close = (next: boolean) => {
    if (requestEdits.isPending) return;
    if (!next) setConfirmEmpty(false);
    onOpenChange(next);
  };

  const send = () =>
    requestEdits.mutate(
      { paymentId, feedback },
      {
        onSuccess: () => {
          toast({ title: 'Edits requested', description: 'The admin has been notified of your edit request.' });
          setFeedback('');
          setConfirmEmpty(false);
          onOpenChange(false);
        },
        onError: (err) => toast({ title: 'Failed to request edits', description: errorMessage(err, 'Please try again.'), variant: 'destructive' }),
      },
    );

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
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
              <DialogTitle>Submit Edit Request</DialogTitle>
              <DialogDescription>Tell the editorial team what you would like changed in the draft. Feedback is optional.</DialogDescription>
            </DialogHeader>
            <form onSubmit={submit} className="space-y-4">
              <div className="space-y-1.5">
                <Label htmlFor={id}>Feedback (optional)</Label>
                <Textarea
                  ref={textareaRef}
                  id={id}
                  rows={6}
                  value={feedback}
                  maxLength={EDIT_FEEDBACK_MAX}
                  onChange={(e) => setFeedback(e.target.value.slice(0, EDIT_FEEDBACK_MAX))}
                  onPaste={paste.onPaste}
                  onInput={paste.onInput}
                  placeholder="e.g. Please mention our new product line in the second paragraph."
                  aria-describedby={`${id}-count`}
                />
                {/* the spec words this counter: "n/1000 characters" */}
                <LengthCounter id={`${id}-count`} length={feedback.length} max={EDIT_FEEDBACK_MAX} cut={paste.cut}>
                  {feedback.length}/{EDIT_FEEDBACK_MAX} characters
                </LengthCounter>
              </div>
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => close(false)} disabled={requestEdits.isPending}>
                  Cancel
                </Button>
                <Button type="submit" disabled={requestEdits.isPending}>
                  {requestEdits.isPending ? 'Sending...' : 'Send Edit Request'}
                </Button>
              </DialogFooter>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
