import { useForm, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { billingDetailsSchema, type BillingDetails } from '@shared/billing';
import { COUNTRY_OPTIONS } from '@shared/countries';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';

type Values = z.input<typeof billingDetailsSchema>;
export type BillingFormOutput = z.output<typeof billingDetailsSchema>;

const FIELDS: FieldPath<Values>[] = [
  'legalName',
  'addressLine1',
  'addressLine2',
  'postalCode',
  'city',
  'country',
  'taxId',
  'email',
];

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

/**
 * The billing details' form (the organisation's in the profile, a client's on the Clients page):
 * the shared schema's checks and messages; `onSave` gets the values and a way to show the server's
 * refusal of each field.
 */
export function BillingForm({
  initial,
  pending,
  idPrefix = 'billing',
  emailHint = 'Leave empty to use your account e-mail',
  onSave,
  onCancel,
}: {
  initial: BillingDetails;
  pending: boolean;
  idPrefix?: string;
  emailHint?: string;
  onSave: (values: BillingFormOutput, showErrors: (errors: Record<string, string>) => void) => void;
  onCancel: () => void;
}) {
  const form = useForm<Values, unknown, BillingFormOutput>({
    resolver: zodResolver(billingDetailsSchema),
    values: formValues(initial),
  });
  const { errors } = form.formState;
  const showErrors = (fieldErrors: Record<string, string>) => {
    for (const [field, message] of Object.entries(fieldErrors)) {
      if ((FIELDS as string[]).includes(field)) form.setError(field as FieldPath<Values>, { message });
    }
  };
  const field = (
    name: FieldPath<Values>,
    label: string,
    props: React.ComponentProps<typeof Input> = {},
    hint?: string,
  ) => (
    <FormField id={`${idPrefix}-${name}`} label={label} error={errors[name]?.message} hint={hint}>
      <Input id={`${idPrefix}-${name}`} aria-invalid={!!errors[name]} {...props} {...form.register(name)} />
    </FormField>
  );
  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      noValidate
      onSubmit={form.handleSubmit((values) => onSave(values, showErrors))}
    >
      <div className="sm:col-span-2">{field('legalName', 'Legal name', { autoComplete: 'organization' })}</div>
      <div className="sm:col-span-2">{field('addressLine1', 'Address', { autoComplete: 'address-line1' })}</div>
      <div className="sm:col-span-2">
        {field('addressLine2', 'Address line 2 (optional)', { autoComplete: 'address-line2' })}
      </div>
      {field('postalCode', 'Postal code', { autoComplete: 'postal-code' })}
      {field('city', 'City', { autoComplete: 'address-level2' })}
      <FormField id={`${idPrefix}-country`} label="Country" error={errors.country?.message}>
        <select
          id={`${idPrefix}-country`}
          autoComplete="country"
          aria-invalid={!!errors.country}
          className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          {...form.register('country')}
        >
          <option value="">Choose a country</option>
          {COUNTRY_OPTIONS.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      </FormField>
      {field(
        'taxId',
        'Tax / VAT ID (optional)',
        { placeholder: 'e.g. DE123456789' },
        'EU VAT numbers start with the country code',
      )}
      <div className="sm:col-span-2">
        {field('email', 'Billing e-mail', { type: 'email', autoComplete: 'email' }, emailHint)}
      </div>
      <div className="flex justify-end gap-2 sm:col-span-2">
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            form.reset(formValues(initial));
            onCancel();
          }}
        >
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving...' : 'Save billing details'}
        </Button>
      </div>
    </form>
  );
}
