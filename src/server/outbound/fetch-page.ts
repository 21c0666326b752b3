import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AllowList } from './address-policy';
import { ACCEPT_ENCODING, looksLikeHtml, readBody } from './body';
import { dial, type Dialer } from './dial';
import { FetchProblem } from './fetch-problem';
import { vetTarget, type Resolver, type Target } from './target';

/**
 * The one way Byline fetches a URL someone typed (docs/ARCHITECTURE.md, "Fetching the outside
 * world"): the address rules, redirects, and size and time limits live here and nowhere else.
 */

export interface FetchOptions {
  /** addresses and hosts reachable although not public (LINK_CHECK_ALLOW) */
  allow: AllowList;
  /** `BylineBot/1.0 (+PUBLIC_URL)` */
  userAgent: string;
  /** for the whole fetch: every lookup, redirect and the body */
  timeoutMs?: number;
  /** most bytes of body read, counted after decompression */
  maxBytes?: number;
  maxRedirects?: number;
  /** host name to addresses; the system resolver by default */
  resolve?: Resolver;
  /** opens the connection to a checked target; tests spy on it */
  connect?: Dialer;
}

export interface FetchedPage {
  /** after redirects */
  finalUrl: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** every header line apart, lower-case names: `headers` joins repeated lines with ", " */
  headersDistinct: NodeJS.Dict<string[]>;
  /** decompressed */
  body: Buffer;
  /** the charset parameter of Content-Type, as sent */
  charset: string | null;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * Fetches an HTML page by GET, following redirects. Resolves only with a page that is HTML,
 * answered below 400 and within the limits; rejects with a FetchProblem for everything else the
 * outside world can cause (see its codes), and with the original error for a bug.
 */
export async function fetchPage(url: string, opts: FetchOptions): Promise<FetchedPage> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let current: string | URL = url;
  let shown: string | null = null;
  let host = '';
  try {
    for (let redirects = 0; ; redirects++) {
      const target: Target = await vetTarget(current, opts.allow, opts.resolve, controller.signal);
      shown = target.url.href;
      host = target.host;
      const res = await request(target, opts, controller.signal);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) {
        res.destroy();
        if (redirects >= maxRedirects) {
          throw new FetchProblem('too_many_redirects', `The page redirected more than ${maxRedirects} times.`, { url: shown, status });
        }
        const next = URL.parse(location, target.url);
        if (!next) throw new FetchProblem('bad_url', 'The page redirected to an address that could not be read.', { url: shown, status });
        current = next;
        continue;
      }
      return await readPage(res, target, opts.maxBytes ?? DEFAULT_MAX_BYTES, controller.signal);
    }
  } catch (error) {
    const timedOut = controller.signal.aborted;
    // a failure may leave a lookup or a stream behind: abort them (a success has nothing left, and
    // an abort costs an AbortError with its stack, thousands of times in a sweep)
    controller.abort();
    if (error instanceof FetchProblem) throw error;
    if (timedOut) {
      throw new FetchProblem('timeout', `The page did not finish loading within ${seconds(timeoutMs)}.`, { url: shown });
    }
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (typeof code === 'string') throw new FetchProblem('unreachable', networkMessage(code, host), { url: shown });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function request(target: Target, opts: FetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const connect = opts.connect ?? dial;
  return new Promise((resolve, reject) => {
    const req = http.request({
      method: 'GET',
      host: target.host,
      port: target.port,
      path: `${target.url.pathname}${target.url.search}`,
      headers: {
        Host: target.url.host,
        'User-Agent': opts.userAgent,
        Accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
        'Accept-Encoding': ACCEPT_ENCODING,
        Connection: 'close',
      },
      // no agent: this connection is opened to the checked addresses only, and never reused
      createConnection: () => connect(target),
      signal,
    });
    req.once('response', resolve);
    // kept for the request's whole life: it may still fail after it answered (cut off, aborted)
    req.on('error', reject);
    req.end();
  });
}

async function readPage(res: IncomingMessage, target: Target, maxBytes: number, signal: AbortSignal): Promise<FetchedPage> {
  const finalUrl = target.url.href;
  const status = res.statusCode ?? 0;
  if (status >= 400) {
    res.destroy();
    const reason = http.STATUS_CODES[status];
    throw new FetchProblem('http_error', `The page answered ${status}${reason ? ` ${reason}` : ''}.`, { url: finalUrl, status });
  }
  const { mediaType, charset } = parseContentType(res.headers['content-type']);
  const notHtml = (what: string) =>
    new FetchProblem('not_html', `The address is not a web page: the server sent ${what}.`, { url: finalUrl, status });
  if (mediaType && !HTML_TYPES.has(mediaType)) {
    res.destroy();
    throw notHtml(mediaType);
  }
  const body = await readBody(res, maxBytes, finalUrl, signal);
  if (!mediaType && !looksLikeHtml(body)) throw notHtml('content of no stated type that does not look like HTML');
  return { finalUrl, status, headers: res.headers, headersDistinct: res.headersDistinct, body, charset };
}

/** The media type and charset of a Content-Type header (a header, not HTML: plain splitting). */
function parseContentType(header: string | undefined): { mediaType: string; charset: string | null } {
  const [type = '', ...params] = (header ?? '').split(';');
  let charset: string | null = null;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq > 0 && param.slice(0, eq).trim().toLowerCase() === 'charset') {
      charset = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1') || null;
    }
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

function seconds(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return `${s} second${s === 1 ? '' : 's'}`;
}

function networkMessage(code: string, host: string): string {
  if (code === 'ECONNREFUSED') return `The site ${host} refused the connection.`;
  if (code === 'ECONNRESET' || code === 'EPIPE') return `The connection to ${host} was cut off.`;
  if (code === 'ETIMEDOUT') return `The site ${host} did not answer.`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `The site ${host} cannot be reached from Byline's network.`;
  if (code.startsWith('HPE_')) return `The site ${host} sent a malformed HTTP answer.`;
  if (/CERT|TLS|SSL/.test(code)) return `The secure connection to ${host} failed (${code}).`;
  return `The connection to ${host} failed (${code}).`;
}
