import * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * A styled native `<select>`: the phone's own picker on touch screens, typing a letter to jump in
 * long lists (countries, languages), and a ref for react-hook-form's `register`.
 */
export const NativeSelect = React.forwardRef<HTMLSelectElement, React.SelectHTMLAttributes<HTMLSelectElement>>(({ className, ...props }, ref) => (
  <select
    ref={ref}
    className={cn(
      'h-9 w-full min-w-0 rounded-md border border-input bg-card px-3 text-base shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-destructive md:text-sm',
      className,
    )}
    {...props}
  />
));
NativeSelect.displayName = 'NativeSelect';
