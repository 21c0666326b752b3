import * as React from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

/**
 * A number or date the filter panel commits when the brand leaves the field or presses Enter (one
 * history entry per value, not per digit). `validate` returns a message for a value the search
 * cannot take; the field then keeps the text and says why.
 */
export function CommitField({
  id,
  label,
  value,
  onCommit,
  validate,
  type = 'number',
  ...input
}: {
  id: string;
  label: string;
  value: string | undefined;
  onCommit: (v: string | undefined) => void;
  validate: (v: string) => string | null;
  type?: 'number' | 'date';
} & Pick<React.InputHTMLAttributes<HTMLInputElement>, 'min' | 'max' | 'step' | 'placeholder' | 'inputMode'>) {
  const [draft, setDraft] = React.useState(value ?? '');
  const [shown, setShown] = React.useState(value);
  const [error, setError] = React.useState<string | null>(null);
  if (value !== shown) {
    setShown(value);
    setDraft(value ?? '');
    setError(null);
  }
  const commit = (text: string) => {
    const v = text.trim();
    if (v === (value ?? '')) return setError(null);
    const problem = v ? validate(v) : null;
    setError(problem);
    if (!problem) onCommit(v || undefined);
  };
  return (
    <div className="min-w-0 space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type={type}
        value={draft}
        aria-invalid={error ? true : undefined}
        // a date field's own parts are wide: it keeps to its column on a phone
        className={type === 'date' ? 'px-2' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          // a date picker's choice is a whole value: take it at once
          if (type === 'date') commit(e.target.value);
        }}
        onBlur={(e) => commit(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit(e.currentTarget.value);
          }
        }}
        {...input}
      />
      {error && (
        <p id={`${id}-error`} className="text-xs text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** A set of on/off chips (topics, link types): each a toggle button. */
export function ChipGroup<T extends string>({
  legend,
  options,
  label,
  selected,
  onChange,
}: {
  legend: string;
  options: readonly T[];
  label: (v: T) => string;
  selected: readonly T[];
  onChange: (next: T[]) => void;
}) {
  return (
    <fieldset className="min-w-0 space-y-1.5">
      <legend className="mb-1.5 text-sm font-medium leading-none">{legend}</legend>
      <div className="flex flex-wrap gap-1.5">
        {options.map((v) => {
          const on = selected.includes(v);
          return (
            <button
              key={v}
              type="button"
              aria-pressed={on}
              onClick={() => onChange(on ? selected.filter((s) => s !== v) : [...selected, v])}
              className={cn(
                'cursor-pointer rounded-full border px-2.5 py-1 text-xs font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                on ? 'border-primary bg-primary text-primary-foreground' : 'bg-card text-foreground hover:bg-accent',
              )}
            >
              {label(v)}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

/** A native select (a long list such as countries stays fast and works with any keyboard or screen reader). */
export function SelectField({
  id,
  label,
  value,
  onChange,
  children,
  className,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('min-w-0 space-y-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </NativeSelect>
    </div>
  );
}

export function NativeSelect({ className, ...props }: React.SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn(
        'h-9 w-full min-w-0 cursor-pointer rounded-md border border-input bg-card px-2 text-base shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:text-sm',
        className,
      )}
      {...props}
    />
  );
}
