/**
 * Whether an error means "the database cannot be reached right now" (server restarting, stopped,
 * connection dropped) rather than a bug or a refused statement. Such a request is answered 503 so
 * the client knows to try again; the pool opens fresh connections by itself once the server is back.
 */

// node's socket errors when connecting to or talking with the server
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or
// shutting down), 53300 too_many_connections; class 08 is "connection exception"
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

// node-postgres and pg-pool report a lost or unobtainable connection with these messages only
const PG_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * The driver's own error when `err` (or an error in its `cause` chain) is a lost or unobtainable
 * connection, else undefined. Logged instead of Drizzle's wrapper, whose message carries the query
 * and its parameters.
 */
export function databaseUnavailableCause(err: unknown): { message: string; code?: string } | undefined {
  // Drizzle wraps the driver's error ("Failed query: ...", cause: the real one): follow the chain
  const seen = new Set<unknown>();
  // (any object, not only an Error: pg-boss reports worker errors as plain copies `{ ...err, message }`)
  for (
    let e = err as { message?: unknown; code?: unknown; cause?: unknown };
    typeof e === 'object' && e !== null && !seen.has(e);
    e = e.cause as typeof e
  ) {
    seen.add(e);
    const { code } = e;
    const message = typeof e.message === 'string' ? e.message : '';
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)))
      return { message, code };
    if (PG_MESSAGES.some((m) => message.includes(m))) return { message };
  }
  return undefined;
}

export const isDatabaseUnavailable = (err: unknown) => databaseUnavailableCause(err) !== undefined;
