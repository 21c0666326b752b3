import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Parser } from 'htmlparser2';
import { MAX_TEXT_CHARS } from './fingerprint';

/** What a check needs from a page, read in one pass of a real HTML parser. */
export interface PageFacts {
  /** the first <title>, whitespace collapsed */
  title: string | null;
  /** the directives of <meta name="robots"> and <meta name="googlebot">, lower case */
  robots: string[];
  /** the first <base href>, as written */
  baseHref: string | null;
  /** every <a href>, with its rel tokens in lower case */
  anchors: { href: string; rel: string[] }[];
  /** the article's visible text: the longest <article>, else <main>, else the whole page (its first MAX_TEXT_CHARS or so) */
  text: string;
}

/** Bytes parsed between two yields to the event loop, so a large page never holds it for long. */
const CHUNK_BYTES = 64 * 1024;

/** An <article> or <main> shorter than this is a teaser or a shell, not the article. */
const MIN_ARTICLE_CHARS = 200;

/** Elements whose text a reader does not see as the article: code, widgets, navigation, forms. */
const NOT_ARTICLE_TEXT = new Set([
  'head',
  'title',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'embed',
  'canvas',
  'select',
  'textarea',
  'button',
  'nav',
  'aside',
  'footer',
  'form',
  'dialog',
]);

interface Frame {
  skip: boolean;
  article: boolean;
  main: boolean;
  title: boolean;
}

const HTML_WHITESPACE = /[\t\n\f\r ]+/;

export async function scanHtml(body: Buffer, encoding: string): Promise<PageFacts> {
  const facts: PageFacts = { title: null, robots: [], baseHref: null, anchors: [], text: '' };
  const stack: Frame[] = [];
  let skipDepth = 0;
  let articleDepth = 0;
  let mainDepth = 0;
  let titleParts: string[] | null = null;
  const bodyParts: string[] = [];
  const mainParts: string[] = [];
  const articles: string[][] = [];

  // each text is kept up to what the fingerprint reads: a long page costs no more memory than a short one
  const lengths = new Map<string[], number>();
  const add = (parts: string[], text: string) => {
    const had = lengths.get(parts) ?? 0;
    if (had >= MAX_TEXT_CHARS) return;
    parts.push(text);
    lengths.set(parts, had + text.length);
  };
  // a tag ends a word even when the markup has no space: "<p>one</p><p>two</p>"
  const boundary = () => {
    add(bodyParts, ' ');
    if (articleDepth > 0) add(articles[articles.length - 1], ' ');
    if (mainDepth > 0) add(mainParts, ' ');
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const hidden = attribs.hidden !== undefined || attribs['aria-hidden']?.trim().toLowerCase() === 'true';
        const frame: Frame = {
          skip: NOT_ARTICLE_TEXT.has(name) || hidden,
          article: name === 'article',
          main: name === 'main',
          title: name === 'title' && facts.title === null && titleParts === null,
        };
        stack.push(frame);
        if (frame.skip) skipDepth++;
        if (frame.article && articleDepth++ === 0) articles.push([]);
        if (frame.main) mainDepth++;
        if (frame.title) titleParts = [];
        boundary();

        if (name === 'meta') {
          const metaName = attribs.name?.trim().toLowerCase();
          if ((metaName === 'robots' || metaName === 'googlebot') && attribs.content) {
            facts.robots.push(...attribs.content.split(',').map((d) => d.trim().toLowerCase()));
          }
        } else if (name === 'base' && facts.baseHref === null && attribs.href !== undefined) {
          facts.baseHref = attribs.href;
        } else if (name === 'a' && attribs.href !== undefined) {
          facts.anchors.push({ href: attribs.href, rel: (attribs.rel ?? '').toLowerCase().split(HTML_WHITESPACE).filter(Boolean) });
        }
      },
      onclosetag() {
        // htmlparser2 closes every element it opened, implied ones included, innermost first
        const frame = stack.pop();
        if (!frame) return;
        if (frame.skip) skipDepth--;
        if (frame.article) articleDepth--;
        if (frame.main) mainDepth--;
        if (frame.title && titleParts) {
          facts.title = titleParts.join('').replace(/\s+/g, ' ').trim() || null;
          titleParts = null;
        }
        boundary();
      },
      ontext(data) {
        if (titleParts) titleParts.push(data);
        if (skipDepth > 0) return;
        add(bodyParts, data);
        if (articleDepth > 0) add(articles[articles.length - 1], data);
        if (mainDepth > 0) add(mainParts, data);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  const decoder = new TextDecoder(encoding);
  for (let at = 0; at < body.length; at += CHUNK_BYTES) {
    parser.write(decoder.decode(body.subarray(at, at + CHUNK_BYTES), { stream: true }));
    if (at + CHUNK_BYTES < body.length) await yieldToLoop();
  }
  parser.end(decoder.decode());

  const longestArticle = articles.map((parts) => parts.join('')).reduce((a, b) => (b.trim().length > a.trim().length ? b : a), '');
  const main = mainParts.join('');
  facts.text = [longestArticle, main].find((t) => t.trim().length >= MIN_ARTICLE_CHARS) ?? bodyParts.join('');
  return facts;
}
