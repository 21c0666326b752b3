/**
 * An API failure: the server's `{message, code, errors}` when it sent one, and its whole body (e.g.
 * a refused release's `check`). Branch on `code` (decision 040), never on the message's words:
 * `code` is undefined when no answer came or the answer was not the server's JSON.
 */
export class ApiError extends Error {
  public readonly code: string | undefined;

  constructor(
    public readonly status: number,
    message: string,
    public readonly errors?: Record<string, string>,
    public readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.code = typeof body?.code === 'string' ? body.code : undefined;
  }
}

/** What a request that got no answer at all says (status 0). */
const OFFLINE_MESSAGE = "You're offline. Check your connection and try again.";

async function toError(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: string; errors?: unknown };
    // `errors` by field; a list (the metrics import's rows by line) is read from `body`
    const byField = typeof body?.errors === 'object' && body.errors !== null && !Array.isArray(body.errors) ? (body.errors as Record<string, string>) : undefined;
    if (body && typeof body.message === 'string') return new ApiError(res.status, body.message, byField, body);
  } catch {
    // not JSON: fall through to the spec's "status: body" form
  }
  return new ApiError(res.status, `${res.status}: ${text || res.statusText}`);
}

let onUnauthorized: ((url: string) => void) | undefined;

/** What to do when the server says the caller is not signed in (lib/auth ends the session). */
export function setUnauthorizedHandler(handler: (url: string) => void) {
  onUnauthorized = handler;
}

/** Every call sends cookies; a non-2xx answer throws ApiError. The Response, for reading headers. */
export async function apiRequestRaw(method: string, url: string, body?: unknown): Promise<Response> {
  const isForm = body instanceof FormData;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: 'include',
      headers: body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : undefined,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
  } catch (err) {
    // fetch rejects only when no answer came (offline, DNS, a dropped connection): its own words
    // ("Failed to fetch", "NetworkError when…") mean nothing to the reader
    if (err instanceof TypeError) throw new ApiError(0, OFFLINE_MESSAGE);
    throw err;
  }
  if (res.status === 401) onUnauthorized?.(url);
  if (!res.ok) throw await toError(res);
  return res;
}

/** JSON in, JSON out. */
export async function apiRequest<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await apiRequestRaw(method, url, body);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const apiGet = <T>(url: string) => apiRequest<T>('GET', url);

/** Uploads one file as multipart form data and returns the JSON answer. */
export function apiUpload<T>(url: string, field: string, file: File): Promise<T> {
  const form = new FormData();
  form.append(field, file);
  return apiRequest<T>('POST', url, form);
}

export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}
