import * as React from 'react';
import type { OrgMember } from '@shared/schemas/org';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useSetMemberLimits } from '../api/budget';

type Errors = { monthlyCapUsd?: string; approvalThresholdUsd?: string };

const orNull = (v: string) => (v.trim() === '' ? null : v.trim());

/** A member's own monthly cap and approval threshold; an empty field is none. */
export function LimitsDialog({ member, open, onClose }: { member: OrgMember; open: boolean; onClose: () => void }) {
  const [cap, setCap] = React.useState(member.monthlyCapUsd ?? '');
  const [threshold, setThreshold] = React.useState(member.approvalThresholdUsd ?? '');
  const [errors, setErrors] = React.useState<Errors>({});
  const save = useSetMemberLimits();
  const name = member.name || member.email;

  // opened again: start from what is saved
  const [wasOpen, setWasOpen] = React.useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setCap(member.monthlyCapUsd ?? '');
      setThreshold(member.approvalThresholdUsd ?? '');
      setErrors({});
    }
  }

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    save.mutate(
      { userId: member.id, monthlyCapUsd: orNull(cap), approvalThresholdUsd: orNull(threshold) },
      {
        onSuccess: () => {
          toast({ title: 'Limits saved', description: `${name}’s limits were saved.` });
          onClose();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 400 && err.errors)
            setErrors({ monthlyCapUsd: err.errors.monthlyCapUsd, approvalThresholdUsd: err.errors.approvalThresholdUsd });
          else toast({ title: 'Error', description: errorMessage(err, 'Failed to save the limits'), variant: 'destructive' });
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(o) => !o && !save.isPending && onClose()}>
      <DialogContent data-testid="limits-dialog">
        <form onSubmit={submit} noValidate className="space-y-4">
          <DialogHeader>
            <DialogTitle>Limits of {name}</DialogTitle>
            <DialogDescription>Leave a field empty for no limit. The organisation’s monthly budget applies as well.</DialogDescription>
          </DialogHeader>
          <FormField id="limit-cap" label="Monthly cap (USD)" error={errors.monthlyCapUsd} hint="What they may spend each month.">
            <Input
              id="limit-cap"
              inputMode="decimal"
              autoComplete="off"
              placeholder="No cap"
              value={cap}
              onChange={(e) => {
                setCap(e.target.value);
                setErrors((v) => ({ ...v, monthlyCapUsd: undefined }));
              }}
              aria-invalid={Boolean(errors.monthlyCapUsd)}
              aria-describedby={errors.monthlyCapUsd ? 'limit-cap-error' : undefined}
            />
          </FormField>
          <FormField
            id="limit-threshold"
            label="Approval threshold (USD)"
            error={errors.approvalThresholdUsd}
            hint="Purchases above it need approval from an owner or admin."
          >
            <Input
              id="limit-threshold"
              inputMode="decimal"
              autoComplete="off"
              placeholder="No approval needed"
              value={threshold}
              onChange={(e) => {
                setThreshold(e.target.value);
                setErrors((v) => ({ ...v, approvalThresholdUsd: undefined }));
              }}
              aria-invalid={Boolean(errors.approvalThresholdUsd)}
              aria-describedby={errors.approvalThresholdUsd ? 'limit-threshold-error' : undefined}
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save limits'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
