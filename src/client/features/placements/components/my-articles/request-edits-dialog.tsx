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

/** "Submit Edit Request": optional feedback, at most 1000 characters, trimmed; empty sends none. */
export function RequestEditsDialog({ paymentId, open, onOpenChange }: { paymentId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [feedback, setFeedback] = React.useState('');
  const requestEdits = useRequestEdits();
  const paste = usePasteCut(EDIT_FEEDBACK_MAX);
  const id = `edit-feedback-${paymentId}`;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    requestEdits.mutate(
      { paymentId, feedback },
      {
        onSuccess: () => {
          toast({ title: 'Edits requested', description: 'The admin has been notified of your edit request.' });
          setFeedback('');
          onOpenChange(false);
        },
        onError: (err) => toast({ title: 'Failed to request edits', description: errorMessage(err, 'Please try again.'), variant: 'destructive' }),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(o) => !requestEdits.isPending && onOpenChange(o)}>
      <DialogContent data-testid="request-edits-dialog">
        <DialogHeader>
          <DialogTitle>Submit Edit Request</DialogTitle>
          <DialogDescription>Tell the editorial team what you would like changed in the draft. Feedback is optional.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor={id}>Feedback (optional)</Label>
            <Textarea
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
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={requestEdits.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={requestEdits.isPending}>
              {requestEdits.isPending ? 'Sending...' : 'Send Edit Request'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
