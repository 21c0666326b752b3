import * as React from 'react';
import { Check, ArrowUpRight } from 'lucide-react';
import { formatUsd } from '@shared/money';
import type { DisputeDetail } from '@shared/schemas/fair-terms';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useTerms } from '@/lib/terms';
import { useAcceptOffer, useEscalateDispute } from '../../api/disputes';
import { mayOnDispute } from '../../life';

/**
 * The brand's two moves once the team has answered (issue 47): accept the offer (a part refund or a
 * correction) or escalate within the editorial team, by `escalateBy`, as the placement's life says
 * this member may now (`accept_dispute_offer`, `escalate_dispute`: the table's guards read the
 * answer and the escalation's end, computed on the server).
 */
export function BrandDisputeActions({ d }: { d: DisputeDetail }) {
  const rules = useTerms().data?.rules;
  const accept = useAcceptOffer(d);
  const escalate = useEscalateDispute(d);
  const [confirming, setConfirming] = React.useState<'accept' | 'escalate' | null>(null);
  // the table says both: an offer stands (not a rejection), and the escalation's days are not over
  const offer = mayOnDispute(d, 'accept_dispute_offer') ? d.answer : null;
  const canEscalate = mayOnDispute(d, 'escalate_dispute');
  if (!offer && !canEscalate) return null;
  const within = rules ? `within ${rules.decideDays} days` : 'within 10 days';
  const failed = (title: string) => (err: unknown) =>
    toast({ title, description: errorMessage(err, 'Please try again.'), variant: 'destructive' });

  const onAccept = () =>
    accept.mutate(undefined, {
      onSuccess: (done) => {
        setConfirming(null);
        toast({
          title: 'Offer accepted',
          description:
            done.resolution === 'corrected'
              ? 'The editorial team corrects the article.'
              : `${formatUsd(done.refundedUsd)} is on its way back to your card.`,
        });
      },
      onError: failed('Could not accept the offer'),
    });
  const onEscalate = () =>
    escalate.mutate(undefined, {
      onSuccess: (done) => {
        setConfirming(null);
        toast({
          title: 'Dispute escalated',
          description: done.decideBy
            ? `Another member of the editorial team decides by ${new Date(done.decideBy).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })}.`
            : 'Another member of the editorial team decides it.',
        });
      },
      onError: failed('Could not escalate the dispute'),
    });

  return (
    <>
      {offer && (
        <Button size="sm" onClick={() => setConfirming('accept')} disabled={accept.isPending || escalate.isPending}>
          <Check /> Accept offer
        </Button>
      )}
      {canEscalate && (
        <Button
          size="sm"
          variant="outline"
          onClick={() => setConfirming('escalate')}
          disabled={accept.isPending || escalate.isPending}
        >
          <ArrowUpRight /> Escalate
        </Button>
      )}
      <ConfirmDialog
        open={confirming === 'accept'}
        onOpenChange={(o) => setConfirming(o ? 'accept' : null)}
        title="Accept the offer?"
        description={
          offer?.amountUsd
            ? `${formatUsd(offer.amountUsd)} goes back to your card, with a credit note, and the dispute ends.`
            : 'The editorial team corrects the article as offered, and the dispute ends.'
        }
        confirmLabel="Accept offer"
        pendingLabel="Accepting…"
        pending={accept.isPending}
        onConfirm={onAccept}
      />
      <ConfirmDialog
        open={confirming === 'escalate'}
        onOpenChange={(o) => setConfirming(o ? 'escalate' : null)}
        title="Escalate this dispute?"
        description={`Another member of the editorial team, one who neither published your placement nor answered your dispute, decides it ${within}, with a written reason. If it is not decided in time, you get what you asked for.`}
        confirmLabel="Escalate"
        pendingLabel="Escalating…"
        pending={escalate.isPending}
        onConfirm={onEscalate}
      />
    </>
  );
}
