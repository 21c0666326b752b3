import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';

/**
 * Compression of JSON answers, by hand on purpose: @fastify/compress compresses through zlib
 * streams, and with brotli's per-stream buffers the paged lists lost two thirds of their throughput
 * and the server doubled its resident memory under load (docs/decisions/014). Negotiation is
 * @fastify/accept-negotiator's.
 */

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
/** Below this a JSON answer goes as it is: compressing it would save less than it costs. */
const MIN_BYTES = 2048;

export type Encoding = 'br' | 'gzip';
const ENCODINGS: Encoding[] = ['br', 'gzip'];

/**
 * The encoding to answer a request with, by the client's Accept-Encoding with its q-values
 * (`br;q=0` refuses brotli): brotli when accepted, else gzip, else none.
 */
export function preferredEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(', ') : (acceptEncoding ?? '');
  return (negotiate(header, ENCODINGS) as Encoding | null | undefined) ?? null;
}

/**
 * How hard to compress: an answer made per request must cost little (brotli and gzip at their
 * fastest, which already shrink JSON several times); a body compressed once and sent many times (the
 * browse list) is worth more effort. Brotli is told the body's size, so it sets itself up for it.
 */
const options = (encoding: Encoding, effort: 'fast' | 'small', bytes: number) =>
  encoding === 'gzip'
    ? { level: effort === 'fast' ? 1 : 6 }
    : { params: { [constants.BROTLI_PARAM_QUALITY]: effort === 'fast' ? 1 : 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes } };

/** A body compressed once and sent many times (the brands' browse list). */
export function compressOnce(body: string | Buffer, encoding: Encoding): Promise<Buffer> {
  const opts = options(encoding, 'small', Buffer.byteLength(body));
  return encoding === 'gzip' ? gz(body, opts) : brotli(body, opts);
}

/**
 * A per-request answer is compressed on the event loop up to this size: zlib's asynchronous path
 * hands a stream to the thread pool, which costs far more than compressing a page of JSON at the
 * fastest setting; only an unusually large body goes that way.
 */
const SYNC_MAX_BYTES = 256 * 1024;

/**
 * The bytes of a body compressed on the event loop: one buffer written again for each, where zlib
 * would otherwise make a new one from the string every time, left for the garbage collector: under
 * a burst of answers those pile up faster than they are collected, and the memory grows (decision 016).
 */
const scratch = Buffer.allocUnsafe(SYNC_MAX_BYTES);

function compressNow(body: string, encoding: Encoding): Buffer | Promise<Buffer> {
  const bytes = Buffer.byteLength(body);
  const opts = options(encoding, 'fast', bytes);
  if (bytes > SYNC_MAX_BYTES) return encoding === 'gzip' ? gz(body, opts) : brotli(body, opts);
  const input = scratch.subarray(0, scratch.write(body, 'utf8'));
  return encoding === 'gzip' ? gzipSync(input, opts) : brotliCompressSync(input, opts);
}

/**
 * Compresses JSON answers for browsers that accept it (a list's page is tens of kilobytes: seconds
 * on a phone's connection). Static files are precompressed at build time and served by the static
 * plugin; a route that sends its own encoded bytes (Content-Encoding set) is left alone.
 */
export function compressJson(app: FastifyInstance) {
  // a callback hook: most answers pass through untouched, without a promise per request
  app.addHook('onSend', (req, reply, payload, done) => {
    if (typeof payload !== 'string' || payload.length < MIN_BYTES) return done(null, payload);
    if (reply.hasHeader('content-encoding') || !String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
      return done(null, payload);
    }
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    reply.header('vary', 'Accept-Encoding');
    if (!encoding) return done(null, payload);
    const send = (body: Buffer) => {
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      done(null, body);
    };
    const body = compressNow(payload, encoding);
    if (Buffer.isBuffer(body)) return send(body);
    body.then(send, (err: Error) => done(err));
  });
}
