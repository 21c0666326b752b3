import * as React from 'react';
import { Building2, Plus } from 'lucide-react';
import { formatUsd } from '@shared/money';
import { roleCan } from '@shared/org';
import type { OrgClient } from '@shared/schemas/org';
import { BillingForm, type BillingFormOutput } from '@/components/billing-form';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useClients, useOrg } from '@/lib/org';
import { useAddClient, useClientBilling, useSaveClientBilling } from '../api/org';
import { EditClientDialog } from '../components/edit-client-dialog';
import { hostOf } from '@/components/publication/check-result';

/** Adds a client by name. */
function AddClient() {
  const [name, setName] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();
  const add = useAddClient();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(undefined);
    add.mutate(name, {
      onSuccess: (client) => {
        toast({ title: 'Client added', description: `${client.name} was added.` });
        setName('');
      },
      onError: (err) => setError(errorMessage(err, 'Failed to add the client')),
    });
  };
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle className="text-base">Add a client</CardTitle>
        <CardDescription>Buy placements for it, send its invoices to it, and limit members to it.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <FormField id="client-name" label="Client name" error={error} className="flex-1">
            <Input
              id="client-name"
              value={name}
              autoComplete="off"
              onChange={(e) => {
                setName(e.target.value);
                setError(undefined);
              }}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? 'client-name-error' : undefined}
            />
          </FormField>
          <Button type="submit" className="sm:mt-7" disabled={add.isPending}>
            <Plus /> {add.isPending ? 'Adding...' : 'Add client'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** A client's billing details: what its invoices and credit notes are addressed to. */
function ClientBillingDialog({ client, open, onClose }: { client: OrgClient; open: boolean; onClose: () => void }) {
  const billing = useClientBilling(client.id, open);
  const save = useSaveClientBilling(client.id);
  const onSave = (values: BillingFormOutput, showErrors: (errors: Record<string, string>) => void) =>
    save.mutate(values, {
      onSuccess: () => {
        toast({
          title: 'Billing details saved',
          description: `New invoices for ${client.name} will show these details`,
        });
        onClose();
      },
      onError: (err) => {
        if (err instanceof ApiError && err.errors) showErrors(err.errors);
        toast({
          title: 'Billing details not saved',
          description: errorMessage(err, 'Please try again'),
          variant: 'destructive',
        });
      },
    });
  return (
    <Dialog open={open} onOpenChange={(o) => !o && !save.isPending && onClose()}>
      <DialogContent className="max-h-[90dvh] max-w-xl overflow-y-auto" data-testid="client-billing-dialog">
        <DialogHeader>
          <DialogTitle>Billing details of {client.name}</DialogTitle>
          <DialogDescription>
            Invoices and credit notes of placements bought for {client.name} are addressed to these details.
          </DialogDescription>
        </DialogHeader>
        {billing.isError ? (
          <QueryError query={billing} title="Couldn't load the billing details" />
        ) : !billing.data ? (
          <PageSpinner />
        ) : (
          <BillingForm
            initial={billing.data}
            pending={save.isPending}
            idPrefix="client-billing"
            emailHint="Leave empty to use your own e-mail"
            onSave={onSave}
            onCancel={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function ClientRow({ client, manage }: { client: OrgClient; manage: boolean }) {
  const [editing, setEditing] = React.useState(false);
  const [billing, setBilling] = React.useState(false);
  return (
    <li
      className="flex flex-col gap-3 px-6 py-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid="client-row"
    >
      <div className="min-w-0 space-y-1">
        <p className="font-medium wrap-anywhere">{client.name}</p>
        <p className="text-sm text-muted-foreground">
          {formatUsd(client.spentUsd)} spent this month
          {client.monthlyCapUsd ? ` of ${formatUsd(client.monthlyCapUsd)}` : ' · no cap'}
        </p>
        <p className="text-sm text-muted-foreground wrap-anywhere" data-testid="client-websites">
          {client.websites.length
            ? `Articles must link to ${client.websites.map((w) => hostOf(w) ?? w).join(', ')}`
            : 'No website: articles must link to your organisation’s website'}
        </p>
        <Badge variant={client.hasBilling ? 'secondary' : 'outline'}>
          {client.hasBilling ? 'Own billing details' : 'No billing details'}
        </Badge>
      </div>
      {manage && (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            Edit
          </Button>
          <Button variant="outline" size="sm" onClick={() => setBilling(true)}>
            Billing details
          </Button>
        </div>
      )}
      <EditClientDialog client={client} open={editing} onClose={() => setEditing(false)} />
      <ClientBillingDialog client={client} open={billing} onClose={() => setBilling(false)} />
    </li>
  );
}

/** An agency's clients (decision 035): each with its spend, cap and billing details. */
export function ClientsPage() {
  const org = useOrg();
  const clients = useClients();
  const manage = roleCan(org.data?.role, 'manage');
  const list = clients.data ?? [];
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Clients</h1>
        <p className="text-muted-foreground">
          Placements bought for a client are invoiced to it and shown in its own view of My Articles and Payments.
        </p>
      </div>
      {clients.isLoading ? (
        <PageSpinner />
      ) : clients.isError ? (
        <QueryError query={clients} title="Couldn't load the clients" />
      ) : (
        <>
          {manage && <AddClient />}
          {list.length === 0 ? (
            <EmptyState
              icon={<Building2 />}
              title="No clients yet"
              description="Add the companies you buy placements for."
            />
          ) : (
            <Card>
              <CardHeader className="pb-2">
                <CardTitle className="text-base">
                  {list.length} {list.length === 1 ? 'client' : 'clients'}
                </CardTitle>
              </CardHeader>
              <ul className="divide-y">
                {list.map((c) => (
                  <ClientRow key={c.id} client={c} manage={manage} />
                ))}
              </ul>
            </Card>
          )}
        </>
      )}
    </div>
  );
}
