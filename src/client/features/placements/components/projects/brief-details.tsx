import type { BriefPart1, BriefPart2 } from '@shared/schemas/brief';
import { cn } from '@/lib/utils';
import { PART1_FIELDS, PART1_HEADING, PART2_FIELDS, PART2_HEADING, briefRows, linkHref, splitLinks, type BriefField } from './brief-text';

/** The brief's two parts: a submitted one (Projects), or the brand's own as it saved it. */
type Brief = { part1Json: BriefPart1; part2Json: BriefPart2 };

function SocialLinks({ value }: { value: string }) {
  return (
    <ul className="space-y-1">
      {splitLinks(value).map((link, i) => (
        <li key={`${i}-${link}`} className="min-w-0">
          <a href={linkHref(link)} target="_blank" rel="noopener noreferrer" className="wrap-anywhere text-primary underline-offset-4 hover:underline">
            {linkHref(link)}
          </a>
        </li>
      ))}
    </ul>
  );
}

function Part<K extends string>({ heading, fields, part }: { heading: string; fields: BriefField<K>[]; part: Partial<Record<K, string>> }) {
  return (
    <section className="space-y-3">
      <h3 className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">{heading}</h3>
      <dl className="space-y-3">
        {briefRows(fields, part).map((row) => (
          <div key={row.key} className="space-y-0.5" data-testid={`brief-${row.key}`}>
            <dt className="text-xs font-medium text-muted-foreground">{row.label}</dt>
            <dd className={cn('whitespace-pre-wrap text-sm', row.missing && 'italic text-muted-foreground')}>
              {row.key === 'socialMediaLinks' && !row.missing ? <SocialLinks value={row.value} /> : row.value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The submitted brief, both parts: optional fields only when filled, N/A for a missing required one. */
export function BriefDetails({ id, brief, className }: { id: string; brief: Brief; className?: string }) {
  return (
    <div id={id} className={cn('grid gap-6 rounded-lg border bg-muted/40 p-4 md:grid-cols-2', className)} data-testid="brief-details">
      <Part heading={PART1_HEADING} fields={PART1_FIELDS} part={brief.part1Json} />
      <Part heading={PART2_HEADING} fields={PART2_FIELDS} part={brief.part2Json} />
    </div>
  );
}
