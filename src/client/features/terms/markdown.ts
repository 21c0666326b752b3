/**
 * A small Markdown reader for the terms (an operator's file): headings, paragraphs, lists, rules,
 * quotes, and bold, italic, code and links inline. It builds data, never HTML: React renders every
 * character as text, so HTML in the file shows as written, and a link keeps only a web, mail or
 * same-site address (no `javascript:`).
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong' | 'em'; children: Inline[] }
  | { kind: 'code'; text: string }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4; children: Inline[] }
  | { kind: 'paragraph' | 'quote'; children: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'rule' };

const SAFE_HREF = /^(https?:\/\/|mailto:|\/(?!\/)|#)/i;

/** Inline marks, outermost first; anything unmatched stays text. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pattern =
    /`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)|\*([^*\s](?:[^*]*[^*\s])?)\*|(?<![\w])_([^_\s](?:[^_]*[^_\s])?)_(?![\w])/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ kind: 'code', text: m[1] });
    else if (m[2] !== undefined || m[3] !== undefined)
      out.push({ kind: 'strong', children: parseInline(m[2] ?? m[3]) });
    else if (m[4] !== undefined) {
      const children = parseInline(m[4]);
      if (SAFE_HREF.test(m[5])) out.push({ kind: 'link', href: m[5], children });
      else out.push(...children);
    } else out.push({ kind: 'em', children: parseInline(m[6] ?? m[7]) });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

/** The blocks of a Markdown text, in order. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  let quote: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;

  const flush = () => {
    if (para.length) blocks.push({ kind: 'paragraph', children: parseInline(para.join(' ')) });
    if (quote.length) blocks.push({ kind: 'quote', children: parseInline(quote.join(' ')) });
    if (list) blocks.push({ kind: 'list', ordered: list.ordered, items: list.items.map(parseInline) });
    para = [];
    quote = [];
    list = null;
  };

  for (const raw of lines) {
    const line = raw.trimEnd();
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = Math.min(heading[1].length, 4) as 1 | 2 | 3 | 4;
      blocks.push({ kind: 'heading', level, children: parseInline(heading[2]) });
      continue;
    }
    if (RULE.test(line)) {
      flush();
      blocks.push({ kind: 'rule' });
      continue;
    }
    const item = BULLET.exec(line) ?? NUMBERED.exec(line);
    if (item) {
      const ordered = !BULLET.test(line);
      if (!list || list.ordered !== ordered) {
        flush();
        list = { ordered, items: [] };
      }
      list.items.push(item[1]);
      continue;
    }
    const q = QUOTE.exec(line);
    if (q && !list && !para.length) {
      quote.push(q[1]);
      continue;
    }
    // an indented or plain line after a list item continues that item; otherwise the paragraph
    if (list && list.items.length) list.items[list.items.length - 1] += ` ${line.trim()}`;
    else if (quote.length) quote.push(line.trim());
    else para.push(line.trim());
  }
  flush();
  return blocks;
}
