import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
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
 * Where the server's JSON lines go: stdout, in batches, never blocking the server, with a bound.
 *
 * - **Batches** of LOG_BATCH_BYTES, or what waits after LOG_FLUSH_MS: a write per line would be a
 *   system call per request.
 * - **Written by the event loop, not a thread pool**: a batch is handed to `process.stdout`, which for
 *   a pipe (a container's log, a process manager) is a non-blocking libuv stream: the batch goes out in
 *   one `write` on the spot, or, when the pipe is full, as the reader makes room. (A file is written
 *   synchronously, a terminal too.) Through Node's thread pool instead (`fs.write`, sonic-boom), every
 *   batch woke a thread and was woken back, which on a virtual machine cost several times the write.
 * - **One batch at a time**: the next waits until the one handed over is written. What waits is ours,
 *   so a reader that falls behind holds at most LOG_BUFFER_BYTES here: past that, lines are dropped and
 *   counted (`byline_log_lines_dropped_total`) instead of held without bound (decision 016).
 * - **Nothing lost at exit**: what still waits is written synchronously when the process exits
 *   (only a batch the pipe was still taking, its reader far behind, can be cut short then).
 * - **A reader gone** (EPIPE): lines are dropped and counted from then on; the server keeps serving.
 */
export function logDestination(out: NodeJS.WriteStream & { fd: number } = process.stdout): DestinationStream & { flush(cb: (err?: Error) => void): void } {
  let waiting: Buffer[] = [];
  let waitingBytes = 0;
  let writing = false;
  let broken = false;
  let timer: NodeJS.Timeout | undefined;
  let flushed: ((err?: Error) => void)[] = [];

  const take = () => {
    const batch = waiting.length === 1 ? waiting[0] : Buffer.concat(waiting, waitingBytes);
    waiting = [];
    waitingBytes = 0;
    return batch;
  };
  const settle = () => {
    const callbacks = flushed;
    flushed = [];
    for (const cb of callbacks) cb();
  };
  const handOver = () => {
    clearTimeout(timer);
    timer = undefined;
    if (writing || broken) return;
    if (!waitingBytes) return settle();
    writing = true;
    out.write(take(), (err) => {
      writing = false;
      if (err) return;
      if (waitingBytes >= LOG_BATCH_BYTES || flushed.length) handOver();
      else if (waitingBytes) timer ??= setTimeout(handOver, LOG_FLUSH_MS).unref();
    });
  };
  out.on('error', () => {
    broken = true;
    writing = false;
    countEvent('log-dropped');
    settle();
  });
  process.once('exit', () => {
    if (!waitingBytes || broken) return;
    try {
      writeAllSync(out.fd, take());
    } catch {
      // stdout gone: nothing left to write to
    }
  });
  return {
    write(line: string) {
      const bytes = Buffer.from(line);
      if (broken || waitingBytes + out.writableLength + bytes.length > LOG_BUFFER_BYTES) {
        countEvent('log-dropped');
        return true;
      }
      waiting.push(bytes);
      waitingBytes += bytes.length;
      if (waitingBytes >= LOG_BATCH_BYTES) handOver();
      else timer ??= setTimeout(handOver, LOG_FLUSH_MS).unref();
      return true;
    },
    flush(cb) {
      if (broken) return cb();
      flushed.push(cb);
      handOver();
    },
  };
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * The whole of `bytes` to `fd`, at exit only: a non-blocking pipe may take part of it, or none
 * (EAGAIN) until its reader makes room, which it is given up to 5 seconds for.
 */
function writeAllSync(fd: number, bytes: Buffer) {
  const deadline = Date.now() + 5_000;
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > deadline) throw err;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}
