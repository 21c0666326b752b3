import * as React from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { billingDetailsSchema, COUNTRY_CODES, countryName, type BillingDetails } from '@shared/billing';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/use-toast';
import { QueryError } from '@/components/query-error';
import { ApiError, errorMessage } from '@/lib/api';
import { useBilling, useSaveBilling } from '../api/billing';

type Values = z.input<typeof billingDetailsSchema>;
type Output = z.output<typeof billingDetailsSchema>;

const FIELDS: FieldPath<Values>[] = ['legalName', 'addressLine1', 'addressLine2', 'postalCode', 'city', 'country', 'taxId', 'email'];

const formValues = (b: BillingDetails): Values => ({
  legalName: b.legalName ?? '',
  addressLine1: b.addressLine1 ?? '',
  addressLine2: b.addressLine2 ?? '',
  postalCode: b.postalCode ?? '',
  city: b.city ?? '',
  country: b.country ?? '',
  taxId: b.taxId ?? '',
  email: b.email,
});

/** Countries by their English name, as the invoice prints them. */
const COUNTRIES = COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) => a.name.localeCompare(b.name));

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
  const form = useForm<Values, unknown, Output>({ resolver: zodResolver(billingDetailsSchema), values: billing.data ? formValues(billing.data) : undefined });
  const { errors } = form.formState;

  const submit = form.handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => {
        toast({ title: 'Billing details saved', description: 'New invoices will show these details' });
        setEditing(false);
      },
      onError: (err) => {
        if (err instanceof ApiError && err.errors) {
          for (const [field, message] of Object.entries(err.errors)) {
            if ((FIELDS as string[]).includes(field)) form.setError(field as FieldPath<Values>, { message });
          }
        }
        toast({ title: 'Billing details not saved', description: errorMessage(err, 'Please try again'), variant: 'destructive' });
      },
    }),
  );

  const field = (name: FieldPath<Values>, label: string, props: React.ComponentProps<typeof Input> = {}, hint?: string) => (
    <FormField id={`billing-${name}`} label={label} error={errors[name]?.message} hint={hint}>
      <Input id={`billing-${name}`} aria-invalid={!!errors[name]} {...props} {...form.register(name)} />
    </FormField>
  );

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
          <form className="grid gap-4 sm:grid-cols-2" noValidate onSubmit={submit}>
            <div className="sm:col-span-2">{field('legalName', 'Legal name', { autoComplete: 'organization' })}</div>
            <div className="sm:col-span-2">{field('addressLine1', 'Address', { autoComplete: 'address-line1' })}</div>
            <div className="sm:col-span-2">{field('addressLine2', 'Address line 2 (optional)', { autoComplete: 'address-line2' })}</div>
            {field('postalCode', 'Postal code', { autoComplete: 'postal-code' })}
            {field('city', 'City', { autoComplete: 'address-level2' })}
            <FormField id="billing-country" label="Country" error={errors.country?.message}>
              <select
                id="billing-country"
                autoComplete="country"
                aria-invalid={!!errors.country}
                className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                {...form.register('country')}
              >
                <option value="">Choose a country</option>
                {COUNTRIES.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            </FormField>
            {field('taxId', 'Tax / VAT ID (optional)', { placeholder: 'e.g. DE123456789' }, 'EU VAT numbers start with the country code')}
            <div className="sm:col-span-2">
              {field('email', 'Billing e-mail', { type: 'email', autoComplete: 'email' }, 'Leave empty to use your account e-mail')}
            </div>
            <div className="flex justify-end gap-2 sm:col-span-2">
              <Button
                type="button"
                variant="outline"
                onClick={() => {
                  form.reset(formValues(billing.data!));
                  setEditing(false);
                }}
              >
                Cancel
              </Button>
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? 'Saving...' : 'Save billing details'}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
