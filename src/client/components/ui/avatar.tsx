import * as React from 'react';
import { Avatar as AvatarPrimitive } from 'radix-ui';
import { initials } from '@shared/user';
import { cn } from '@/lib/utils';

/** The user's picture, or the initials of the name ("U" without one). */
export function UserAvatar({ name, src, className }: { name: string | null | undefined; src?: string | null; className?: string }) {
  return (
    <AvatarPrimitive.Root className={cn('relative flex size-8 shrink-0 overflow-hidden rounded-full', className)}>
      {src && <AvatarPrimitive.Image src={src} alt={name ?? 'Avatar'} className="aspect-square size-full object-cover" />}
      <AvatarPrimitive.Fallback
        delayMs={src ? 300 : 0}
        className="flex size-full items-center justify-center rounded-full bg-primary/10 font-semibold text-primary"
      >
        {initials(name)}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
