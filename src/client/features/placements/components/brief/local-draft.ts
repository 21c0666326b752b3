/**
 * The older form keeps its draft in the browser, one per brand and opportunity (spec §2, earlier
 * flow). Storage may be unavailable (private mode, quota): the form then simply works without it.
 */
export const localDraftKey = (userId: string, opportunityId: string) => `byline:brief-draft:${userId}:${opportunityId}`;

export function readLocalDraft<T>(key: string): Partial<T> | null {
  try {
    const raw = window.localStorage.getItem(key);
    const value: unknown = raw ? JSON.parse(raw) : null;
    return value && typeof value === 'object' ? (value as Partial<T>) : null;
  } catch {
    return null;
  }
}

export function writeLocalDraft(key: string, value: unknown) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or blocked: nothing to do
  }
}

export function clearLocalDraft(key: string) {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // blocked storage
  }
}
