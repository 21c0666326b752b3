import * as React from 'react';
import { formatUsd } from '@shared/money';
import { limitsRefusal, ORG_ROLE_LABELS, roleCan, type OrgRole } from '@shared/org';
import type { OrgMember } from '@shared/schemas/org';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useChangeRole, useRemoveMember, useTransferOwnership } from '../api/org';
import { useClients } from '@/lib/org';
import { LimitsDialog } from './limits-dialog';
import { MemberClientsDialog } from './member-clients-dialog';
import { RoleBadge } from './role-badge';
import { RoleSelect } from './role-select';

const failed = (err: unknown, fallback: string) => toast({ title: 'Error', description: errorMessage(err, fallback), variant: 'destructive' });

/**
 * One member: name, e-mail and role. The owner and admins change the role of, or remove, anyone
 * but the owner (whose role changes only by a transfer) and themselves; the owner may hand over
 * ownership.
 */
export function MemberRow({ member, me, myRole }: { member: OrgMember; me: boolean; myRole: OrgRole }) {
  const [confirming, setConfirming] = React.useState<'remove' | 'transfer' | 'limits' | 'clients' | null>(null);
  const clients = useClients(roleCan(myRole, 'manage')).data ?? [];
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const transfer = useTransferOwnership();
  const name = member.name || member.email;
  // the role the select shows; null where it is not to be changed here
  const editable = !me && member.role !== 'owner' && roleCan(myRole, 'manage') ? member.role : null;
  const canTransfer = !me && roleCan(myRole, 'own');
  // the owner and admins set the limits of those below them: never their own or the owner's (issue 57)
  const canLimit = roleCan(myRole, 'manage') && limitsRefusal({ role: myRole, self: me }, member.role) === null;
  // owners and admins see every client; the others may be limited to some (decision 035)
  const canChooseClients = roleCan(myRole, 'manage') && clients.length > 0 && member.role !== 'owner' && member.role !== 'admin';
  const clientNames = member.clientIds?.map((id) => clients.find((c) => c.id === id)?.name).filter(Boolean);
  const limits = [
    member.monthlyCapUsd !== null && `Cap ${formatUsd(member.monthlyCapUsd)}/month`,
    member.approvalThresholdUsd !== null && `Approval above ${formatUsd(member.approvalThresholdUsd)}`,
  ].filter(Boolean);

  const onRole = (role: Exclude<OrgRole, 'owner'>) =>
    changeRole.mutate(
      { userId: member.id, role },
      {
        onSuccess: () => toast({ title: 'Role changed', description: `${name} is now ${ORG_ROLE_LABELS[role].toLowerCase()}.` }),
        onError: (err) => failed(err, 'Failed to change the role'),
      },
    );
  const onRemove = () =>
    remove.mutate(member.id, {
      onSuccess: () => {
        setConfirming(null);
        toast({ title: 'Member removed', description: `${name} is no longer a member.` });
      },
      onError: (err) => failed(err, 'Failed to remove the member'),
    });
  const onTransfer = () =>
    transfer.mutate(member.id, {
      onSuccess: () => {
        setConfirming(null);
        toast({ title: 'Ownership transferred', description: `${name} is now the owner; you are an admin.` });
      },
      onError: (err) => failed(err, 'Failed to transfer ownership'),
    });

  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" data-testid="member-row">
      <div className="min-w-0 space-y-0.5">
        <div className="flex flex-wrap items-center gap-2">
          <p className="min-w-0 font-medium wrap-anywhere">{name}</p>
          {me && <Badge variant="outline">You</Badge>}
          {!editable && <RoleBadge role={member.role} />}
        </div>
        {member.name && <p className="text-sm text-muted-foreground wrap-anywhere">{member.email}</p>}
        {clientNames && clientNames.length > 0 && (
          <p className="text-xs text-muted-foreground wrap-anywhere" data-testid="member-clients">
            Clients: {clientNames.join(', ')}
          </p>
        )}
        {limits.length > 0 && (
          <p className="text-xs text-muted-foreground" data-testid="member-limits">
            {limits.join(' · ')}
          </p>
        )}
      </div>
      {(editable || canTransfer || canLimit) && (
        <div className="grid grid-cols-2 gap-2 sm:flex sm:items-center">
          {editable && (
            <RoleSelect
              aria-label={`Role of ${name}`}
              value={editable}
              onChange={onRole}
              disabled={changeRole.isPending}
              className="col-span-2 h-8 w-full sm:w-32"
            />
          )}
          {canLimit && (
            <Button variant="outline" size="sm" onClick={() => setConfirming('limits')} aria-label={`Limits of ${name}`}>
              Limits
            </Button>
          )}
          {canChooseClients && (
            <Button
              variant="outline"
              size="sm"
              onClick={() => setConfirming('clients')}
              aria-label={`Clients of ${name}`}
            >
              Clients
            </Button>
          )}
          {canTransfer && (
            <Button variant="outline" size="sm" onClick={() => setConfirming('transfer')}>
              Transfer ownership<span className="sr-only"> to {name}</span>
            </Button>
          )}
          {/* every row has one: its name says whom it removes (issue 57) */}
          {editable && (
            <Button variant="outline" size="sm" onClick={() => setConfirming('remove')}>
              Remove<span className="sr-only"> {name}</span>
            </Button>
          )}
        </div>
      )}
      {canLimit && <LimitsDialog member={member} open={confirming === 'limits'} onClose={() => setConfirming(null)} />}
      {canChooseClients && (
        <MemberClientsDialog
          member={member}
          clients={clients}
          open={confirming === 'clients'}
          onClose={() => setConfirming(null)}
        />
      )}
      <ConfirmDialog
        open={confirming === 'remove'}
        onOpenChange={(o) => !o && setConfirming(null)}
        title={`Remove ${name}?`}
        description={`Remove ${name}? They are signed out at once; what they bought stays with the organisation.`}
        confirmLabel="Remove"
        pendingLabel="Removing..."
        pending={remove.isPending}
        destructive
        onConfirm={onRemove}
      />
      <ConfirmDialog
        open={confirming === 'transfer'}
        onOpenChange={(o) => !o && setConfirming(null)}
        title={`Make ${name} the owner?`}
        description="You become an admin. Only the owner can change the billing details and transfer ownership, so you cannot take this back yourself."
        confirmLabel="Transfer ownership"
        pendingLabel="Transferring..."
        pending={transfer.isPending}
        onConfirm={onTransfer}
      />
    </li>
  );
}
