import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
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

/** Compresses a JSON body (brotli quality 5: most of the size gain for a fraction of the time). */
export function compress(body: string | Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : gz(body, { level: 6 });
}

/**
 * Compresses JSON answers for browsers that accept it (brotli, else gzip): a brand's list of
 * 1,000 opportunities is ~480 KB of JSON and ~40 KB compressed, which on a phone's connection is
 * seconds. Static files are precompressed at build time and served by the static plugin instead;
 * a route that sends its own encoded bytes (content-encoding set) is left alone.
 */
export function compressJson(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' || payload.length < MIN_BYTES) return payload;
    if (reply.hasHeader('content-encoding') || !String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    reply.header('vary', 'Accept-Encoding');
    if (!encoding) return payload;
    const body = await compress(payload, encoding);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}
