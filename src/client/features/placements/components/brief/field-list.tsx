import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import type { FieldDef } from './brief-fields';

/** One step's fields: label, control, hint and the field's message. */
export function FieldList<K extends string, F extends FieldValues>({
  idPrefix,
  namePrefix,
  fields,
  register,
  errors,
  readOnly,
}: {
  idPrefix: string;
  /** the fields live under this key of the form's values ("part1" → "part1.goal") */
  namePrefix?: string;
  fields: FieldDef<K>[];
  register: UseFormRegister<F>;
  errors: Partial<Record<K, { message?: string }>>;
  readOnly?: boolean;
}) {
  return (
    <div className="space-y-5">
      {fields.map((f) => {
        const id = `${idPrefix}-${f.name}`;
        const error = errors[f.name]?.message;
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
          ...register((namePrefix ? `${namePrefix}.${f.name}` : f.name) as Path<F>),
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
            {f.short ? <Input {...common} /> : <Textarea rows={f.rows ?? 3} {...common} />}
          </FormField>
        );
      })}
    </div>
  );
}
