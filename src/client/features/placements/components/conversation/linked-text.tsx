import * as React from 'react';

// a URL as people paste it: up to the next space or character that cannot be in one unescaped
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`]+/gi;
// punctuation that ends a sentence, not the link ("see https://x.com/a.")
const TRAILING = /[.,;:!?)\]}*]+$/;

/** A matched URL without the sentence's punctuation; a ")" stays when the link opened one (Wikipedia's URLs). */
function trimTail(url: string): string {
  const kept = url.replace(TRAILING, '');
  const unclosed = (kept.match(/\(/g)?.length ?? 0) > (kept.match(/\)/g)?.length ?? 0);
  return unclosed && url.slice(kept.length).startsWith(')') ? `${kept})` : kept;
}

/** The link a piece of text names, if it is an http(s) URL the browser parses the same way. */
function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

type TextPart = { text: string; href?: undefined } | { text: string; href: string };

/** A message's text cut into plain runs and http(s) links; nothing else ever becomes a link. */
export function linkParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const raw = trimTail(match[0]);
    const href = safeHref(raw);
    if (!href) continue;
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ text: raw, href });
    last = match.index + raw.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/**
 * A message's text as plain text (React escapes it; no HTML is ever interpreted), with its http
 * and https links made clickable: a new tab, no referrer, no opener, no endorsement. Line breaks
 * are kept by the caller's `whitespace-pre-wrap`.
 */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {linkParts(text).map((p, i) =>
        p.href ? (
          <a
            key={i}
            href={p.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="break-all underline underline-offset-2"
          >
            {p.text}
          </a>
        ) : (
          <React.Fragment key={i}>{p.text}</React.Fragment>
        ),
      )}
    </>
  );
}
