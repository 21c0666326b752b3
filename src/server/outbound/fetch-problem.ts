import type { CheckProblemCode } from '../../shared/publication';

/** The problems fetching alone can find (the page's content is judged by page-check). */
export type FetchProblemCode = Extract<
  CheckProblemCode,
  'blocked_address' | 'blocked_port' | 'unreachable' | 'timeout' | 'http_error' | 'too_large' | 'not_html' | 'too_many_redirects' | 'bad_url'
>;

/**
 * Why a page could not be fetched. fetchPage rejects with this for everything the outside world
 * can cause (a refused address, a dead server, an error status, a wrong type...), with a message
 * written for the admin who will read it; any other error is a bug and propagates as it is.
 */
export class FetchProblem extends Error {
  readonly code: FetchProblemCode;
  /** the HTTP status, when the server answered */
  readonly status: number | null;
  /** the URL the problem happened at (after the redirects followed so far), when it parsed */
  readonly url: string | null;

  constructor(code: FetchProblemCode, message: string, details: { status?: number | null; url?: string | null } = {}) {
    super(message);
    this.name = 'FetchProblem';
    this.code = code;
    this.status = details.status ?? null;
    this.url = details.url ?? null;
  }
}
