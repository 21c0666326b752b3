import { Bookmark } from 'lucide-react';
import type { BrandOpportunityItem } from '@shared/opportunity';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { useSaveOpportunity } from '../api/save-opportunity';

/**
 * "Save" / "Saved": the brand's shortlist. A toggle button (aria-pressed) whose name also carries
 * the outlet, so a list of cards does not read as twenty identical "Save" buttons.
 */
export function SaveButton({ opportunity: o, className }: { opportunity: BrandOpportunityItem; className?: string }) {
  const save = useSaveOpportunity();
  return (
    <Button
      type="button"
      variant={o.saved ? 'secondary' : 'outline'}
      size="sm"
      aria-pressed={o.saved}
      className={cn('relative z-10 shrink-0', className)}
      onClick={(e) => {
        e.stopPropagation();
        save.mutate({ id: o.id, saved: !o.saved, opportunity: o });
      }}
      // Escape goes on to the dialog around it (the claim dialog closes)
      onKeyDown={(e) => {
        if (e.key !== 'Escape') e.stopPropagation();
      }}
    >
      <Bookmark aria-hidden className={cn(o.saved && 'fill-current')} />
      {o.saved ? 'Saved' : 'Save'}
      <span className="sr-only"> {o.outletName}</span>
    </Button>
  );
}
