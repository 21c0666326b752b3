import { format } from 'date-fns';
import { Link } from 'wouter';
import { Clock } from 'lucide-react';
import type { AdminPlacementItem } from '@shared/schemas/brief';

/** On a Projects card: the brand's cancellation awaiting an answer (issue 47), with the way to answer it. */
export function CancellationNote({ item }: { item: AdminPlacementItem }) {
  const c = item.cancellation;
  if (c?.status !== 'requested') return null;
  return (
    <p
      className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
      data-testid="cancellation-note"
    >
      <Clock className="size-4 shrink-0" aria-hidden />
      <span>
        <span className="font-medium">Cancellation requested</span> · answer by{' '}
        {format(new Date(c.respondBy), 'MMM d, yyyy')}
      </span>
      <Link
        href={`/admin/projects/${item.payment.id}`}
        className="font-medium text-primary underline-offset-4 hover:underline"
      >
        Answer it
      </Link>
    </p>
  );
}
