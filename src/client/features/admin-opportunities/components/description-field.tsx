import { useWatch, type UseFormRegisterReturn, type UseFormReturn } from 'react-hook-form';
import { DESCRIPTION_MAX, type OpportunityFormValues, type OpportunityRequest } from '@shared/schemas/opportunity';
import { Textarea } from '@/components/ui/input';
import { LengthCounter, usePasteCut } from '@/components/ui/length-counter';

/** The opportunity's description, with "n / 5,000" under it and a word when a paste did not fit. */
export function DescriptionField({
  form,
  field,
}: {
  form: UseFormReturn<OpportunityFormValues, unknown, OpportunityRequest>;
  field: UseFormRegisterReturn & { id: string; 'aria-describedby'?: string };
}) {
  const value = useWatch({ control: form.control, name: 'description' });
  const paste = usePasteCut(DESCRIPTION_MAX);
  return (
    <>
      <Textarea
        rows={5}
        placeholder="What the article covers, where it appears, what the brand can expect."
        maxLength={DESCRIPTION_MAX}
        {...field}
        onPaste={paste.onPaste}
        onInput={paste.onInput}
        aria-describedby={[field['aria-describedby'], 'description-count'].filter(Boolean).join(' ')}
      />
      <LengthCounter id="description-count" length={value?.length ?? 0} max={DESCRIPTION_MAX} cut={paste.cut} />
    </>
  );
}
