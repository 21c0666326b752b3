import { Parser } from 'htmlparser2';

/**
 * Which character encoding a page is in, in the order browsers decide it (WHATWG "encoding
 * sniffing"): a byte order mark, the Content-Type charset, a <meta> in the document, else UTF-8.
 * Labels are resolved by TextDecoder, so every name the Encoding standard knows (windows-1252,
 * latin1, shift_jis, gb18030...) works and an unknown one is ignored.
 */
export function pageEncoding(body: Buffer, headerCharset: string | null): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  const fromHeader = headerCharset && known(headerCharset);
  if (fromHeader) return fromHeader;
  const declared = metaCharset(body);
  const fromMeta = declared && known(declared);
  // a document that can be read as ASCII to find its <meta> is not UTF-16, whatever it claims
  if (fromMeta) return fromMeta.startsWith('utf-16') ? 'utf-8' : fromMeta;
  return 'utf-8';
}

function known(label: string): string | null {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return null;
  }
}

/** How far into the document a <meta> declaring the charset is looked for. */
const META_SCAN_BYTES = 64 * 1024;

/**
 * The charset a <meta charset> or <meta http-equiv="Content-Type" content="...; charset=...">
 * declares. The start of the page is read as latin1, which maps every byte to one character, so
 * the ASCII markup parses whatever the real encoding is.
 */
function metaCharset(body: Buffer): string | null {
  let found: string | null = null;
  let inBody = false;
  const parser = new Parser({
    onopentag(name, attribs) {
      if (found || inBody) return;
      if (name === 'body') inBody = true;
      if (name !== 'meta') return;
      if (attribs.charset) found = attribs.charset;
      else if (attribs['http-equiv']?.trim().toLowerCase() === 'content-type' && attribs.content) {
        found = charsetFromContent(attribs.content);
      }
    },
  });
  parser.end(body.subarray(0, META_SCAN_BYTES).toString('latin1'));
  return found;
}

/** The WHATWG "extract a character encoding from a meta element" steps, on the content value. */
function charsetFromContent(content: string): string | null {
  const lower = content.toLowerCase();
  let at = lower.indexOf('charset');
  while (at !== -1) {
    let i = at + 'charset'.length;
    while (lower[i] === ' ' || lower[i] === '\t') i++;
    if (lower[i] === '=') {
      i++;
      while (lower[i] === ' ' || lower[i] === '\t') i++;
      const quote = lower[i] === '"' || lower[i] === "'" ? lower[i] : null;
      if (quote) {
        const end = lower.indexOf(quote, i + 1);
        return end === -1 ? null : content.slice(i + 1, end);
      }
      let end = i;
      while (end < lower.length && !' \t;'.includes(lower[end])) end++;
      return content.slice(i, end) || null;
    }
    at = lower.indexOf('charset', at + 1);
  }
  return null;
}
