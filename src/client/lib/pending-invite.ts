/**
 * An invitation link opened before signing up (decision 033): its token is kept in this browser so
 * profile completion can point back to it. The invitation page writes it; accepting clears it.
 */
const KEY = 'byline.pendingInvite';

// storage can be off (private modes, blocked cookies): the link in the e-mail still works then
export function pendingInvite(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function rememberInvite(token: string) {
  try {
    localStorage.setItem(KEY, token);
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
