import * as React from 'react';
import { useMutation } from '@tanstack/react-query';
import { SearchCheck } from 'lucide-react';
import { isBlocking, type PublicationCheck, type PublishRequest } from '@shared/publication';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input, Textarea } from '@/components/ui/input';
import { ApiError, apiRequest, errorMessage } from '@/lib/api';
import { CheckResult } from './check-result';
import { apiUrl } from '@shared/api-paths';

/**
 * The live article of a release (Mark Published, Publish Content): its URL, a check of it before
 * any money moves, and the written reason the server asks for to release anyway (the page has
 * problems, or the brand has not approved the draft). The URL stays optional: without one the
 * release works as the spec describes, and the link can be added later from Placements.
 */
export interface LiveArticle {
  url: string;
  reason: string;
  /** the server asked for a reason (its message), or null */
  reasonAsked: string | null;
  /** the last check shown (a preview, or the one a refused release carried) */
  check: PublicationCheck | null;
}

export const EMPTY_LIVE_ARTICLE: LiveArticle = { url: '', reason: '', reasonAsked: null, check: null };

/** The body of the release call: nothing at all without a URL (the spec's call). */
export function publishBody(a: LiveArticle): PublishRequest | undefined {
  const url = a.url.trim();
  if (!url) return a.reason.trim() ? { overrideReason: a.reason.trim() } : undefined;
  return { liveUrl: url, ...(a.reason.trim() ? { overrideReason: a.reason.trim() } : {}) };
}

/**
 * What a refused release teaches the form: a 409 with a check (problems) or asking for a reason
 * opens the reason field. Returns whether the error was of that kind (the caller toasts the rest).
 */
export function learnFromRefusal(err: unknown, set: React.Dispatch<React.SetStateAction<LiveArticle>>): boolean {
  if (!(err instanceof ApiError) || err.status !== 409) return false;
  const check = (err.body?.check as PublicationCheck | undefined) ?? null;
  // a failed check, or the brand has not approved the draft: either way a reason is asked for
  if (!check && err.code !== 'draft_not_approved') return false;
  set((a) => ({ ...a, reasonAsked: err.message, check: check ?? a.check }));
  return true;
}

/**
 * Whether the release needs a written reason: the server asked for one, or the check on screen
 * failed. A failed check asks at once, so the primary button turns "… anyway" before the admin
 * presses it and meets the refusal.
 */
export const reasonNeeded = (a: LiveArticle) => Boolean(a.reasonAsked) || a.check?.result === 'fail';

/** The server's words when it refuses a page with blocking problems (publication.ts refuseProblems). */
const problemsMessage = (check: PublicationCheck) =>
  `The live article has problems: ${check.problems
    .filter((p) => isBlocking(p.code))
    .map((p) => p.message)
    .join('; ')}`;

function usePreviewCheck() {
  return useMutation({
    mutationFn: ({ paymentId, liveUrl }: { paymentId: string; liveUrl: string }) =>
      apiRequest<PublicationCheck>('POST', apiUrl('/api/admin/placements/:placementId/publication/check', { placementId: paymentId }), { liveUrl }),
  });
}

export function LiveArticleFields({
  paymentId,
  value,
  onChange,
  brandHost,
  disabled,
}: {
  paymentId: string | null;
  value: LiveArticle;
  onChange: React.Dispatch<React.SetStateAction<LiveArticle>>;
  brandHost?: string | null;
  disabled?: boolean;
}) {
  const preview = usePreviewCheck();
  const [urlError, setUrlError] = React.useState<string | undefined>();
  const id = React.useId();
  const asked = value.reasonAsked ?? (value.check?.result === 'fail' ? problemsMessage(value.check) : null);
  const runCheck = () => {
    if (!paymentId || !value.url.trim()) return;
    setUrlError(undefined);
    preview.mutate(
      { paymentId, liveUrl: value.url.trim() },
      {
        onSuccess: (check) => onChange((a) => ({ ...a, check })),
        onError: (err) => setUrlError(errorMessage(err, 'The check could not be run')),
      },
    );
  };
  return (
    <div className="space-y-3">
      <FormField id={`${id}-url`} label="Live article URL" error={urlError} hint="Optional. Byline checks the page before the money is released, then watches it.">
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            placeholder="https://outlet.com/your-article"
            value={value.url}
            disabled={disabled}
            aria-invalid={Boolean(urlError)}
            onChange={(e) => {
              const url = e.target.value;
              setUrlError(undefined);
              // a new URL needs a new check; a reason given for the old one does not carry over
              onChange((a) => ({ ...a, url, check: null, reasonAsked: a.reasonAsked && /not approved/i.test(a.reasonAsked) ? a.reasonAsked : null }));
            }}
          />
          <Button type="button" variant="outline" onClick={runCheck} disabled={disabled || !paymentId || !value.url.trim() || preview.isPending} className="shrink-0">
            <SearchCheck /> {preview.isPending ? 'Checking...' : 'Check article'}
          </Button>
        </div>
      </FormField>
      {value.check && (
        <div className="rounded-md border bg-muted/40 p-3">
          {value.check.title && <p className="mb-1.5 text-sm font-medium break-words">{value.check.title}</p>}
          <CheckResult check={value.check} brandHost={brandHost} />
        </div>
      )}
      {asked && (
        <FormField id={`${id}-reason`} label="Reason to release anyway" hint="Kept with the placement and shown to the team.">
          <p role="alert" className="text-sm text-amber-800">
            {asked}
          </p>
          <Textarea
            id={`${id}-reason`}
            value={value.reason}
            maxLength={1000}
            disabled={disabled}
            onChange={(e) => {
              const reason = e.target.value;
              onChange((a) => ({ ...a, reason }));
            }}
          />
        </FormField>
      )}
    </div>
  );
}
