import { isBlocking, type LinkRel, type LinkType, type PublicationCheck } from '../../shared/publication';
import { brandSites, findBrandLink } from './brand-link';
import { pageEncoding } from './charset';
import { fetchPage, type FetchOptions } from './fetch-page';
import { FetchProblem } from './fetch-problem';
import { fingerprintDistance, textFingerprint, TEXT_CHANGED_DISTANCE } from './fingerprint';
import { scanHtml } from './html-scan';

/**
 * The check of a live article (issue 17): is the page there, can search engines index it, does it
 * link to the brand the way that was sold, and is it still the article that was published.
 */

export interface PageCheck extends PublicationCheck {
  /** of the article's visible text (fingerprint.ts); kept to compare the next check with */
  fingerprint: string | null;
}

export interface PageCheckOptions {
  /**
   * the websites the page must link to (one of them): a client's, or the buyer's profile's; none: no
   * link is looked for
   */
  brandWebsites: readonly string[];
  /** the kind of link sold; null: a plain (dofollow) link is expected */
  promisedLinkType: LinkType | null;
  fetch: FetchOptions;
  /** the fingerprint of the text when it was published; given, a rewrite is reported */
  previousFingerprint?: string | null;
  /**
   * Runs the fetch (the part that talks to the outlet) in its turn: the checker's limiter, so the
   * limits count requests, and the parsing after them never holds a place. Default: at once.
   */
  inTurn?: <T>(fetch: () => Promise<T>) => Promise<T>;
}

type Problem = PageCheck['problems'][number];

/**
 * Fetches and judges the page. Never rejects for anything the page or its server does: every such
 * problem is in the result (a bug still throws). `fail` when any problem blocks a release
 * (shared/publication.ts isBlocking), `warning` when there are only warnings, else `pass`.
 */
export async function checkPage(url: string, opts: PageCheckOptions): Promise<PageCheck> {
  let page;
  try {
    page = await (opts.inTurn ? opts.inTurn(() => fetchPage(url, opts.fetch)) : fetchPage(url, opts.fetch));
  } catch (error) {
    if (!(error instanceof FetchProblem)) throw error;
    return finish({
      httpStatus: error.status,
      finalUrl: error.url,
      indexable: null,
      link: { found: false, rel: null },
      title: null,
      fingerprint: null,
      problems: [{ code: error.code, message: error.message }],
    });
  }

  const facts = await scanHtml(page.body, pageEncoding(page.body, page.charset));
  const problems: Problem[] = [];
  const headerRobots = headerDirectives(page.headersDistinct['x-robots-tag'] ?? []);
  const noindexIn = [
    facts.robots.some(isNoindex) && '<meta name="robots">',
    headerRobots.some(isNoindex) && 'X-Robots-Tag header',
  ].filter((where): where is string => Boolean(where));
  if (noindexIn.length > 0) {
    problems.push({ code: 'noindex', message: `The page tells search engines not to index it (${noindexIn.join(' and ')}).` });
  }

  const sites = brandSites(opts.brandWebsites);
  let link: PageCheck['link'] = { found: false, rel: null };
  if (sites.length) {
    const found = await findBrandLink(facts, page.finalUrl, sites);
    link = found;
    // a page marked nofollow as a whole passes nothing through its plain links either
    const pageNofollow = [...facts.robots, ...headerRobots].some((d) => d === 'nofollow' || d === 'none');
    if (found.rel === 'dofollow' && pageNofollow) link = { ...found, rel: 'nofollow' };
    const promised = opts.promisedLinkType ?? 'dofollow';
    if (!found.found) {
      problems.push({ code: 'link_missing', message: `The page has no link to ${sites.join(' or ')}.` });
    } else if (link.rel !== promised) {
      const why = link.rel === 'nofollow' && pageNofollow ? ' (the whole page is marked nofollow)' : '';
      problems.push({ code: 'rel_mismatch', message: `The link to ${found.site} is ${describeRel(link.rel)}${why}, but ${describeRel(promised)} was promised.` });
    }
  }

  const fingerprint = textFingerprint(facts.text);
  const distance = opts.previousFingerprint && fingerprint ? fingerprintDistance(opts.previousFingerprint, fingerprint) : null;
  if (distance !== null && distance > TEXT_CHANGED_DISTANCE) {
    problems.push({ code: 'text_changed', message: 'The article’s text has changed substantially since it was published.' });
  }

  return finish({
    httpStatus: page.status,
    finalUrl: page.finalUrl,
    indexable: noindexIn.length === 0,
    link,
    title: facts.title,
    fingerprint,
    problems,
  });
}

function finish(check: Omit<PageCheck, 'result' | 'checkedAt'>): PageCheck {
  const result = check.problems.some((p) => isBlocking(p.code)) ? 'fail' : check.problems.length > 0 ? 'warning' : 'pass';
  return { result, checkedAt: new Date().toISOString(), ...check };
}

function describeRel(rel: LinkRel | null): string {
  if (rel === 'dofollow') return 'a plain (dofollow) link';
  return `rel="${rel}"`;
}

function isNoindex(directive: string): boolean {
  return directive === 'noindex' || directive === 'none';
}

/** Directives whose value follows a colon: not to be mistaken for the name of a crawler. */
const DIRECTIVES_WITH_VALUES = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

/**
 * The X-Robots-Tag directives meant for every crawler or for Googlebot. A directive may be
 * prefixed by the crawler it is for ("otherbot: noindex, nofollow"), and the prefix holds for the
 * directives after it on the same header line. The lines are read apart: joined, as Node joins
 * repeated headers, a plain "noindex" line after an "otherbot: ..." one would pass for otherbot's.
 */
function headerDirectives(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) out.push(...lineDirectives(line));
  return out;
}

function lineDirectives(value: string): string[] {
  const out: string[] = [];
  let agent: string | null = null;
  for (const part of value.split(',')) {
    let directive = part.trim().toLowerCase();
    const colon = directive.indexOf(':');
    if (colon > 0 && !DIRECTIVES_WITH_VALUES.has(directive.slice(0, colon).trim())) {
      agent = directive.slice(0, colon).trim();
      directive = directive.slice(colon + 1).trim();
    }
    if (directive && (agent === null || agent === 'googlebot' || agent === '*')) out.push(directive);
  }
  return out;
}
