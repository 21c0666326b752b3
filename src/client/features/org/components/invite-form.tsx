import * as React from 'react';
import { ORG_ROLE_DESCRIPTIONS, ORG_ROLE_LABELS } from '@shared/org';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useClients } from '@/lib/org';
import { useInvite } from '../api/org';
import { ClientsPicker } from './clients-picker';
import { RoleSelect, type InvitableRole } from './role-select';

type Errors = { email?: string; role?: string };

/** What the server said about the fields: the 400's per-field errors; a 409 (a member already) is about the address. */
function fieldErrors(err: unknown): Errors | null {
  if (!(err instanceof ApiError)) return null;
  if (err.status === 409) return { email: err.message };
  if (err.status === 400 && err.errors) return { email: err.errors.email, role: err.errors.role };
  return null;
}

/** Owner and admins: invite someone by e-mail with a role; the link goes by e-mail. */
export function InviteForm() {
  const [email, setEmail] = React.useState('');
  const [role, setRole] = React.useState<InvitableRole>('buyer');
  const [clientIds, setClientIds] = React.useState<string[]>([]);
  const clients = useClients().data ?? [];
  // owners and admins see every client: only the other roles can be limited
  const limitable = clients.length > 0 && role !== 'admin';
  const [errors, setErrors] = React.useState<Errors>({});
  const input = React.useRef<HTMLInputElement>(null);
  const invite = useInvite();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    invite.mutate(
      { email: email.trim(), role, ...(limitable && clientIds.length ? { clientIds } : {}) },
      {
        onSuccess: (sent) => {
          toast({
            title: 'Invitation sent',
            description: `${sent.email} was invited as ${ORG_ROLE_LABELS[sent.role].toLowerCase()}.`,
          });
          setEmail('');
          setClientIds([]);
        },
        onError: (err) => {
          const onFields = fieldErrors(err);
          if (onFields) {
            setErrors(onFields);
            if (onFields.email) input.current?.focus();
          } else {
            toast({
              title: 'Error',
              description: errorMessage(err, 'Failed to send the invitation'),
              variant: 'destructive',
            });
          }
        },
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Invite member</CardTitle>
        <CardDescription>
          They get a link by e-mail, valid for 7 days, to join with the role you choose.{' '}
          <span data-testid="invite-owner-note">
            Owners are not invited: an organisation has one, and the owner hands it on to a member with Transfer
            ownership.
          </span>
        </CardDescription>
      </CardHeader>
      <CardContent>
        {/* on a phone the clients come before the button; wider, the button stays level with the inputs */}
        <form
          onSubmit={submit}
          noValidate
          className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_14rem_auto] sm:items-start"
        >
          <FormField id="invite-email" label="E-mail" error={errors.email}>
            <Input
              ref={input}
              id="invite-email"
              type="email"
              autoComplete="off"
              placeholder="name@company.com"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setErrors((v) => ({ ...v, email: undefined }));
              }}
              aria-invalid={Boolean(errors.email)}
              aria-describedby={errors.email ? 'invite-email-error' : undefined}
            />
          </FormField>
          <FormField id="invite-role" label="Role" error={errors.role} hint={ORG_ROLE_DESCRIPTIONS[role]}>
            <RoleSelect
              id="invite-role"
              value={role}
              onChange={(r) => {
                setRole(r);
                setErrors((v) => ({ ...v, role: undefined }));
              }}
              className="w-full"
              aria-invalid={Boolean(errors.role)}
            />
          </FormField>
          {limitable && (
            <div className="pt-1 sm:col-span-3 sm:row-start-2">
              <ClientsPicker
                clients={clients}
                value={clientIds}
                onChange={setClientIds}
                idPrefix="invite"
                reviewer={role === 'reviewer'}
              />
            </div>
          )}
          {/* level with the inputs: below the labels' line */}
          <Button
            type="submit"
            className="sm:col-start-3 sm:row-start-1 sm:mt-5"
            disabled={!email.trim() || invite.isPending}
          >
            {invite.isPending ? 'Inviting...' : 'Invite'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
