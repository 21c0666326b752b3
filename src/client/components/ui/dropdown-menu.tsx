import * as React from 'react';
import { DropdownMenu as Menu } from 'radix-ui';
import { cn } from '@/lib/utils';
import { inertOthers } from './inert-others';

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;
/** The open menu; like Radix's modal menu it hides the page behind it, and makes it inert too. */
export function DropdownMenuContent({ className, sideOffset = 4, ...props }: React.ComponentProps<typeof Menu.Content>) {
  // while the content is mounted (the menu is open): undone as it unmounts, before Radix gives
  // the focus back to the trigger
  const inertPage = React.useCallback((node: HTMLDivElement | null) => (node ? inertOthers(node) : undefined), []);
  return (
    <Menu.Portal>
      <Menu.Content
        ref={inertPage}
        sideOffset={sideOffset}
        className={cn('z-50 min-w-56 overflow-hidden rounded-md border bg-popover p-1 text-popover-foreground shadow-md', className)}
        {...props}
      />
    </Menu.Portal>
  );
}
export function DropdownMenuItem({ className, ...props }: React.ComponentProps<typeof Menu.Item>) {
  return (
    <Menu.Item
      className={cn(
        'relative flex cursor-pointer select-none items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none transition-colors focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50 [&_svg]:size-4',
        className,
      )}
      {...props}
    />
  );
}
export const DropdownMenuLabel = ({ className, ...props }: React.ComponentProps<typeof Menu.Label>) => (
  <Menu.Label className={cn('px-2 py-1.5 text-sm', className)} {...props} />
);
export const DropdownMenuSeparator = ({ className, ...props }: React.ComponentProps<typeof Menu.Separator>) => (
  <Menu.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />
);
