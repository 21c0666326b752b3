import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { LinkRel } from '../../shared/publication';
import type { PageFacts } from './html-scan';

/** "www.acme.com" and "acme.com" are the same brand site. */
function siteOf(hostname: string): string {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h.startsWith('www.') ? h.slice(4) : h;
}

/**
 * The host of a website as profiles and clients store it: with or without a scheme, with or
 * without a path ("acme.com", "https://www.acme.com/shop"). Null when there is nothing to look for.
 */
function brandSite(website: string): string | null {
  const value = website.trim();
  if (!value) return null;
  const url = URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname ? siteOf(url.hostname) : null;
}

/** The sites a page must link to, each once, in the order given (a client may have several, issue 57). */
export function brandSites(websites: readonly string[]): string[] {
  return [...new Set(websites.map(brandSite).filter((s): s is string => s !== null))];
}

/** One link's kind, by the strongest qualifier it carries. */
function relOf(tokens: string[]): LinkRel {
  if (tokens.includes('sponsored')) return 'sponsored';
  if (tokens.includes('ugc')) return 'ugc';
  if (tokens.includes('nofollow')) return 'nofollow';
  return 'dofollow';
}

/** With several links to the brand, the one worth most to it counts. */
const RANK: Record<LinkRel, number> = { dofollow: 3, sponsored: 2, ugc: 1, nofollow: 0 };

/** Links resolved between two yields to the event loop: a 5 MB page can hold half a million. */
const ANCHORS_PER_TURN = 5000;

/** The link found to one of the sites: its kind and the site it goes to. */
export type BrandLink = { found: true; rel: LinkRel; site: string } | { found: false; rel: null };

/**
 * The best link from the page to one of the brand's sites. Links are resolved as a browser would:
 * against <base href> when there is one, else the page's final URL.
 */
export async function findBrandLink(facts: PageFacts, pageUrl: string, sites: readonly string[]): Promise<BrandLink> {
  const base = (facts.baseHref !== null && URL.parse(facts.baseHref, pageUrl)) || new URL(pageUrl);
  const wanted = new Set(sites);
  let best: { rel: LinkRel; site: string } | null = null;
  for (const [i, anchor] of facts.anchors.entries()) {
    if (i > 0 && i % ANCHORS_PER_TURN === 0) await yieldToLoop();
    const target = URL.parse(anchor.href.trim(), base);
    if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:')) continue;
    const site = siteOf(target.hostname);
    if (!wanted.has(site)) continue;
    const rel = relOf(anchor.rel);
    if (best === null || RANK[rel] > RANK[best.rel]) best = { rel, site };
  }
  return best ? { found: true, ...best } : { found: false, rel: null };
}
