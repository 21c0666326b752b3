import * as React from 'react';
import type { OrgClient } from '@shared/schemas/org';
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
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useChangeClient } from '../api/org';

type Errors = { name?: string; monthlyCapUsd?: string; websites?: string };

/** The websites as typed: one per line (commas and spaces separate them too), empty lines dropped. */
const websitesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/**
 * The server's refusal of the websites: of the list (`websites`) or of one entry (`websites.1`),
 * which is named, since the list may be long.
 */
function websitesError(errors: Record<string, string>, typed: string[]): string | undefined {
  if (errors.websites) return errors.websites;
  const key = Object.keys(errors).find((k) => k.startsWith('websites.'));
  if (!key) return undefined;
  const entry = typed[Number(key.slice('websites.'.length))];
  return entry ? `${entry}: ${errors[key]}` : errors[key];
}

/**
 * A client's name, monthly cap (empty: none) and websites (issue 57): a placement bought for the
 * client must link to one of its websites; without any, to the organisation's own.
 */
export function EditClientDialog({ client, open, onClose }: { client: OrgClient; open: boolean; onClose: () => void }) {
  const [name, setName] = React.useState(client.name);
  const [cap, setCap] = React.useState(client.monthlyCapUsd ?? '');
  const [websites, setWebsites] = React.useState(client.websites.join('\n'));
  const [errors, setErrors] = React.useState<Errors>({});
  const change = useChangeClient();
  const [wasOpen, setWasOpen] = React.useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setName(client.name);
      setCap(client.monthlyCapUsd ?? '');
      setWebsites(client.websites.join('\n'));
      setErrors({});
    }
  }
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    const typed = websitesOf(websites);
    change.mutate(
      { id: client.id, name, monthlyCapUsd: cap.trim() === '' ? null : cap.trim(), websites: typed },
      {
        onSuccess: () => {
          toast({ title: 'Client saved', description: `${name.trim()} was saved.` });
          onClose();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.errors)
            setErrors({
              name: err.errors.name,
              monthlyCapUsd: err.errors.monthlyCapUsd,
              websites: websitesError(err.errors, typed),
            });
          else
            toast({
              title: 'Error',
              description: errorMessage(err, 'Failed to save the client'),
              variant: 'destructive',
            });
        },
      },
    );
  };
  return (
    <Dialog open={open} onOpenChange={(o) => !o && !change.isPending && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto" data-testid="client-dialog">
        <form onSubmit={submit} noValidate className="space-y-4">
          <DialogHeader>
            <DialogTitle>Edit {client.name}</DialogTitle>
            <DialogDescription>
              Leave the cap empty for none. Your organisation’s budget applies as well.
            </DialogDescription>
          </DialogHeader>
          <FormField id="edit-client-name" label="Client name" error={errors.name}>
            <Input
              id="edit-client-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={Boolean(errors.name)}
              aria-describedby={errors.name ? 'edit-client-name-error' : undefined}
            />
          </FormField>
          <FormField
            id="edit-client-cap"
            label="Monthly cap (USD)"
            error={errors.monthlyCapUsd}
            hint="What may be spent for this client each month."
          >
            <Input
              id="edit-client-cap"
              inputMode="decimal"
              autoComplete="off"
              placeholder="No cap"
              value={cap}
              onChange={(e) => setCap(e.target.value)}
              aria-invalid={Boolean(errors.monthlyCapUsd)}
              aria-describedby={errors.monthlyCapUsd ? 'edit-client-cap-error' : undefined}
            />
          </FormField>
          <FormField
            id="edit-client-websites"
            label="Websites"
            error={errors.websites}
            hint={
              <span id="edit-client-websites-hint">
                One per line, such as example.com. Articles bought for this client must link to one of them; left
                empty, to your organisation’s website.
              </span>
            }
          >
            <Textarea
              id="edit-client-websites"
              rows={3}
              autoComplete="off"
              spellCheck={false}
              value={websites}
              onChange={(e) => {
                setWebsites(e.target.value);
                setErrors((prev) => ({ ...prev, websites: undefined }));
              }}
              aria-invalid={Boolean(errors.websites)}
              aria-describedby={errors.websites ? 'edit-client-websites-error' : 'edit-client-websites-hint'}
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={change.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Saving...' : 'Save client'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
