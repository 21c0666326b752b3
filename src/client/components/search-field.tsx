import * as React from 'react';
import { Search, X } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { SEARCH_TEXT_MAX } from '@shared/constants';
import { cn } from '@/lib/utils';

/**
 * Every search box of the portal (the brands' catalogue, the admins' lists and catalogue): a
 * labelled `type="search"` input in a search landmark, with its own clear button (the browser's
 * differs between engines and is hidden); Enter applies the words at once and Escape clears them.
 * When the words reach the URL and the list is for the caller to say.
 */
export function SearchField({
  id,
  label,
  showLabel = false,
  placeholder,
  value,
  onChange,
  onSubmit,
  onClear,
  onBlur,
  className,
  inputClassName,
}: {
  id: string;
  label: string;
  /** the label above the box (else it is for screen readers only) */
  showLabel?: boolean;
  placeholder: string;
  value: string;
  onChange: (text: string) => void;
  onSubmit: () => void;
  onClear: () => void;
  onBlur?: () => void;
  className?: string;
  inputClassName?: string;
}) {
  const input = React.useRef<HTMLInputElement>(null);
  return (
    <form
      role="search"
      className={cn(showLabel && 'space-y-1.5', className)}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <Label htmlFor={id} className={showLabel ? undefined : 'sr-only'}>
        {label}
      </Label>
      <div className="relative">
        <Search className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input
          ref={input}
          id={id}
          type="search"
          value={value}
          placeholder={placeholder}
          maxLength={SEARCH_TEXT_MAX}
          autoComplete="off"
          spellCheck={false}
          className={cn('pl-8 pr-9 [&::-webkit-search-cancel-button]:appearance-none', inputClassName)}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && value) {
              e.preventDefault();
              onClear();
            }
          }}
        />
        {value && (
          <button
            type="button"
            aria-label="Clear search"
            className="absolute right-1 top-1/2 inline-flex size-7 -translate-y-1/2 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            // keeps the focus in the box: the click neither blurs it nor leaves the focus on a button that goes away
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => {
              onClear();
              input.current?.focus();
            }}
          >
            <X className="size-4" aria-hidden />
          </button>
        )}
      </div>
    </form>
  );
}
