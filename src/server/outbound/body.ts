import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';
import { Transform, Writable } from 'node:stream';
import { FetchProblem } from './fetch-problem';

/** What we tell servers we can read; anything else they send is refused. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** The codings in the order they must be undone (the header lists them in the order applied). */
function decodersFor(contentEncoding: string | undefined, url: string): Transform[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  return codings.reverse().map((coding) => {
    const make = DECODERS[coding];
    if (!make) throw new FetchProblem('not_html', `The page was sent compressed as "${coding}", which Byline cannot read.`, { url });
    return make();
  });
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/**
 * Reads the response body, undoing its compression, and gives up the moment it passes maxBytes,
 * counted after decompression, so neither a huge page nor a small compressed bomb is ever held
 * whole. Giving up destroys the response, which closes the connection.
 */
export async function readBody(res: IncomingMessage, maxBytes: number, url: string, signal: AbortSignal): Promise<Buffer> {
  const tooLarge = () => new FetchProblem('too_large', `The page is larger than ${megabytes(maxBytes)}, the most Byline reads.`, { url, status: res.statusCode });
  const decoders = decodersFor(res.headers['content-encoding'], url);
  const declared = Number(res.headers['content-length']);
  if (decoders.length === 0 && Number.isFinite(declared) && declared > maxBytes) throw tooLarge();

  const chunks: Buffer[] = [];
  let raw = 0;
  let decoded = 0;
  // the compressed bytes are bounded too: a stream that never inflates to anything still ends
  const countRaw = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      raw += chunk.length;
      if (raw > maxBytes) done(tooLarge());
      else done(null, chunk);
    },
  });
  const collect = new Writable({
    write(chunk: Buffer, _encoding, done) {
      decoded += chunk.length;
      if (decoded > maxBytes) return done(tooLarge());
      chunks.push(chunk);
      done();
    },
  });
  // a decoder also errors when the pipeline tears it down after the connection was cut: the
  // content is damaged only when the decoder failed with the answer whole or still coming in
  let damaged = false;
  for (const decoder of decoders) decoder.once('error', () => (damaged ||= res.complete || !res.destroyed));
  try {
    await pipeline([res, countRaw, ...decoders, collect], { signal });
  } catch (error) {
    if (error instanceof FetchProblem || signal.aborted || !damaged) throw error;
    throw new FetchProblem('unreachable', 'The page could not be read: its compressed content is damaged.', { url, status: res.statusCode });
  }
  return Buffer.concat(chunks, decoded);
}

const TAG_TERMINATORS = new Set([0x20, 0x3e]);
const WHITESPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);
// the HTML patterns of the WHATWG MIME sniffing standard, each followed by a space or ">"
const HTML_SIGNATURES = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<!--',
].map((s) => Buffer.from(s, 'latin1'));

/** Whether a body sent without a Content-Type starts like an HTML document (MIME sniffing). */
export function looksLikeHtml(body: Buffer): boolean {
  let i = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  while (i < body.length && WHITESPACE.has(body[i])) i++;
  return HTML_SIGNATURES.some((sig) => {
    if (i + sig.length >= body.length) return false;
    for (let k = 0; k < sig.length; k++) {
      // ASCII letters compare without case; the rest must match exactly
      const b = body[i + k];
      if ((b >= 0x41 && b <= 0x5a ? b + 0x20 : b) !== sig[k]) return false;
    }
    return TAG_TERMINATORS.has(body[i + sig.length]);
  });
}
