import { hash } from 'node:crypto';
import { conflict } from './errors';

/**
 * An opaque version of what a form edits, as read back from the database: a hash of the values
 * (decision 019). No column, no migration; a save that changes nothing keeps the version, and two
 * copies with the same values are the same version, so nothing can be lost between them.
 */
export function contentVersion(values: unknown): string {
  return hash('sha256', JSON.stringify(values), 'base64url').slice(0, 22);
}

/** The 409 of a save based on an older copy: the message, and the record as GET answers it now. */
export const staleCopy = (message: string, current: unknown) => conflict('stale_copy', message, undefined, { current });
