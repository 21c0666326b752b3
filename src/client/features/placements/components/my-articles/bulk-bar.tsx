import * as React from 'react';
import { CheckCheck, Download, MessageSquare, X } from 'lucide-react';
import { csvRows } from '@shared/csv';
import { placementStatus } from '@shared/payment';
import { withAmounts, type BrandPlacementItem } from '@shared/schemas/brief';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, errorMessage } from '@/lib/api';
import { useApproveMany } from '../../api/many-at-once';
import { messagesUrl } from '../../api/get-messages';

type Outcome = { title: string; lines: string[] } | null;

function exportCsv(items: BrandPlacementItem[], showAmounts: boolean) {
  // a client reviewer's items carry no amount (decision 035): no amount column then
  const amounts = showAmounts ? items.map((a) => withAmounts(a)?.payment.amount) : [];
  const priced = showAmounts && amounts.every((v) => v !== undefined);
  const head = ['outlet', 'title', 'status', ...(priced ? ['amount_usd'] : []), 'client', 'live_url'];
  const rows = items.map((a, i) => [
    a.outletName,
    a.title,
    placementStatus(a.payment),
    ...(priced ? [amounts[i]!] : []),
    a.client?.name ?? '',
    a.publication?.url ?? '',
  ]);
  // formulas written as text, like every CSV Byline writes
  const csv = csvRows([head, ...rows]);
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `placements-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * What can be done to the ticked placements together (issue 46). Mounted with the list: what it
 * reports stays on screen when the placements it approved leave the tab.: approve the drafts that are ready
 * (the others are listed with why), export them as CSV, or send the editorial team one message on
 * each of their conversations.
 */
export function BulkBar({
  selected,
  reviewOnly,
  onClear,
}: {
  selected: BrandPlacementItem[];
  reviewOnly: boolean;
  onClear: () => void;
}) {
  const approve = useApproveMany();
  const [outcome, setOutcome] = React.useState<Outcome>(null);
  const [messaging, setMessaging] = React.useState(false);
  const [text, setText] = React.useState('');
  const [sending, setSending] = React.useState(false);
  const titleOf = (id: string) => {
    const a = selected.find((x) => x.payment.id === id);
    return a ? `${a.title} (${a.outletName})` : id;
  };

  const onApprove = () =>
    approve.mutate(
      selected.map((a) => a.payment.id),
      {
        onSuccess: (res) => {
          setOutcome({
            title: `${res.approved.length} draft${res.approved.length === 1 ? '' : 's'} approved`,
            lines: res.skipped.map((s) => `${titleOf(s.paymentId)}: ${s.reason}`),
          });
          if (!res.skipped.length) onClear();
        },
        onError: (err) =>
          toast({
            title: 'Could not approve',
            description: errorMessage(err, 'Please try again'),
            variant: 'destructive',
          }),
      },
    );

  const onSend = async () => {
    setSending(true);
    const failed: string[] = [];
    for (const a of selected) {
      try {
        await apiRequest('POST', messagesUrl('brand', a.payment.id), { text: text.trim() });
      } catch (err) {
        failed.push(`${titleOf(a.payment.id)}: ${errorMessage(err, 'not sent')}`);
      }
    }
    setSending(false);
    setMessaging(false);
    setText('');
    setOutcome({
      title: `Message sent on ${selected.length - failed.length} of ${selected.length} placements`,
      lines: failed,
    });
  };

  return (
    <>
      {selected.length > 0 && (
        <div
          role="toolbar"
          aria-label="Selected placements"
          data-testid="bulk-bar"
          className="sticky top-14 z-[4] flex flex-col gap-2 rounded-lg border bg-background/95 p-3 shadow-sm backdrop-blur sm:flex-row sm:items-center sm:justify-between"
        >
          <span className="text-sm font-medium">{selected.length} selected</span>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={onApprove} disabled={approve.isPending}>
              <CheckCheck /> {approve.isPending ? 'Approving…' : 'Approve ready drafts'}
            </Button>
            <Button size="sm" variant="outline" onClick={() => exportCsv(selected, !reviewOnly)}>
              <Download /> Export CSV
            </Button>
            <Button size="sm" variant="outline" onClick={() => setMessaging(true)}>
              <MessageSquare /> Message the editorial team
            </Button>
            <Button size="sm" variant="ghost" onClick={onClear}>
              <X /> Clear
            </Button>
          </div>
        </div>
      )}

      <Dialog open={messaging} onOpenChange={(o) => !sending && setMessaging(o)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Message the editorial team</DialogTitle>
            <DialogDescription>
              The same message goes into the conversation of each of the {selected.length} selected placements.
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-2">
            <Label htmlFor="bulk-message">Message</Label>
            <Textarea
              id="bulk-message"
              rows={5}
              maxLength={5000}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => setMessaging(false)} disabled={sending}>
              Cancel
            </Button>
            <Button onClick={() => void onSend()} disabled={sending || !text.trim()}>
              {sending ? 'Sending…' : `Send to ${selected.length}`}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <Dialog open={outcome !== null} onOpenChange={(o) => !o && setOutcome(null)}>
        <DialogContent data-testid="bulk-outcome">
          <DialogHeader>
            <DialogTitle>{outcome?.title}</DialogTitle>
            <DialogDescription>
              {outcome?.lines.length ? 'These were skipped:' : 'Nothing was skipped.'}
            </DialogDescription>
          </DialogHeader>
          {outcome && outcome.lines.length > 0 && (
            <ul className="max-h-64 list-disc space-y-1 overflow-y-auto pl-5 text-sm">
              {outcome.lines.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          )}
          <DialogFooter>
            <Button onClick={() => setOutcome(null)}>Done</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
