import { clearLocalDraft, readLocalDraft, writeLocalDraft } from './local-draft';
import type { BriefValues } from './brief-merge';

/**
 * The brief's text not yet saved, kept in the browser per payment until a save succeeds: a
 * session that ends, a lost connection or a closed tab cannot take it. With the copy it was based
 * on, so coming back merges it with whatever the server holds by then; and with where it came from
 * (which tab, and whether the session had ended), so the page can say why it is offered back.
 */
export interface UnsavedBrief {
  baseVersion: string;
  base: BriefValues;
  values: BriefValues;
  /** the browser tab it was typed in (thisTab()) */
  tab?: string;
  /** a save of it was refused because the sign-in session had ended */
  signedOut?: boolean;
}

/** Why unsaved text is offered back: the session ended, another tab typed it, or this tab did earlier. */
export type UnsavedOrigin = 'signed-out' | 'other-tab' | 'earlier';

const key = (paymentId: string) => `byline:brief-unsaved:${paymentId}`;
const TAB_KEY = 'byline:tab';

/**
 * An id of this browser tab: kept in sessionStorage, which each tab has of its own and which
 * outlives a reload. Undefined when storage is blocked (the origin is then not told apart).
 */
function thisTab(): string | undefined {
  try {
    let id = window.sessionStorage.getItem(TAB_KEY);
    if (!id) {
      // unique enough to tell this browser's tabs apart (crypto.randomUUID needs a secure context)
      id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
      window.sessionStorage.setItem(TAB_KEY, id);
    }
    return id;
  } catch {
    return undefined;
  }
}

export function readUnsavedBrief(paymentId: string): UnsavedBrief | null {
  const draft = readLocalDraft<UnsavedBrief>(key(paymentId));
  if (!draft || typeof draft.baseVersion !== 'string' || !draft.base || !draft.values) return null;
  return draft as UnsavedBrief;
}

export function originOf(unsaved: UnsavedBrief): UnsavedOrigin {
  if (unsaved.signedOut) return 'signed-out';
  const tab = thisTab();
  return unsaved.tab && tab && unsaved.tab !== tab ? 'other-tab' : 'earlier';
}

export const writeUnsavedBrief = (paymentId: string, draft: Omit<UnsavedBrief, 'tab' | 'signedOut'>) =>
  writeLocalDraft(key(paymentId), { ...draft, tab: thisTab() });

/** A save of the kept text was refused with 401: say so when it is offered back after signing in. */
export function markSignedOut(paymentId: string) {
  const draft = readUnsavedBrief(paymentId);
  if (draft) writeLocalDraft(key(paymentId), { ...draft, signedOut: true });
}

export const clearUnsavedBrief = (paymentId: string) => clearLocalDraft(key(paymentId));
