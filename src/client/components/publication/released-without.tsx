import { TriangleAlert } from 'lucide-react';
import { releasedWithoutText } from '@shared/publication';
import { Badge } from '@/components/ui/badge';

/**
 * A release by the spec's call, which checked no live page and, where said, had not the brand's
 * approval (issue 57): a note on the admin's placement page and its Admin Payments row.
 */
export function ReleasedWithout({ without }: { without: readonly string[] | undefined }) {
  const text = releasedWithoutText(without);
  if (!text) return null;
  return (
    <Badge variant="warning" className="whitespace-normal text-left" data-testid="released-without">
      <TriangleAlert className="size-3.5 shrink-0" aria-hidden />
      {text}
    </Badge>
  );
}
