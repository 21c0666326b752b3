import { Link } from 'wouter';
import { ChevronRight } from 'lucide-react';
import type { AttentionItem } from '@shared/attention';
import { Badge } from '@/components/ui/badge';
import { StageClock } from '@/components/promise/stage-clock';
import { ReasonBadge } from './reason-badge';

/** A placement that waits on the team: what it is, whose, why; the whole row opens its details page. */
export function AttentionRow({ item }: { item: AttentionItem }) {
  const brand = item.brand.brandName || item.brand.name || item.brand.email;
  return (
    <li data-testid="attention-item">
      <Link
        href={`/admin/projects/${item.paymentId}`}
        className="flex items-center gap-3 px-4 py-3 transition-colors hover:bg-muted/50 focus-visible:bg-muted/50 focus-visible:outline-none md:px-5"
      >
        <div className="min-w-0 flex-1 space-y-1.5">
          <p className="break-words font-medium">{item.title}</p>
          <p className="break-words text-sm text-muted-foreground">
            {item.outletName} · {brand}
          </p>
          <div className="flex flex-wrap gap-1.5">
            {item.mine && (
              <Badge variant="info" data-testid="attention-mine">
                Yours
              </Badge>
            )}
            {item.reasons.map((r) => (
              <ReasonBadge key={r.kind} reason={r} />
            ))}
          </div>
          {/* its stage clock (decision 048) */}
          <StageClock clock={item.clock} withStage className="text-sm" />
        </div>
        <ChevronRight aria-hidden className="size-4 shrink-0 text-muted-foreground" />
      </Link>
    </li>
  );
}
