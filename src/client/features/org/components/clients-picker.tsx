import type { OrgClient } from '@shared/schemas/org';

/**
 * Which of the organisation's clients a member is limited to (decision 035): none ticked is every
 * client. A reviewer limited to clients is a client reviewer, who never sees a price.
 */
export function ClientsPicker({
  clients,
  value,
  onChange,
  idPrefix,
  reviewer,
}: {
  clients: OrgClient[];
  value: string[];
  onChange: (ids: string[]) => void;
  idPrefix: string;
  reviewer: boolean;
}) {
  return (
    <fieldset className="space-y-2" data-testid={`${idPrefix}-clients`}>
      <legend className="text-sm font-medium">Limit to clients</legend>
      <p className="text-xs text-muted-foreground">
        {value.length === 0
          ? 'None ticked: every client, and what is bought for no client.'
          : reviewer
            ? 'They see only these clients’ articles, and no prices or amounts.'
            : 'They see and buy only for these clients.'}
      </p>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {clients.map((c) => {
          const id = `${idPrefix}-client-${c.id}`;
          const checked = value.includes(c.id);
          return (
            <label key={c.id} htmlFor={id} className="flex items-center gap-2 text-sm">
              <input
                id={id}
                type="checkbox"
                className="size-4 accent-primary"
                checked={checked}
                onChange={() => onChange(checked ? value.filter((v) => v !== c.id) : [...value, c.id])}
              />
              {c.name}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
