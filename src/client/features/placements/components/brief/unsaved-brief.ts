import { clearLocalDraft, readLocalDraft, writeLocalDraft } from './local-draft';
import type { BriefValues } from './brief-merge';

/**
 * The brief's text not yet saved, kept in the browser per payment until a save succeeds: a
 * session that ends, a lost connection or a closed tab cannot take it. With the copy it was based
 * on, so coming back merges it with whatever the server holds by then.
 */
export interface UnsavedBrief {
  baseVersion: string;
  base: BriefValues;
  values: BriefValues;
}

const key = (paymentId: string) => `byline:brief-unsaved:${paymentId}`;

export function readUnsavedBrief(paymentId: string): UnsavedBrief | null {
  const draft = readLocalDraft<UnsavedBrief>(key(paymentId));
  if (!draft || typeof draft.baseVersion !== 'string' || !draft.base || !draft.values) return null;
  return draft as UnsavedBrief;
}

export const writeUnsavedBrief = (paymentId: string, draft: UnsavedBrief) => writeLocalDraft(key(paymentId), draft);
export const clearUnsavedBrief = (paymentId: string) => clearLocalDraft(key(paymentId));
