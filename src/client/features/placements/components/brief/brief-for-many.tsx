import * as React from 'react';
import { Copy, FileText, Save, Trash2 } from 'lucide-react';
import type { BriefTemplate } from '@shared/schemas/brief';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useReviewOnly } from '@/lib/org';
import {
  useBriefTemplates,
  useCopyBrief,
  useDeleteBriefTemplate,
  useOrderLines,
  useSaveBriefTemplate,
} from '../../api/many-at-once';
import { briefValues, splitParts, type BriefValues } from './brief-merge';

/**
 * One brief for many (issue 46): "Use this brief for…" copies a submitted brief to other placements
 * of its order (every one without a brief, or those ticked); a brief template is saved from the form
 * and chosen when starting one.
 */
export function UseBriefForDialog({
  paymentId,
  orderId,
  open,
  onOpenChange,
}: {
  paymentId: string;
  orderId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  // a client reviewer sees no order (its amounts): it copies to every placement without a brief
  const reviewOnly = useReviewOnly() === true;
  const order = useOrderLines(orderId, open && !reviewOnly);
  const copy = useCopyBrief(paymentId);
  const [mode, setMode] = React.useState<'all' | 'chosen'>('all');
  const [chosen, setChosen] = React.useState<ReadonlySet<string>>(new Set());
  const others = (order.data?.lines ?? []).filter((l) => l.paymentId !== paymentId && l.status === 'paid');

  const onCopy = () =>
    copy.mutate(mode === 'all' ? undefined : [...chosen], {
      onSuccess: (res) => {
        const skipped = res.skipped.map((s) => {
          const line = others.find((l) => l.paymentId === s.paymentId);
          return `${line ? `${line.outletName}: ${line.title}` : 'A placement'} – ${s.reason}`;
        });
        toast({
          // of how many: a placement kept out (its own draft or brief) is counted and named below
          title: res.copied.length
            ? `Brief copied to ${res.copied.length}${skipped.length ? ` of ${res.copied.length + skipped.length}` : ''} placement${res.copied.length + skipped.length === 1 ? '' : 's'}`
            : 'No brief was copied',
          description: skipped.length
            ? skipped.join('\n')
            : res.copied.length
              ? 'Each copy was submitted and stays editable on its own.'
              : 'Every other placement of this order has its own brief.',
        });
        onOpenChange(false);
      },
      onError: (err) =>
        toast({
          title: 'Could not copy the brief',
          description: errorMessage(err, 'Please try again'),
          variant: 'destructive',
        }),
    });

  return (
    <Dialog open={open} onOpenChange={(o) => !copy.isPending && onOpenChange(o)}>
      <DialogContent data-testid="use-brief-for">
        <DialogHeader>
          <DialogTitle>Use this brief for…</DialogTitle>
          <DialogDescription>
            The brief is submitted for the placements you choose from the same order. A placement with a brief of its
            own keeps it, and every copy stays editable afterwards.
          </DialogDescription>
        </DialogHeader>
        <fieldset className="space-y-3">
          <legend className="sr-only">Which placements</legend>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="copy-mode"
              className="mt-1"
              checked={mode === 'all'}
              onChange={() => setMode('all')}
            />
            <span>All placements of this order without a brief</span>
          </label>
          {!reviewOnly && (
            <label className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="copy-mode"
                className="mt-1"
                checked={mode === 'chosen'}
                onChange={() => setMode('chosen')}
              />
              <span>Only the ones I choose</span>
            </label>
          )}
        </fieldset>
        {mode === 'chosen' && (
          <ul
            className="max-h-64 space-y-2 overflow-y-auto rounded-md border p-3"
            aria-label="Placements of this order"
          >
            {order.isLoading && <li className="text-sm text-muted-foreground">Loading the order…</li>}
            {others.map((l) => (
              <li key={l.paymentId} className="flex items-start gap-2 text-sm">
                <Checkbox
                  id={`copy-${l.paymentId}`}
                  className="mt-0.5"
                  checked={chosen.has(l.paymentId)}
                  onCheckedChange={(v) =>
                    setChosen((prev) => {
                      const next = new Set(prev);
                      if (v === true) next.add(l.paymentId);
                      else next.delete(l.paymentId);
                      return next;
                    })
                  }
                />
                <Label htmlFor={`copy-${l.paymentId}`} className="font-normal leading-snug">
                  {l.outletName}: {l.title}
                </Label>
              </li>
            ))}
          </ul>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={copy.isPending}>
            Not now
          </Button>
          <Button onClick={onCopy} disabled={copy.isPending || (mode === 'chosen' && chosen.size === 0)}>
            <Copy /> {copy.isPending ? 'Copying…' : 'Copy brief'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * "Start from a template": fills the form with a saved template (shown while the brief is new). Only
 * the placement's client's templates are offered (the organisation's own for a placement bought for
 * no client): one client's brief never starts from another's.
 */
export function TemplatePicker({
  paymentId,
  onApply,
  fallback,
}: {
  paymentId: string;
  onApply: (values: BriefValues, t: BriefTemplate) => void;
  fallback: React.ReactNode;
}) {
  const templates = useBriefTemplates(paymentId).data ?? [];
  if (!templates.length) return <>{fallback}</>;
  return (
    <div className="flex flex-col gap-1.5 text-sm sm:flex-row sm:items-center sm:gap-3">
      <label htmlFor="brief-template" className="flex items-center gap-1.5 font-medium">
        <FileText className="size-4" /> Start from a template
      </label>
      <select
        id="brief-template"
        className="h-9 rounded-md border bg-background px-2 sm:w-64"
        defaultValue=""
        data-testid="brief-template"
        onChange={(e) => {
          const t = templates.find((x) => x.id === e.target.value);
          if (t) onApply(briefValues(t), t);
          e.target.value = '';
        }}
      >
        <option value="">Choose a template…</option>
        {templates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * "Save as template": keeps what the form holds now under a name, for the placement's client (or,
 * bought for no client, for the organisation's own placements).
 */
export function SaveTemplateButton({
  paymentId,
  clientName,
  values,
}: {
  paymentId: string;
  clientName: string | null;
  values: () => BriefValues;
}) {
  const save = useSaveBriefTemplate(paymentId);
  const remove = useDeleteBriefTemplate();
  const templates = useBriefTemplates(paymentId).data ?? [];
  const [open, setOpen] = React.useState(false);
  const [name, setName] = React.useState('');
  const [error, setError] = React.useState<string | null>(null);
  const onSave = () => {
    const { part1Json, part2Json } = splitParts(values());
    save.mutate(
      { name, part1Json, part2Json },
      {
        onSuccess: (t) => {
          toast({ title: `Template “${t.name}” saved`, description: 'Choose it when you start another brief.' });
          setOpen(false);
          setName('');
          setError(null);
        },
        onError: (err) => setError(errorMessage(err, 'Could not save the template')),
      },
    );
  };
  return (
    <>
      <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)}>
        <Save /> Save as template
      </Button>
      <Dialog open={open} onOpenChange={(o) => !save.isPending && setOpen(o)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Save as template</DialogTitle>
            <DialogDescription>
              {clientName
                ? `Briefs of ${clientName}’s placements can start from it; other clients never see it.`
                : 'Briefs of placements bought for no client can start from it.'}
            </DialogDescription>
          </DialogHeader>
          <div className="space-y-2">
            <Label htmlFor="template-name">Template name</Label>
            <Input
              id="template-name"
              value={name}
              maxLength={100}
              aria-invalid={Boolean(error)}
              onChange={(e) => setName(e.target.value)}
            />
            {error && (
              <p role="alert" className="text-sm text-destructive">
                {error}
              </p>
            )}
          </div>
          {templates.length > 0 && (
            <div className="space-y-2">
              <p className="text-sm font-medium">{clientName ? `${clientName}’s templates` : 'Your organisation’s templates'}</p>
              <ul className="max-h-40 divide-y overflow-y-auto rounded-md border text-sm" aria-label="Brief templates">
                {templates.map((t) => (
                  <li key={t.id} className="flex items-center justify-between gap-2 px-3 py-1.5">
                    <span className="min-w-0 wrap-anywhere">{t.name}</span>
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      aria-label={`Delete template ${t.name}`}
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate(t.id, {
                          onError: (err) =>
                            toast({
                              title: 'Could not delete the template',
                              description: errorMessage(err, 'Please try again'),
                              variant: 'destructive',
                            }),
                        })
                      }
                    >
                      <Trash2 />
                    </Button>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={save.isPending}>
              Cancel
            </Button>
            <Button onClick={onSave} disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save template'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
