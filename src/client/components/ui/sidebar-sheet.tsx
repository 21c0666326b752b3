import type * as React from 'react';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from './sheet';

/** The sidebar on a phone: a sheet from the left. Loaded by ./sidebar the first time it opens. */
export default function SidebarSheet({
  open,
  onOpenChange,
  width,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  width: string;
  children: React.ReactNode;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent side="left" className="p-0 text-sidebar-foreground" style={{ width }} data-testid="sidebar-mobile">
        <SheetTitle className="sr-only">Navigation</SheetTitle>
        <SheetDescription className="sr-only">Main navigation</SheetDescription>
        <div className="flex h-full flex-col" data-collapsed="false">
          {children}
        </div>
      </SheetContent>
    </Sheet>
  );
}
