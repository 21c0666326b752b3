import type { Revisions } from '@shared/schemas/fair-terms';
import { Badge } from '@/components/ui/badge';

/**
 * Where the edit rounds stand (issue 47): "Revision n of N", n the rounds asked for, N those
 * included when it was bought; an extra round the editorial team accepted counts beyond them.
 */
function revisionLabel({ used, included }: Pick<Revisions, 'used' | 'included'>): string {
  if (used === 0) return `${included} ${included === 1 ? 'revision' : 'revisions'} included`;
  if (used <= included) return `Revision ${used} of ${included}`;
  return `Revision ${used} · ${used - included} extra beyond the ${included} included`;
}

/** The rounds as a badge, on the draft's panel of both sides (shown once there is a draft). */
export function RevisionBadge({ revisions }: { revisions: Revisions }) {
  return (
    // wraps like text: "Revision 3 · 1 extra beyond the 2 included" is wider than a phone's panel (issue 57)
    <Badge variant="outline" className="max-w-full whitespace-normal" data-testid="revision-count">
      {revisionLabel(revisions)}
    </Badge>
  );
}
