import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
/** Below this a JSON answer goes as it is: compressing it would save less than it costs. */
const MIN_BYTES = 2048;

/**
 * Compresses JSON answers for browsers that accept it (brotli, else gzip): a brand's list of
 * 1,000 opportunities is ~480 KB of JSON and ~40 KB compressed, which on a phone's connection is
 * seconds. Static files are precompressed at build time and served by the static plugin instead.
 */
export function compressJson(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' || payload.length < MIN_BYTES) return payload;
    if (reply.hasHeader('content-encoding') || !String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const accept = String(req.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accept) ? 'br' : /\bgzip\b/.test(accept) ? 'gzip' : null;
    reply.header('vary', 'Accept-Encoding');
    if (!encoding) return payload;
    const body =
      encoding === 'br'
        ? await brotli(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
        : await gz(payload, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}
