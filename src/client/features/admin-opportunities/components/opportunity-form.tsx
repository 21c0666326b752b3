import * as React from 'react';
import { Controller, useForm, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useIsMutating } from '@tanstack/react-query';
import { Link } from 'wouter';
import { OPPORTUNITY_TYPES, OPPORTUNITY_TYPE_LABELS } from '@shared/opportunity';
import {
  emptyOpportunityForm,
  localToday,
  opportunityFormSchemaFor,
  type OpportunityFormValues,
  type OpportunityRequest,
} from '@shared/schemas/opportunity';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ApiError } from '@/lib/api';
import { uploadImageKey } from '../api/upload-image';
import { CatalogueFields } from './catalogue-fields';
import { DescriptionField } from './description-field';
import { ExamplesField } from './examples-field';
import { LogoField } from './logo-field';

const Required = () => (
  <span aria-hidden className="text-destructive">
    {' *'}
  </span>
);

const FIELDS = Object.keys(emptyOpportunityForm);

/** Puts the server's `errors` ({"title": "...", "exampleUrls.1": "..."}) on the matching fields. */
function serverFieldErrors(err: unknown): [FieldPath<OpportunityFormValues>, string][] {
  if (!(err instanceof ApiError) || !err.errors) return [];
  return Object.entries(err.errors)
    .filter(([key]) => FIELDS.includes(key.split('.')[0]))
    .map(([key, message]) => [key as FieldPath<OpportunityFormValues>, message]);
}

function Section({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader className="p-4 pb-3 sm:p-6 sm:pb-4">
        <CardTitle className="text-base">{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="space-y-5 p-4 pt-0 sm:p-6 sm:pt-0">{children}</CardContent>
    </Card>
  );
}

/**
 * The create and edit form. `onSubmit` gets the normalised request; when it throws an ApiError
 * with field errors, they appear under the fields (the page shows the toast).
 */
export function OpportunityForm({
  defaultValues = emptyOpportunityForm,
  keepDeadline = null,
  submitLabel,
  pendingLabel,
  onSubmit,
}: {
  defaultValues?: OpportunityFormValues;
  /** The stored deadline of the opportunity being edited ("YYYY-MM-DD"): kept even once past. */
  keepDeadline?: string | null;
  submitLabel: string;
  pendingLabel: string;
  /** the normalised request, and the form's values as typed (what a page merges on a 409) */
  onSubmit: (values: OpportunityRequest, typed: OpportunityFormValues) => Promise<unknown>;
}) {
  const form = useForm<OpportunityFormValues, unknown, OpportunityRequest>({
    // the schema depends only on the stored deadline; build it once per form
    // eslint-disable-next-line react-hooks/exhaustive-deps
    resolver: React.useMemo(() => zodResolver(opportunityFormSchemaFor(keepDeadline)), []),
    defaultValues,
  });
  const { errors, isSubmitting } = form.formState;
  const uploading = useIsMutating({ mutationKey: uploadImageKey }) > 0;
  const today = React.useMemo(() => localToday(), []);

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values, form.getValues());
    } catch (err) {
      for (const [field, message] of serverFieldErrors(err)) form.setError(field, { message });
    }
  });

  const text = (id: keyof OpportunityFormValues) => ({
    id,
    'aria-invalid': !!errors[id],
    'aria-describedby': errors[id] ? `${id}-error` : undefined,
    ...form.register(id),
  });

  const exampleErrors = Array.isArray(errors.exampleUrls) ? errors.exampleUrls.map((e) => e?.message) : undefined;

  return (
    <form className="space-y-6" noValidate onSubmit={submit} aria-label="Opportunity">
      <Section title="Outlet" description="The publication where the article appears.">
        <div className="grid gap-5 md:grid-cols-2">
          <FormField
            id="outletName"
            label={
              <>
                Outlet Name
                <Required />
              </>
            }
            error={errors.outletName?.message}
          >
            <Input placeholder="e.g. TechCrunch" {...text('outletName')} />
          </FormField>
          <FormField id="outletUrl" label="Outlet URL" error={errors.outletUrl?.message}>
            <Input type="url" inputMode="url" placeholder="https://techcrunch.com" {...text('outletUrl')} />
          </FormField>
        </div>
        <FormField id="logoUrl" label="Logo" error={errors.logoUrl?.message} hint="Upload a JPEG, PNG, GIF, WEBP or SVG image (at most 5MB) or paste its URL.">
          <Controller
            control={form.control}
            name="logoUrl"
            render={({ field }) => (
              <LogoField
                id="logoUrl"
                value={field.value}
                onChange={(v) => form.setValue('logoUrl', v, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
                onBlur={field.onBlur}
                invalid={!!errors.logoUrl}
              />
            )}
          />
        </FormField>
      </Section>

      <Section title="Placement" description="What the brand gets.">
        <FormField
          id="title"
          label={
            <>
              Title
              <Required />
            </>
          }
          error={errors.title?.message}
        >
          <Input placeholder="e.g. Founder profile in the weekend edition" {...text('title')} />
        </FormField>
        <FormField
          id="description"
          label={
            <>
              Description
              <Required />
            </>
          }
          error={errors.description?.message}
        >
          <DescriptionField form={form} field={text('description')} />
        </FormField>
        <fieldset className="space-y-2" aria-invalid={!!errors.type} aria-describedby={errors.type ? 'type-error' : undefined}>
          <legend className="text-sm font-medium">
            Type
            <Required />
          </legend>
          <Controller
            control={form.control}
            name="type"
            render={({ field }) => (
              <div className="grid gap-2 sm:grid-cols-2">
                {OPPORTUNITY_TYPES.map((t, i) => (
                  <div key={t} className="flex items-center gap-2 rounded-md border px-3 py-2">
                    <Checkbox
                      id={`type-${t}`}
                      ref={i === 0 ? field.ref : undefined}
                      checked={field.value.includes(t)}
                      onBlur={field.onBlur}
                      onCheckedChange={(c) => field.onChange(c === true ? [...field.value, t] : field.value.filter((x) => x !== t))}
                    />
                    <Label htmlFor={`type-${t}`} className="cursor-pointer">
                      {OPPORTUNITY_TYPE_LABELS[t]}
                    </Label>
                  </div>
                ))}
              </div>
            )}
          />
          {errors.type && (
            <p id="type-error" role="alert" className="text-sm font-medium text-destructive">
              {errors.type.message}
            </p>
          )}
        </fieldset>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id="tat" label="Turnaround Time" error={errors.tat?.message} hint="How long until the article is published">
            <Input placeholder="e.g. 2-3 weeks" {...text('tat')} />
          </FormField>
          <FormField id="tatDays" label="Turnaround days" error={errors.tatDays?.message} hint="The same in days, 1-365: what brands filter by">
            <Input type="number" inputMode="numeric" step="1" min="1" max="365" placeholder="e.g. 21" {...text('tatDays')} />
          </FormField>
        </div>
      </Section>

      <Section title="Catalogue details" description="What brands filter the catalogue by. All optional.">
        <CatalogueFields form={form} />
      </Section>

      <Section title="Price and availability">
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField
            id="priceUsd"
            label={
              <>
                Price (USD)
                <Required />
              </>
            }
            error={errors.priceUsd?.message}
          >
            <Input type="number" inputMode="decimal" step="0.01" min="0.01" placeholder="0.00" {...text('priceUsd')} />
          </FormField>
          <FormField
            id="maxSlots"
            label={
              <>
                Max Slots
                <Required />
              </>
            }
            error={errors.maxSlots?.message}
          >
            <Input type="number" inputMode="numeric" step="1" min="1" {...text('maxSlots')} />
          </FormField>
          <FormField id="domainAuthority" label="Domain Authority" error={errors.domainAuthority?.message} hint="1-100, leave empty if unknown">
            <Input type="number" inputMode="numeric" step="1" min="1" max="100" {...text('domainAuthority')} />
          </FormField>
          <FormField id="deadlineDate" label="Deadline" error={errors.deadlineDate?.message} hint="Last date to purchase; leave empty for none">
            <Input type="date" min={keepDeadline && keepDeadline < today ? keepDeadline : today} {...text('deadlineDate')} />
          </FormField>
        </div>
      </Section>

      <Section title="Examples" description="Up to 3 previously published articles: a link or a screenshot.">
        <Controller
          control={form.control}
          name="exampleUrls"
          render={({ field }) => (
            <ExamplesField
              value={field.value}
              onChange={(v) => form.setValue('exampleUrls', v, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
              errors={exampleErrors}
            />
          )}
        />
        {errors.exampleUrls?.message && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {errors.exampleUrls.message}
          </p>
        )}
      </Section>

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button asChild variant="outline">
          <Link href="/admin">Cancel</Link>
        </Button>
        <Button type="submit" disabled={isSubmitting || uploading}>
          {isSubmitting ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
