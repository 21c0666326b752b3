import * as React from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { cn } from '@/lib/utils';
import { FIELD_LABELS, type BriefMerge, type BriefValues } from './brief-merge';
import type { UnsavedOrigin } from './unsaved-brief';

type Choice = 'mine' | 'theirs';

const TEXTS = {
  'other-window': {
    title: 'This brief was changed in another window',
    description:
      'Your changes are not lost. We combined them with the newer copy; check the result and choose where both changed.',
    mine: 'Your text in this window',
    theirs: 'Saved from the other window',
  },
  restored: {
    title: 'Restore the text you had not saved',
    description:
      'This browser kept text you typed earlier that was not saved yet. It is combined with the saved brief below.',
    mine: 'Your unsaved text',
    theirs: 'The saved brief',
  },
} as const;

/** Why restored text was not saved, said as it happened (issue 43: "signed out" was said of another tab's text). */
const RESTORED_BECAUSE: Record<UnsavedOrigin, string> = {
  'signed-out':
    'This browser kept what you typed before you were signed out. It is combined with the saved brief below.',
  'other-tab':
    'Another tab of this browser has text for this brief that was not saved yet. It is combined with the saved brief below.',
  earlier: TEXTS.restored.description,
};

function FieldNames({ label, fields }: { label: string; fields: string[] }) {
  if (!fields.length) return null;
  return (
    <p className="text-sm">
      <span className="font-medium">{label}:</span> {fields.map((f) => FIELD_LABELS[f]).join(', ')}
    </p>
  );
}

function Option({
  name,
  checked,
  onChange,
  label,
  text,
}: {
  name: string;
  checked: boolean;
  onChange: () => void;
  label: string;
  text: string;
}) {
  return (
    <label
      className={cn(
        'flex min-w-0 cursor-pointer gap-2 rounded-lg border p-3 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
        checked && 'border-primary bg-primary/5',
      )}
    >
      <input
        type="radio"
        name={name}
        checked={checked}
        onChange={onChange}
        className="mt-1 accent-primary focus-visible:outline-none"
      />
      <span className="min-w-0 space-y-1">
        <span className="block font-medium">{label}</span>
        <span className="block whitespace-pre-wrap break-words text-muted-foreground">{text || '(empty)'}</span>
      </span>
    </label>
  );
}

/**
 * Offers the merged brief: what only one side changed is already taken; where both changed the
 * user picks, field by field. It cannot be closed without choosing: closing would drop one side.
 */
export function MergeDialog({
  merge,
  reason,
  origin,
  onResolve,
}: {
  merge: BriefMerge;
  reason: keyof typeof TEXTS;
  origin?: UnsavedOrigin;
  onResolve: (values: BriefValues) => void;
}) {
  const texts = TEXTS[reason];
  const description = reason === 'restored' ? RESTORED_BECAUSE[origin ?? 'earlier'] : texts.description;
  const [choices, setChoices] = React.useState<Record<string, Choice>>({});
  const ready = merge.conflicts.every((c) => choices[c.field]);

  const apply = () => {
    const values = { ...merge.values };
    for (const c of merge.conflicts) values[c.field] = choices[c.field] === 'theirs' ? c.theirs : c.mine;
    onResolve(values);
  };

  return (
    <Dialog open>
      <DialogContent
        data-testid="merge-dialog"
        className="max-w-2xl [&>button:last-child]:hidden"
        onEscapeKeyDown={(e) => e.preventDefault()}
        onPointerDownOutside={(e) => e.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{texts.title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <div className="space-y-2">
          <FieldNames
            label={`Taken from ${reason === 'restored' ? 'the saved brief' : 'the newer copy'}`}
            fields={merge.fromTheirs}
          />
          <FieldNames label="Kept from your text" fields={merge.fromMine} />
        </div>
        {merge.conflicts.map((c) => (
          <fieldset key={c.field} className="min-w-0 space-y-2" data-testid={`merge-${c.field}`}>
            <legend className="mb-2 text-sm font-semibold">{FIELD_LABELS[c.field]}: changed in both, choose one</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              <Option
                name={`merge-${c.field}`}
                checked={choices[c.field] === 'mine'}
                onChange={() => setChoices((s) => ({ ...s, [c.field]: 'mine' }))}
                label={texts.mine}
                text={c.mine}
              />
              <Option
                name={`merge-${c.field}`}
                checked={choices[c.field] === 'theirs'}
                onChange={() => setChoices((s) => ({ ...s, [c.field]: 'theirs' }))}
                label={texts.theirs}
                text={c.theirs}
              />
            </div>
          </fieldset>
        ))}
        <DialogFooter>
          <Button type="button" onClick={apply} disabled={!ready}>
            {ready ? 'Use the combined brief' : 'Choose a version for each field'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
