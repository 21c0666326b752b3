import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { COUNTRY_OPTIONS } from '@shared/countries';
import { LANGUAGES, LINK_TYPES, LINK_TYPE_LABELS, TOPICS, TOPIC_LABELS } from '@shared/catalogue';
import { METRIC_STALE_DAYS } from '@shared/outlets';
import { parseSearch } from '../search/parse-search';
import { searchString, type SearchState } from '../search/search-state';
import { ChipGroup, CommitField, SelectField } from './filter-fields';

type NumberParam = 'priceMin' | 'priceMax' | 'daMin' | 'daMax' | 'tatMax';

const FIELD_MESSAGES: Record<NumberParam, string> = {
  priceMin: 'Enter an amount in dollars, e.g. 500',
  priceMax: 'Enter an amount in dollars, e.g. 500',
  daMin: 'Enter a whole number from 0 to 100',
  daMax: 'Enter a whole number from 0 to 100',
  tatMax: 'Enter a whole number of days from 1 to 365',
};
/** The other end of a range, and what a value on the wrong side of it is told. */
const PAIRS: Partial<Record<NumberParam, { other: NumberParam; message: string }>> = {
  priceMax: { other: 'priceMin', message: 'Max price must be at least the min price' },
  priceMin: { other: 'priceMax', message: 'Min price must not be above the max price' },
  daMax: { other: 'daMin', message: 'Max domain authority must be at least the min' },
  daMin: { other: 'daMax', message: 'Min domain authority must not be above the max' },
};

const byName = (names: Record<string, string>) => Object.entries(names).sort(([, a], [, b]) => a.localeCompare(b));
const LANGUAGE_OPTIONS = byName(LANGUAGES);

/**
 * The filters: price and domain authority ranges, turnaround, link type, topic, the outlet's
 * country and language, "deadline after", "more than one spot" and "fresh metrics" (an SEO tool's
 * metric of the last 180 days). Every change is one history entry.
 */
export function FilterPanel({ state, commit }: { state: SearchState; commit: (change: Partial<SearchState>) => void }) {
  /**
   * The search reads the URL through the shared schema: a value it would drop is refused here, with
   * a reason, and so is one that would make it drop the other end of its range (the schema drops the
   * max of a min above the max, whichever of the two was typed last).
   */
  const validate = (name: NumberParam | 'deadlineAfter') => (v: string) => {
    const read = parseSearch(searchString({ ...state, [name]: v }));
    const pair = name === 'deadlineAfter' ? undefined : PAIRS[name];
    const pairKept = !pair || state[pair.other] === undefined || read[pair.other] !== undefined;
    if (read[name] !== undefined && pairKept) return null;
    if (name === 'deadlineAfter') return 'Enter a date';
    const alone = parseSearch(searchString({ type: [], linkType: [], topic: [], [name]: v }))[name] !== undefined;
    return (alone && pair?.message) || FIELD_MESSAGES[name];
  };
  const number = (
    name: NumberParam,
    label: string,
    props: { min: number; max?: number; step?: string; placeholder: string },
  ) => (
    <CommitField
      id={`filter-${name}`}
      label={label}
      value={state[name]}
      validate={validate(name)}
      onCommit={(v) => commit({ [name]: v })}
      inputMode={props.step ? 'decimal' : 'numeric'}
      {...props}
    />
  );

  return (
    <div
      className="grid grid-cols-2 items-end gap-x-3 gap-y-4 rounded-xl border bg-card p-4 shadow-sm lg:grid-cols-4"
      data-testid="filter-panel"
    >
      {number('priceMin', 'Min price (USD)', { min: 0, step: '0.01', placeholder: 'Any' })}
      {number('priceMax', 'Max price (USD)', { min: 0, step: '0.01', placeholder: 'Any' })}
      {number('daMin', 'Min domain authority', { min: 0, max: 100, placeholder: '0' })}
      {number('daMax', 'Max domain authority', { min: 0, max: 100, placeholder: '100' })}
      {number('tatMax', 'Max turnaround (days)', { min: 1, max: 365, placeholder: 'Any' })}
      <CommitField
        id="filter-deadlineAfter"
        type="date"
        label="Deadline after"
        value={state.deadlineAfter}
        validate={validate('deadlineAfter')}
        onCommit={(v) => commit({ deadlineAfter: v })}
      />
      <SelectField
        id="filter-country"
        label="Country"
        value={state.country ?? ''}
        onChange={(v) => commit({ country: v || undefined })}
      >
        <option value="">Any country</option>
        {COUNTRY_OPTIONS.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="filter-language"
        label="Language"
        value={state.language ?? ''}
        onChange={(v) => commit({ language: v || undefined })}
      >
        <option value="">Any language</option>
        {LANGUAGE_OPTIONS.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </SelectField>
      <div className="col-span-2">
        <ChipGroup
          legend="Link type"
          options={LINK_TYPES}
          label={(v) => LINK_TYPE_LABELS[v]}
          selected={state.linkType}
          onChange={(linkType) => commit({ linkType })}
        />
      </div>
      <div className="col-span-2 flex flex-wrap items-center gap-x-6 gap-y-3 self-end pb-1.5">
        <div className="flex items-center gap-2">
          <Checkbox
            id="filter-multiSlot"
            checked={state.multiSlot === 'true'}
            onCheckedChange={(v) => commit({ multiSlot: v === true ? 'true' : undefined })}
          />
          <Label htmlFor="filter-multiSlot" className="font-normal">
            More than one spot
          </Label>
        </div>
        <div className="flex items-center gap-2">
          <Checkbox
            id="filter-fresh"
            checked={state.fresh === '1'}
            onCheckedChange={(v) => commit({ fresh: v === true ? '1' : undefined })}
          />
          <Label htmlFor="filter-fresh" className="font-normal">
            Fresh metrics{' '}
            <span className="text-muted-foreground">(from an SEO tool, last {METRIC_STALE_DAYS} days)</span>
          </Label>
        </div>
      </div>
      <div className="col-span-2 lg:col-span-4">
        <ChipGroup
          legend="Topics"
          options={TOPICS}
          label={(v) => TOPIC_LABELS[v]}
          selected={state.topic}
          onChange={(topic) => commit({ topic })}
        />
      </div>
    </div>
  );
}
