import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import type { AppDeps } from '../deps';
import { countEvent } from './events';

/** A request id a client or proxy may hand us: short, and nothing that could break a log line or a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** `reqId` of every log line of a request: its `X-Request-Id` when sane, else a new UUID. */
function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** The path without its query string: a query may carry a secret (`/reset-password?token=…`) or an e-mail. */
function pathOf(url: string | undefined): string {
  if (!url) return '';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * One line per request, when it is answered (at `info`): `reqId` (from the logger's bindings),
 * `method`, `url` (the path only), `route` (the template, or `unmatched`), `statusCode`,
 * `responseTime` (ms) and `userId` when signed in. No headers, no query string, no body. The
 * "incoming request" line is kept for `debug`.
 */
class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    const level = request.log.level;
    if (level === 'debug' || level === 'trace') request.log.debug({ method: request.method, url: pathOf(request.url) }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      url: pathOf(request.url),
      route: request.is404 ? 'unmatched' : request.routeOptions.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
      userId: request.user?.id,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Never logged, wherever they appear in a line (defence in depth: the lines above carry none of
 * them): credentials in headers, secrets and bodies under their usual names, the parameters of a
 * failed query (Drizzle puts them on its error).
 */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'password',
  'newPassword',
  'token',
  'secret',
  'body',
  'err.params',
  'err.cause.params',
];

function logsRequests(logger: AppDeps['logger']): boolean {
  if (!logger) return false;
  if (logger === true) return true;
  const level = typeof logger === 'object' && 'level' in logger ? logger.level : 'info';
  return level === undefined || ['info', 'debug', 'trace'].includes(level);
}

/**
 * Fastify's logging options: JSON lines (pino) with the redactions above, the request id, and the
 * completion line of RequestLog. With LOG_LEVEL above `info` the per-request calls are skipped.
 */
export function loggingOptions(logger: AppDeps['logger']): Pick<FastifyServerOptions, 'logger' | 'logController' | 'genReqId'> {
  const options = logger === true ? { level: 'info' } : logger || null;
  return {
    logger: options
      ? {
          ...options,
          redact: { paths: REDACT, censor: '[redacted]' },
          serializers: { req: (req: FastifyRequest) => ({ method: req.method, url: pathOf(req.url) }), ...options.serializers },
        }
      : false,
    logController: new RequestLog({ disableRequestLogging: !logsRequests(logger) }),
    genReqId: requestIdOf,
  };
}

/** How far the log may fall behind its reader before lines are dropped instead of held. */
const LOG_BUFFER_BYTES = 16 * 1024 * 1024;
/** Lines are held until this many bytes are waiting (about 30 lines), then written in one go… */
const LOG_BATCH_BYTES = 8 * 1024;
/** …or until this many milliseconds have passed. */
const LOG_FLUSH_MS = 250;

/**
 * Where the server's JSON lines go: stdout, written in the background, with a bound. A reader that
 * falls behind (a busy log shipper, a full pipe) would otherwise make the server hold every line in
 * memory, without bound (figures: decision 016). Past LOG_BUFFER_BYTES lines are dropped and
 * counted (`byline_log_lines_dropped_total`); what is buffered is written out synchronously when
 * the process exits.
 *
 * Lines are handed over as bytes: kept as text, the destination appends each line to the text
 * waiting to be written and measures that text's UTF-8 length again, which copies it every time
 * (a quadratic cost while a write is under way, and copies that live long enough to fill the old
 * generation of the heap under load).
 *
 * Lines are written in batches of LOG_BATCH_BYTES: each write is a round trip through libuv's
 * thread pool (two thread wake-ups and a system call), which, one line or a few at a time, cost
 * the server as much as the rest of a cheap request's logging. A quiet server's lines wait at most
 * LOG_FLUSH_MS for the batch to fill.
 */
export function logDestination(): DestinationStream & { flush(cb: (err?: Error) => void): void } {
  const destination = pino.destination({
    dest: 1,
    sync: false,
    maxLength: LOG_BUFFER_BYTES,
    contentMode: 'buffer',
    minLength: LOG_BATCH_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
  destination.on('drop', () => countEvent('log-dropped'));
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // stdout gone: nothing left to write to
    }
  });
  return {
    // (sonic-boom's types know only text; in buffer mode it takes bytes)
    write: (line: string) => destination.write(Buffer.from(line) as unknown as string),
    // what waits is written, then the file synced: a pipe cannot be synced (EINVAL) and need not be
    flush: (cb) => destination.flush((err) => cb(err && (err as NodeJS.ErrnoException).code !== 'EINVAL' ? err : undefined)),
  };
}
