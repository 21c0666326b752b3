import * as React from 'react';
import type { BillingDetails } from '@shared/billing';
import { countryName } from '@shared/countries';
import { BillingForm, type BillingFormOutput } from '@/components/billing-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { QueryError } from '@/components/query-error';
import { ApiError, errorMessage } from '@/lib/api';
import { useBilling, useSaveBilling } from '../api/billing';

function Summary({ b }: { b: BillingDetails }) {
  if (!b.legalName) {
    return (
      <p className="text-sm text-muted-foreground">
        Not set. Invoices show your name, brand name and e-mail until you add the company’s billing details.
      </p>
    );
  }
  const lines = [b.addressLine1, b.addressLine2, [b.postalCode, b.city].filter(Boolean).join(' '), b.country && countryName(b.country)].filter(Boolean);
  return (
    <dl className="grid gap-4 text-sm sm:grid-cols-2">
      <div className="space-y-1">
        <dt className="font-medium text-muted-foreground">Bill to</dt>
        <dd className="wrap-anywhere">
          <span className="font-medium">{b.legalName}</span>
          {lines.map((l) => (
            <span key={l} className="block">
              {l}
            </span>
          ))}
        </dd>
      </div>
      <div className="space-y-3">
        <div className="space-y-1">
          <dt className="font-medium text-muted-foreground">Tax / VAT ID</dt>
          <dd>{b.taxId || <span className="text-muted-foreground">Not set</span>}</dd>
        </div>
        <div className="space-y-1">
          <dt className="font-medium text-muted-foreground">Invoices sent to</dt>
          <dd className="wrap-anywhere">{b.email}</dd>
        </div>
      </div>
    </dl>
  );
}

/** The brand's billing details (profile → Billing): printed on every invoice issued after they are saved. */
export function BillingSection() {
  const billing = useBilling();
  const save = useSaveBilling();
  const [editing, setEditing] = React.useState(false);

  const onSave = (values: BillingFormOutput, showErrors: (errors: Record<string, string>) => void) =>
    save.mutate(values, {
      onSuccess: () => {
        toast({ title: 'Billing details saved', description: 'New invoices will show these details' });
        setEditing(false);
      },
      onError: (err) => {
        if (err instanceof ApiError && err.errors) showErrors(err.errors);
        toast({ title: 'Billing details not saved', description: errorMessage(err, 'Please try again'), variant: 'destructive' });
      },
    });

  return (
    <Card data-testid="billing-section">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1.5">
          <CardTitle className="text-lg">Billing</CardTitle>
          <CardDescription>The company, address and tax ID printed on your invoices and credit notes</CardDescription>
        </div>
        {billing.data && !editing && (
          <Button variant="outline" onClick={() => setEditing(true)}>
            {billing.data.legalName ? 'Edit billing details' : 'Add billing details'}
          </Button>
        )}
      </CardHeader>
      <CardContent>
        {billing.isError && !billing.data ? (
          <QueryError query={billing} title="Couldn't load your billing details" className="py-4" />
        ) : !billing.data ? (
          <p className="text-sm text-muted-foreground">Loading…</p>
        ) : !editing ? (
          <Summary b={billing.data} />
        ) : (
          <BillingForm initial={billing.data} pending={save.isPending} onSave={onSave} onCancel={() => setEditing(false)} />
        )}
      </CardContent>
    </Card>
  );
}
