import { Controller, type UseFormReturn } from 'react-hook-form';
import { COUNTRY_OPTIONS } from '@shared/countries';
import { LANGUAGES, LINK_TYPES, LINK_TYPE_LABELS, TOPICS, TOPIC_LABELS } from '@shared/catalogue';
import type { OpportunityFormValues, OpportunityRequest } from '@shared/schemas/opportunity';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { NativeSelect } from './native-select';

/** Code → name lists in the order a reader looks for them: by name. */
const byName = (names: Record<string, string>) => Object.entries(names).sort(([, a], [, b]) => a.localeCompare(b, 'en'));
const LANGUAGE_OPTIONS = byName(LANGUAGES);
const NOT_SPECIFIED = 'Not specified';

type Form = UseFormReturn<OpportunityFormValues, unknown, OpportunityRequest>;

/**
 * What brands filter the catalogue by besides the spec's fields: the link the outlet gives (the
 * publication check compares the live link with it), the outlet's country and language, and its
 * topics. All optional.
 */
export function CatalogueFields({ form }: { form: Form }) {
  const { errors } = form.formState;
  const select = (id: 'linkType' | 'country' | 'language') => ({
    id,
    'aria-invalid': !!errors[id],
    'aria-describedby': errors[id] ? `${id}-error` : undefined,
    ...form.register(id),
  });
  // a bad topic is reported on its place in the list ("topics.1"), a bad list on the list
  const topicsError = errors.topics?.message ?? (Array.isArray(errors.topics) ? errors.topics.find((e) => e?.message)?.message : undefined);

  return (
    <>
      <div className="grid gap-5 sm:grid-cols-3">
        <FormField id="linkType" label="Link type" error={errors.linkType?.message} hint="The live link is checked against it">
          <NativeSelect {...select('linkType')}>
            <option value="">{NOT_SPECIFIED}</option>
            {LINK_TYPES.map((t) => (
              <option key={t} value={t}>
                {LINK_TYPE_LABELS[t]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id="country" label="Country" error={errors.country?.message}>
          <NativeSelect {...select('country')}>
            <option value="">{NOT_SPECIFIED}</option>
            {COUNTRY_OPTIONS.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id="language" label="Language" error={errors.language?.message}>
          <NativeSelect {...select('language')}>
            <option value="">{NOT_SPECIFIED}</option>
            {LANGUAGE_OPTIONS.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>
      <fieldset className="space-y-2" aria-invalid={!!topicsError} aria-describedby={topicsError ? 'topics-error' : undefined}>
        <legend className="text-sm font-medium">Topics</legend>
        <Controller
          control={form.control}
          name="topics"
          render={({ field }) => (
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
              {TOPICS.map((t, i) => (
                <div key={t} className="flex min-w-0 items-center gap-2 rounded-md border px-3 py-1.5 sm:py-2">
                  <Checkbox
                    id={`topic-${t}`}
                    ref={i === 0 ? field.ref : undefined}
                    checked={field.value.includes(t)}
                    onBlur={field.onBlur}
                    onCheckedChange={(c) => field.onChange(c === true ? [...field.value, t] : field.value.filter((x) => x !== t))}
                  />
                  <Label htmlFor={`topic-${t}`} className="min-w-0 cursor-pointer truncate">
                    {TOPIC_LABELS[t]}
                  </Label>
                </div>
              ))}
            </div>
          )}
        />
        {topicsError && (
          <p id="topics-error" role="alert" className="text-sm font-medium text-destructive">
            {topicsError}
          </p>
        )}
      </fieldset>
    </>
  );
}
