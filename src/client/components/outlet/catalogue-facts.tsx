import { COUNTRIES } from '@shared/countries';
import { LANGUAGES, LINK_TYPE_LABELS, TOPIC_LABELS, type Topic } from '@shared/catalogue';
import type { BrandOpportunity } from '@shared/opportunity';
import { cn } from '@/lib/utils';

/** "Germany · German · Dofollow link": what the catalogue says of the outlet, or nothing when it says nothing. */
export function outletFacts(
  o: Pick<BrandOpportunity, 'country' | 'language'> & Partial<Pick<BrandOpportunity, 'linkType'>>,
): string[] {
  return [
    o.country ? COUNTRIES[o.country] : undefined,
    o.language ? LANGUAGES[o.language] : undefined,
    o.linkType ? `${LINK_TYPE_LABELS[o.linkType]} link` : undefined,
  ].filter((v): v is string => Boolean(v));
}

/** The outlet's topics as small chips; `max` of them and "+n" for the rest. */
export function TopicChips({
  topics,
  max,
  className,
}: {
  topics: BrandOpportunity['topics'];
  max?: number;
  className?: string;
}) {
  if (topics.length === 0) return null;
  const shown = max === undefined ? topics : topics.slice(0, max);
  const more = topics.length - shown.length;
  return (
    <ul className={cn('flex flex-wrap gap-1', className)} aria-label="Topics">
      {shown.map((t) => (
        <li key={t} className="rounded-md bg-secondary px-1.5 py-0.5 text-[11px] font-medium text-secondary-foreground">
          {TOPIC_LABELS[t]}
        </li>
      ))}
      {more > 0 && <li className="px-1 py-0.5 text-[11px] font-medium text-muted-foreground">+{more}</li>}
    </ul>
  );
}

/** The topics of the catalogue's list among `topics` (an outlet's are plain strings in the API). */
export const knownTopics = (topics: readonly string[]): Topic[] =>
  topics.filter((t): t is Topic => Object.hasOwn(TOPIC_LABELS, t));
