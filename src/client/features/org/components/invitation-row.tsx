import { format } from 'date-fns';
import type { OrgInvitation } from '@shared/schemas/org';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useResendInvitation, useRevokeInvitation } from '../api/org';
import { RoleBadge } from './role-badge';

/** An open invitation: resending sends a new link (the old one stops working); revoking ends it. */
export function InvitationRow({ invitation }: { invitation: OrgInvitation }) {
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const onResend = () =>
    resend.mutate(invitation.id, {
      onSuccess: () => toast({ title: 'Invitation resent', description: `A new link was sent to ${invitation.email}.` }),
      onError: (err) => toast({ title: 'Error', description: errorMessage(err, 'Failed to resend the invitation'), variant: 'destructive' }),
    });
  const onRevoke = () =>
    revoke.mutate(invitation.id, {
      onSuccess: () => toast({ title: 'Invitation revoked', description: `The link sent to ${invitation.email} no longer works.` }),
      onError: (err) => toast({ title: 'Error', description: errorMessage(err, 'Failed to revoke the invitation'), variant: 'destructive' }),
    });
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" data-testid="invitation-row">
      <div className="min-w-0 space-y-0.5">
        <div className="flex flex-wrap items-center gap-2">
          <p className="min-w-0 font-medium wrap-anywhere">{invitation.email}</p>
          <RoleBadge role={invitation.role} />
          {invitation.expired && <Badge variant="destructive">Expired</Badge>}
        </div>
        <p className="text-xs text-muted-foreground">
          {invitation.expired ? 'Expired' : 'Expires'} {format(new Date(invitation.expiresAt), 'MMM d, yyyy')}
        </p>
      </div>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" onClick={onResend} disabled={resend.isPending || revoke.isPending}>
          {resend.isPending ? 'Resending...' : 'Resend'}
          <span className="sr-only"> the invitation to {invitation.email}</span>
        </Button>
        <Button variant="outline" size="sm" onClick={onRevoke} disabled={resend.isPending || revoke.isPending}>
          {revoke.isPending ? 'Revoking...' : 'Revoke'}
          <span className="sr-only"> the invitation to {invitation.email}</span>
        </Button>
      </div>
    </li>
  );
}
