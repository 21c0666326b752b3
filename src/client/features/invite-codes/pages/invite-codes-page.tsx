import * as React from 'react';
import { format } from 'date-fns';
import { KeyRound, Plus } from 'lucide-react';
import type { InviteCode } from '@shared/schemas/invite-code';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { ApiError, errorMessage } from '@/lib/api';
import { useActivateInviteCode, useCreateInviteCode, useDeactivateInviteCode, useInviteCodes } from '../api/invite-codes';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { LoadMore } from '@/components/ui/load-more';

/** The server's word on the code itself (it exists already, it is not a valid code): said on the field. */
const fieldError = (err: unknown) =>
  err instanceof ApiError && (err.status === 400 || err.status === 409) ? (err.errors?.code ?? err.message) : undefined;

function CreateCodeForm({ onDone }: { onDone: () => void }) {
  const [code, setCode] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();
  const input = React.useRef<HTMLInputElement>(null);
  const create = useCreateInviteCode();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return;
    setError(undefined);
    create.mutate(code, {
      onSuccess: () => {
        toast({ title: 'Invite code created', description: 'The new invite code has been created successfully.' });
        setCode('');
        onDone();
      },
      onError: (err) => {
        const onField = fieldError(err);
        setError(onField);
        // back on the field, whose description now reads the server's message
        if (onField) input.current?.focus();
        toast({ title: 'Error', description: errorMessage(err, 'Failed to create invite code'), variant: 'destructive' });
      },
    });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">New invite code</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="flex-1 space-y-1.5">
            <Label htmlFor="invite-code">Code</Label>
            <Input
              ref={input}
              id="invite-code"
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                setError(undefined);
              }}
              placeholder="e.g. SPRING-2027"
              autoFocus
              maxLength={64}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? 'invite-code-error invite-code-hint' : 'invite-code-hint'}
            />
            {error && (
              <p id="invite-code-error" className="text-sm font-medium text-destructive">
                {error}
              </p>
            )}
            <p id="invite-code-hint" className="text-xs text-muted-foreground">
              Code will be converted to uppercase automatically
            </p>
          </div>
          {/* level with the input: below the label's line */}
          <div className="flex gap-2 sm:mt-5">
            <Button type="button" variant="outline" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" disabled={!code.trim() || create.isPending}>
              {create.isPending ? 'Creating...' : 'Create Code'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function CodeCard({ code }: { code: InviteCode }) {
  const [confirming, setConfirming] = React.useState(false);
  const deactivate = useDeactivateInviteCode();
  const activate = useActivateInviteCode();
  const onDeactivate = () =>
    deactivate.mutate(code.id, {
      onSuccess: () => {
        setConfirming(false);
        toast({ title: 'Invite code deactivated', description: 'The invite code has been deactivated successfully.' });
      },
      onError: () => toast({ title: 'Error', description: 'Failed to deactivate invite code. Please try again.', variant: 'destructive' }),
    });
  // turning a code back on lets brands in without review again, but loses nothing: no confirmation
  const onActivate = () =>
    activate.mutate(code.id, {
      onSuccess: () => toast({ title: 'Invite code reactivated', description: 'Brands can use the invite code again.' }),
      onError: (err) => toast({ title: 'Error', description: errorMessage(err, 'Failed to reactivate invite code. Please try again.'), variant: 'destructive' }),
    });
  return (
    <Card data-testid="invite-code">
      <CardContent className="flex items-center justify-between gap-4 p-4">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <code className="truncate rounded bg-muted px-2 py-0.5 font-mono text-sm font-semibold">{code.code}</code>
            <Badge variant={code.active ? 'success' : 'secondary'}>{code.active ? 'Active' : 'Deactivated'}</Badge>
          </div>
          <p className="text-xs text-muted-foreground">Created {format(new Date(code.createdAt), 'MMM d, yyyy')}</p>
        </div>
        {code.active ? (
          <Button variant="outline" size="sm" onClick={() => setConfirming(true)} disabled={deactivate.isPending}>
            Deactivate
          </Button>
        ) : (
          <Button variant="outline" size="sm" onClick={onActivate} disabled={activate.isPending}>
            {activate.isPending ? 'Reactivating...' : 'Reactivate'}
          </Button>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Deactivate ${code.code}?`}
        description="Brands who enter this code at profile completion will no longer skip approval. Brands already approved with it stay approved. You can reactivate the code later."
        confirmLabel="Deactivate"
        pendingLabel="Deactivating..."
        pending={deactivate.isPending}
        destructive
        onConfirm={onDeactivate}
      />
    </Card>
  );
}

export function InviteCodesPage() {
  const list = useInviteCodes();
  const { isLoading } = list;
  const data = list.items;
  const [creating, setCreating] = React.useState(false);
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Invite Codes</h1>
          <p className="text-muted-foreground">Manage invite codes for automatic brand approval</p>
        </div>
        {!creating && (
          <Button onClick={() => setCreating(true)}>
            <Plus /> Create New Code
          </Button>
        )}
      </div>
      {creating && <CreateCodeForm onDone={() => setCreating(false)} />}
      {isLoading ? (
        <PageSpinner />
      ) : list.isError && !data ? (
        <QueryError query={list} title="Couldn't load the invite codes" />
      ) : !data?.length ? (
        <EmptyState icon={<KeyRound />} title="No invite codes yet" description="Create a code and share it with brands you want to approve automatically." />
      ) : (
        <div className="grid gap-3 md:grid-cols-2">
          {data.map((c) => (
            <CodeCard key={c.id} code={c} />
          ))}
        </div>
      )}
      <LoadMore pager={list} />
    </div>
  );
}
