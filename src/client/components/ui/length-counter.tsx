import * as React from 'react';
import { cn } from '@/lib/utils';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * How many characters a paste into a field with `maxLength` will lose: the browser cuts a paste to
 * fit without a word, so the field says it instead (issue 20: a 20,000-character paste became 5,000).
 */
function pasteOverflow(e: React.ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>, max: number): number {
  const el = e.currentTarget;
  const pasted = e.clipboardData.getData('text').replace(/\r\n/g, '\n').length;
  const replaced = (el.selectionEnd ?? el.value.length) - (el.selectionStart ?? el.value.length);
  return Math.max(0, el.value.length - replaced + pasted - max);
}

/** A paste's cut, remembered until the field is typed in again. */
export function usePasteCut(max: number) {
  const [cut, setCut] = React.useState(0);
  const onPaste = (e: React.ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => setCut(pasteOverflow(e, max));
  const onInput = (e: React.FormEvent) => {
    // the paste itself fires an input event right after: only typing clears the notice
    if ((e.nativeEvent as InputEvent).inputType !== 'insertFromPaste') setCut(0);
  };
  return { cut, onPaste, onInput };
}

/**
 * "n / max" under a long text field, and, after a paste that did not fit, how much was left out.
 * `children` replaces the "n / max" text where the spec words the counter itself.
 */
export function LengthCounter({
  id,
  length,
  max,
  cut,
  className,
  children,
}: {
  id: string;
  length: number;
  max: number;
  cut: number;
  className?: string;
  children?: React.ReactNode;
}) {
  return (
    <div
      id={id}
      className={cn('flex flex-wrap items-start justify-between gap-x-3 text-xs', className)}
      data-testid="length-counter"
    >
      {cut > 0 ? (
        <p role="alert" className="font-medium text-amber-700" data-testid="paste-cut">
          The pasted text was cut to {count(max)} characters: the last {count(cut)} were left out.
        </p>
      ) : (
        <span />
      )}
      <p
        className={cn('ml-auto tabular-nums', length >= max ? 'font-medium text-amber-700' : 'text-muted-foreground')}
        aria-live="polite"
      >
        {children ?? `${count(length)} / ${count(max)}`}
      </p>
    </div>
  );
}
