import * as React from 'react';
import type { BriefConflictBody, BriefDraftInput, BriefResponse } from '@shared/schemas/brief';
import { ApiError } from '@/lib/api';
import { saveBriefDraft, saveBriefDraftOnExit } from '../../api/save-brief';
import { briefValues, mergeBrief, sameBrief, splitParts, type BriefMerge, type BriefValues } from './brief-merge';
import {
  clearUnsavedBrief,
  markSignedOut,
  originOf,
  readUnsavedBrief,
  writeUnsavedBrief,
  type UnsavedOrigin,
} from './unsaved-brief';
import { useAutosave } from './use-autosave';

export interface PendingMerge {
  merge: BriefMerge;
  reason: 'other-window' | 'restored';
  /** for restored text: why it was not saved */
  origin?: UnsavedOrigin;
  onResolve: (values: BriefValues) => void;
}

/** The server's copy a 409 carried (a save or submit based on an older version). */
export function conflictCopy(err: unknown): BriefResponse | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const current = (err.body as Partial<BriefConflictBody> | undefined)?.current;
  return current && typeof current.version === 'string' ? current : null;
}

/** What the form opens with: the server's copy, or text an earlier visit left unsaved merged into it. */
export interface BriefStart {
  values: BriefValues;
  /** set when unsaved text was found: what was merged, and where both sides changed */
  merge: BriefMerge | null;
  /** why that text was not saved */
  origin?: UnsavedOrigin;
}

export function briefStart(paymentId: string, initial: BriefResponse, editable: boolean): BriefStart {
  const server = briefValues(initial);
  const unsaved = editable ? readUnsavedBrief(paymentId) : null;
  if (!unsaved || sameBrief(unsaved.values, server)) {
    if (unsaved) clearUnsavedBrief(paymentId);
    return { values: server, merge: null };
  }
  const merge = mergeBrief(unsaved.base, unsaved.values, server);
  return { values: merge.values, merge, origin: originOf(unsaved) };
}

/**
 * The brief's autosave with nothing lost: every save carries the version it was based on, so a
 * save after another window's is refused and merged here instead of overwriting it; unsaved text
 * is kept in the browser (a session that ends, a closed tab) and merged back on the next visit.
 */
export function useBriefDraft({
  paymentId,
  initial,
  start,
  values,
  apply,
}: {
  paymentId: string;
  initial: BriefResponse;
  start: BriefStart;
  /** the form's current text */
  values: () => BriefValues;
  /** puts text into the form */
  apply: (values: BriefValues) => void;
}) {
  const [server] = React.useState(() => briefValues(initial));
  const base = React.useRef({ version: initial.version, values: server });
  const [restored, setRestored] = React.useState(Boolean(start.merge && !start.merge.conflicts.length));
  const [pending, setPending] = React.useState<PendingMerge | null>(null);

  const { saver, state } = useAutosave<BriefDraftInput>({
    save: async (draft) => {
      try {
        const saved = await saveBriefDraft(paymentId, { ...draft, baseVersion: base.current.version });
        base.current = { version: saved.version, values: briefValues(saved) };
      } catch (err) {
        // the session ended: the kept text is offered back after signing in, saying so
        if (err instanceof ApiError && err.status === 401) markSignedOut(paymentId);
        throw err;
      }
    },
    snapshot: () => splitParts(values()),
    onExit: (draft) => saveBriefDraftOnExit(paymentId, { ...draft, baseVersion: base.current.version }),
  });

  /** Keeps the form's text in the browser until it is saved (call on every change). */
  const keep = React.useCallback(() => {
    writeUnsavedBrief(paymentId, { baseVersion: base.current.version, base: base.current.values, values: values() });
  }, [paymentId, values]);

  const resolveWith = React.useCallback(
    (theirs: BriefResponse, merged: BriefValues, reason: PendingMerge['reason']) => {
      apply(merged);
      base.current = { version: theirs.version, values: briefValues(theirs) };
      setPending(null);
      if (reason === 'restored') setRestored(true);
      keep();
      saver.resolved();
      saver.change();
      void saver.flush();
    },
    [apply, keep, saver],
  );

  /** Another window saved first: offer the newer copy merged with this window's text. */
  const offerMerge = React.useCallback(
    (theirs: BriefResponse) => {
      const merge = mergeBrief(base.current.values, values(), briefValues(theirs));
      // the newer copy holds nothing this window lacks (e.g. this window's own save on leaving): save on top of it
      if (!merge.conflicts.length && !merge.fromTheirs.length) return resolveWith(theirs, merge.values, 'other-window');
      setPending({ merge, reason: 'other-window', onResolve: (merged) => resolveWith(theirs, merged, 'other-window') });
    },
    [values, resolveWith],
  );

  // the restored text is saved at once; where it and the server copy both changed a field, the user chooses first
  React.useEffect(() => {
    if (!start.merge) return;
    if (start.merge.conflicts.length) {
      const merge = start.merge;
      setPending({
        merge,
        reason: 'restored',
        origin: start.origin,
        onResolve: (merged) => resolveWith(initial, merged, 'restored'),
      });
    } else {
      keep();
      saver.change();
      void saver.flush();
    }
    // once, on opening
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  React.useEffect(() => {
    if (state.kind === 'saved') clearUnsavedBrief(paymentId);
    if (state.kind === 'conflict') offerMerge(state.current as BriefResponse);
  }, [state, paymentId, offerMerge]);

  return {
    saver,
    state,
    restored,
    pending,
    keep,
    offerMerge,
    baseVersion: () => base.current.version,
  };
}
