import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
/** Below this a JSON answer goes as it is: compressing it would save less than it costs. */
const MIN_BYTES = 2048;

export type Encoding = 'br' | 'gzip';

/** The encoding to answer a request with: brotli when accepted, else gzip, else none. */
export function preferredEncoding(acceptEncoding: string | string[] | undefined): Encoding | null {
  const accept = String(acceptEncoding ?? '');
  return /\bbr\b/.test(accept) ? 'br' : /\bgzip\b/.test(accept) ? 'gzip' : null;
}

/**
 * How hard to compress. `fast` for answers made per request: brotli quality 1 compresses a 60 KB
 * page of JSON to 14% in ~0.1 ms here, where quality 4 takes 5× the time for 7% fewer bytes; gzip
 * level 1 likewise. `small` for a body compressed once and sent many times (the browse list):
 * brotli 5, gzip 6.
 */
export type Effort = 'fast' | 'small';

/**
 * Brotli is told the input's size (`bytes`), so it sets itself up for that size instead of for an
 * unknown stream: the same output a little sooner (a 45 KB page of Admin Payments: 0.13 ms to
 * 0.12 ms here; twice as fast for more repetitive text).
 */
const options = (encoding: Encoding, effort: Effort, bytes: number) =>
  encoding === 'gzip'
    ? { level: effort === 'fast' ? 1 : 6 }
    : { params: { [constants.BROTLI_PARAM_QUALITY]: effort === 'fast' ? 1 : 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes } };

export function compress(body: string | Buffer, encoding: Encoding, effort: Effort = 'fast', bytes = Buffer.byteLength(body)): Promise<Buffer> {
  const opts = options(encoding, effort, bytes);
  return encoding === 'gzip' ? gz(body, opts) : brotli(body, opts);
}

/**
 * Below this, a per-request answer is compressed on the event loop: zlib's asynchronous path (a
 * stream handed to the thread pool) costs ~1 ms of CPU per call, the synchronous one ~0.1-0.3 ms for
 * a 60 KB page at `fast` effort. A page of 200 items (~250 KB) still blocks for only ~1 ms.
 */
const SYNC_MAX_BYTES = 256 * 1024;

function compressNow(body: string, encoding: Encoding): Buffer | Promise<Buffer> {
  const bytes = Buffer.byteLength(body);
  if (bytes > SYNC_MAX_BYTES) return compress(body, encoding, 'fast', bytes);
  const opts = options(encoding, 'fast', bytes);
  return encoding === 'gzip' ? gzipSync(body, opts) : brotliCompressSync(body, opts);
}

/**
 * Pages of the lists are often asked for again unchanged (their items are kept by row version,
 * docs/decisions/011): for those answers the compressed forms of the last PAGES_KEPT bodies are
 * kept, found by the body itself, so an unchanged page is not compressed again (~0.1 ms of the
 * ~0.45 ms a page costs the server). Same bytes in, same bytes out: nothing can be stale.
 */
const PAGES_KEPT = 64;
const pagesKept = new Map<string, Partial<Record<Encoding, Buffer>>>();
const repeatable = new WeakSet<object>();

/** Marks an answer as a page that may well be sent again unchanged (see PAGES_KEPT). */
export function compressAsPage(reply: object) {
  repeatable.add(reply);
}

function compressPage(body: string, encoding: Encoding): Buffer | Promise<Buffer> {
  let kept = pagesKept.get(body);
  const bytes = kept?.[encoding];
  if (bytes) return bytes;
  const compressed = compressNow(body, encoding);
  if (!Buffer.isBuffer(compressed)) return compressed;
  if (!kept) {
    pagesKept.set(body, (kept = {}));
    for (const oldest of pagesKept.keys()) {
      if (pagesKept.size <= PAGES_KEPT) break;
      pagesKept.delete(oldest);
    }
  }
  kept[encoding] = compressed;
  return compressed;
}

/**
 * Compresses JSON answers for browsers that accept it (brotli, else gzip): a brand's list of
 * 1,000 opportunities is ~480 KB of JSON and ~40 KB compressed, which on a phone's connection is
 * seconds. Static files are precompressed at build time and served by the static plugin instead;
 * a route that sends its own encoded bytes (content-encoding set) is left alone.
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
    const body = repeatable.has(reply) ? compressPage(payload, encoding) : compressNow(payload, encoding);
    if (Buffer.isBuffer(body)) return send(body);
    body.then(send, (err: Error) => done(err));
  });
}
