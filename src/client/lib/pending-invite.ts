/**
 * An invitation link opened before signing up (decision 033): its token, and the address it is for,
 * are kept in this browser so that profile completion sends the invited account back to it (issue
 * 57: never to the company form). The invitation page writes it; accepting clears it.
 */
const KEY = 'byline.pendingInvite';

export interface PendingInvite {
  token: string;
  /** the invited address (null: kept by an older version, which kept only the token) */
  email: string | null;
}

// storage can be off (private modes, blocked cookies): the link in the e-mail still works then
export function pendingInvite(): PendingInvite | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const kept = JSON.parse(raw) as Partial<PendingInvite>;
    if (typeof kept.token === 'string' && kept.token) return { token: kept.token, email: typeof kept.email === 'string' ? kept.email : null };
  } catch {
    // the token alone
  }
  return { token: raw, email: null };
}

export function rememberInvite(token: string, email: string) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ token, email }));
  } catch {
    // see pendingInvite
  }
}

export function forgetInvite() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // see pendingInvite
  }
}
