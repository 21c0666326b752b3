import type { ComponentProps } from 'react';
import { useWatch, type Control, type FieldValues, type Path, type UseFormRegister } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { LengthCounter, usePasteCut } from '@/components/ui/length-counter';
import type { FieldDef } from './brief-fields';

/** A long answer: its text area with "n / max" under it, and a word when a paste did not fit. */
function CountedTextarea<F extends FieldValues>({
  control,
  name,
  max,
  rows,
  ...props
}: ComponentProps<typeof Textarea> & { control: Control<F>; name: Path<F>; max: number }) {
  const value: unknown = useWatch({ control, name });
  const paste = usePasteCut(max);
  const counterId = `${props.id}-count`;
  return (
    <>
      <Textarea
        rows={rows}
        {...props}
        name={name}
        onPaste={paste.onPaste}
        onInput={paste.onInput}
        aria-describedby={[props['aria-describedby'], counterId].filter(Boolean).join(' ')}
      />
      <LengthCounter id={counterId} length={typeof value === 'string' ? value.length : 0} max={max} cut={paste.cut} />
    </>
  );
}

/** One step's fields: label, control, hint and the field's message. */
export function FieldList<K extends string, F extends FieldValues>({
  idPrefix,
  namePrefix,
  fields,
  register,
  control,
  errors,
  readOnly,
}: {
  idPrefix: string;
  /** the fields live under this key of the form's values ("part1" → "part1.goal") */
  namePrefix?: string;
  fields: FieldDef<K>[];
  register: UseFormRegister<F>;
  /** the form's control: the long fields count their characters from it */
  control: Control<F>;
  errors: Partial<Record<K, { message?: string }>>;
  readOnly?: boolean;
}) {
  return (
    <div className="space-y-5">
      {fields.map((f) => {
        const id = `${idPrefix}-${f.name}`;
        const name = (namePrefix ? `${namePrefix}.${f.name}` : f.name) as Path<F>;
        const message = errors[f.name]?.message;
        // a field worded for the content bought says its own words when left empty
        const error = message && f.requiredMessage ? f.requiredMessage : message;
        const common = {
          id,
          maxLength: f.max,
          // a read-only brief shows its answers, not examples of what to write
          placeholder: readOnly ? undefined : f.placeholder,
          readOnly,
          className: readOnly ? 'bg-muted/50 focus-visible:ring-0' : undefined,
          'aria-invalid': !!error,
          'aria-required': f.required,
          'aria-describedby': error ? `${id}-error` : undefined,
          // the field names are the form's (FieldDef<K> lists them); TypeScript cannot join the prefix and K into Path<F>
          ...register(name),
        };
        return (
          <FormField
            key={f.name}
            id={id}
            label={
              <>
                {f.label}
                {f.required && (
                  <span className="ml-0.5 text-destructive" aria-hidden>
                    *
                  </span>
                )}
              </>
            }
            hint={f.hint}
            error={typeof error === 'string' ? error : undefined}
          >
            {f.short ? (
              <Input {...common} />
            ) : readOnly ? (
              <Textarea rows={f.rows ?? 3} {...common} />
            ) : (
              <CountedTextarea rows={f.rows ?? 3} {...common} control={control} max={f.max} />
            )}
          </FormField>
        );
      })}
    </div>
  );
}
