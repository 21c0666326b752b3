import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import type { ValuesMerge } from '@/lib/merge-values';

const shown = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v ?? '')).trim() || '(empty)';

/**
 * A save refused because the record changed elsewhere since the form opened (409, decision 019).
 * Nothing is saved and nothing typed is dropped unless the user says so: "Combine" puts the newer
 * copy's changes into the form beside the user's (where both changed, the user's text stays and the
 * newer one is shown here); "Load the newer copy" replaces the form with it. Either way the form
 * then saves on the newer version. It cannot be closed without choosing.
 */
export function StaleCopyDialog<T extends Record<string, unknown>>({
  title,
  merge,
  theirs,
  labels,
  onCombine,
  onLoadNewer,
}: {
  title: string;
  merge: ValuesMerge<T>;
  /** the newer copy's values (its value of a field both changed is shown) */
  theirs: T;
  labels: Record<keyof T & string, string>;
  onCombine: () => void;
  onLoadNewer: () => void;
}) {
  const names = (fields: (keyof T & string)[]) => fields.map((f) => labels[f]).join(', ');
  return (
    <Dialog open>
      <DialogContent
        data-testid="stale-copy-dialog"
        className="[&>button:last-child]:hidden"
        onEscapeKeyDown={(e) => e.preventDefault()}
        onPointerDownOutside={(e) => e.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            Your changes are not saved yet, and not lost. Combine them with the newer copy, check the form and save
            again, or load the newer copy instead.
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-2 text-sm">
          {merge.fromTheirs.length > 0 && (
            <p>
              <span className="font-medium">Changed in the newer copy:</span> {names(merge.fromTheirs)}
            </p>
          )}
          {merge.fromMine.length > 0 && (
            <p>
              <span className="font-medium">Changed by you:</span> {names(merge.fromMine)}
            </p>
          )}
          {merge.both.length > 0 && (
            <div className="space-y-1 rounded-lg border border-amber-200 bg-amber-50 p-3 text-amber-900">
              <p className="font-medium">Changed in both; combining keeps yours:</p>
              <ul className="list-disc space-y-1 pl-5">
                {merge.both.map((f) => (
                  <li key={f} className="break-words">
                    {labels[f]} (the newer copy has “{shown(theirs[f])}”)
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onLoadNewer}>
            Load the newer copy
          </Button>
          <Button type="button" onClick={onCombine}>
            Combine with the newer copy
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
