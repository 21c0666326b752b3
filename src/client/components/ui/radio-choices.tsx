import { cn } from '@/lib/utils';

export interface RadioChoice<T extends string> {
  value: T;
  label: string;
  /** a line under the label: what the choice does */
  hint?: string;
}

/** A few exclusive choices as native radio buttons under a legend (a refund in full or in part, an answer). */
export function RadioChoices<T extends string>({
  name,
  legend,
  value,
  onChange,
  choices,
  disabled,
  className,
}: {
  name: string;
  legend: string;
  value: T;
  onChange: (value: T) => void;
  choices: readonly RadioChoice<T>[];
  disabled?: boolean;
  className?: string;
}) {
  return (
    <fieldset className={cn('min-w-0 space-y-2', className)} disabled={disabled}>
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      {choices.map((c) => (
        <label
          key={c.value}
          className="flex cursor-pointer items-start gap-2.5 rounded-md border p-2.5 text-sm has-checked:border-primary has-checked:bg-primary/5"
        >
          <input
            type="radio"
            name={name}
            value={c.value}
            className="mt-0.5 size-4 shrink-0 accent-primary"
            checked={value === c.value}
            onChange={() => onChange(c.value)}
          />
          <span className="min-w-0">
            <span className="block font-medium">{c.label}</span>
            {c.hint && <span className="block text-muted-foreground">{c.hint}</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
