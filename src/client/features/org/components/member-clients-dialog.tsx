import * as React from 'react';
import type { OrgClient, OrgMember } from '@shared/schemas/org';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useChangeMemberClients } from '../api/org';
import { ClientsPicker } from './clients-picker';

/** The clients a buyer, reviewer or viewer is limited to; none ticked is every client. */
export function MemberClientsDialog({
  member,
  clients,
  open,
  onClose,
}: {
  member: OrgMember;
  clients: OrgClient[];
  open: boolean;
  onClose: () => void;
}) {
  const [picked, setPicked] = React.useState<string[]>(member.clientIds ?? []);
  const change = useChangeMemberClients();
  const name = member.name || member.email;
  const [wasOpen, setWasOpen] = React.useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setPicked(member.clientIds ?? []);
  }
  const save = () =>
    change.mutate(
      { userId: member.id, clientIds: picked.length ? picked : null },
      {
        onSuccess: () => {
          toast({
            title: 'Clients saved',
            description: picked.length
              ? `${name} is limited to ${picked.length === 1 ? 'one client' : `${picked.length} clients`}.`
              : `${name} sees every client.`,
          });
          onClose();
        },
        onError: (err) =>
          toast({
            title: 'Error',
            description: errorMessage(err, 'Failed to save the clients'),
            variant: 'destructive',
          }),
      },
    );
  return (
    <Dialog open={open} onOpenChange={(o) => !o && !change.isPending && onClose()}>
      <DialogContent data-testid="member-clients-dialog">
        <DialogHeader>
          <DialogTitle>Clients of {name}</DialogTitle>
          <DialogDescription>Takes effect on their next click.</DialogDescription>
        </DialogHeader>
        <ClientsPicker
          clients={clients}
          value={picked}
          onChange={setPicked}
          idPrefix="member"
          reviewer={member.role === 'reviewer'}
        />
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} disabled={change.isPending}>
            Cancel
          </Button>
          <Button type="button" onClick={save} disabled={change.isPending}>
            {change.isPending ? 'Saving...' : 'Save clients'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
