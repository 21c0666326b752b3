import { UserRoundCog } from 'lucide-react';
import type { AdminPlacementItem } from '@shared/schemas/brief';
import { errorMessage } from '@/lib/api';
import { toast } from '@/components/ui/use-toast';
import { useAssignEditor, useEditorialTeam } from '../../api/editor';

const NOBODY = '';

/**
 * Who edits the placement (issue 59): the admin it is assigned to, changed here. The first admin
 * who acts on an unassigned placement takes it (the server does); Projects' "Mine" lists one's own.
 */
export function EditorPicker({ item }: { item: Pick<AdminPlacementItem, 'assignee' | 'title'> & { payment: { id: string } } }) {
  const team = useEditorialTeam();
  const assign = useAssignEditor(item.payment.id);
  const id = `editor-${item.payment.id}`;
  const current = item.assignee;
  // the editor stays choosable while the team loads (or if they left it)
  const admins = team.data ?? [];
  const options = current && !admins.some((a) => a.id === current.id) ? [current, ...admins] : admins;
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm">
      <UserRoundCog className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      <label htmlFor={id} className="text-muted-foreground">
        Editor
      </label>
      <select
        id={id}
        data-testid="project-editor"
        className="h-8 min-w-0 max-w-[14rem] rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
        value={current?.id ?? NOBODY}
        disabled={assign.isPending}
        onChange={(e) => {
          const adminId = e.target.value === NOBODY ? null : e.target.value;
          assign.mutate(adminId, {
            onSuccess: ({ assignee }) =>
              toast({
                title: assignee ? `Assigned to ${assignee.name}` : 'Unassigned',
                description: `"${item.title}"`,
              }),
            onError: (err) => toast({ title: 'Error', description: errorMessage(err, 'Failed to assign the editor'), variant: 'destructive' }),
          });
        }}
      >
        <option value={NOBODY}>Unassigned</option>
        {options.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </select>
    </div>
  );
}
