import * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * One part of a page of parts (a placement's Brief, Draft, Publication, Money; an outlet's Metrics
 * and Record): a card with its h2 (the Timeline and Messages cards beside it read the same), what
 * can be done at its right, a line saying what it holds under it, then its body.
 */
export function PageSection({
  title,
  icon,
  actions,
  description,
  children,
  testId,
  className,
}: {
  title: string;
  icon: React.ReactNode;
  actions?: React.ReactNode;
  description?: string;
  children: React.ReactNode;
  testId: string;
  className?: string;
}) {
  return (
    // a card (components/ui/card.tsx's look) under its h2; not a named region: the panels inside
    // (the draft, the live article) are regions of their own, named as on the cards
    <section
      className={cn('min-w-0 space-y-4 rounded-xl border bg-card p-4 text-card-foreground shadow-sm', className)}
      data-testid={testId}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="flex items-center gap-2 text-sm font-semibold [&_svg]:size-4 [&_svg]:text-muted-foreground">
          <span aria-hidden className="contents">
            {icon}
          </span>
          {title}
        </h2>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        {description && <p className="w-full text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  );
}

/** A short line of what a section has nothing of yet, and why. */
export function Note({ children, testId }: { children: React.ReactNode; testId?: string }) {
  return (
    <p className="text-sm text-muted-foreground" data-testid={testId}>
      {children}
    </p>
  );
}
