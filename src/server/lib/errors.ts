/**
 * Errors at the edge (decision 040): a service refuses with a domain error, a stable `code`
 * (snake_case, what the client branches on) and a `kind` (what sort of refusal it is); only the
 * app's error handler turns the kind into an HTTP status (`STATUS_OF_KIND`). No service names a
 * status (eslint.config.js and tests/unit/errors-at-the-edge.test.ts enforce it).
 *
 * The answer is `{message, code, errors?}` plus `extra` members where a refusal carries what it was
 * about (a publication check's findings, a stale copy's current record).
 */
export const STATUS_OF_KIND = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported_media: 415,
  unprocessable: 422,
  rate_limited: 429,
  upstream_failed: 502,
  unavailable: 503,
} as const;

export type ErrorKind = keyof typeof STATUS_OF_KIND;

/** A refusal's code: snake_case words, stable once published (the client branches on it). */
export const ERROR_CODE_RE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

export class DomainError extends Error {
  constructor(
    public readonly kind: ErrorKind,
    public readonly code: string,
    message: string,
    public readonly errors?: Record<string, string>,
    public readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The HTTP status of this refusal: for the edge (app.ts) alone. */
  get status(): number {
    return STATUS_OF_KIND[this.kind];
  }
}

/** A refusal of the caller's request (a 4xx), as against our or a third party's failure. */
export const isRefusal = (err: unknown): err is DomainError => err instanceof DomainError && STATUS_OF_KIND[err.kind] < 500;

type Make = (code: string, message: string, errors?: Record<string, string>, extra?: Record<string, unknown>) => DomainError;
const maker =
  (kind: ErrorKind): Make =>
  (code, message, errors, extra) =>
    new DomainError(kind, code, message, errors, extra);

/** The input cannot be used (400). */
export const badRequest = maker('invalid');
/** Not signed in (401). */
export const unauthorized = (code = 'not_signed_in', message = 'Not signed in') => new DomainError('unauthenticated', code, message);
/** Signed in, but not allowed (403). */
export const forbidden = (code = 'forbidden', message = 'You are not allowed to do this') => new DomainError('forbidden', code, message);
/** No such thing, or not this caller's (404). */
export const notFound = (code = 'not_found', message = 'Not found') => new DomainError('not_found', code, message);
/** Not in a state that allows it (409). */
export const conflict = maker('conflict');
/** It was there and is no more (410). */
export const gone = maker('gone');
export const tooLarge = maker('too_large');
export const unsupportedMedia = maker('unsupported_media');
/** Understood, but breaks a rule of the business (422). */
export const unprocessable = maker('unprocessable');
/** A third party (the card provider) failed us (502). */
export const upstreamFailed = maker('upstream_failed');
