import { publicUrl, type Config } from '../../config';
import type { LinkType, PublicationCheck } from '../../../shared/publication';
import { parseAllowList } from '../../outbound/address-policy';
import { checkPage } from '../../outbound/page-check';
import type { Resolver } from '../../outbound/target';
import { createCheckLimiter } from '../../outbound/limiter';

/** A check of a live article, with the fingerprint of its text (kept, not shown). */
export interface PageCheckResult extends PublicationCheck {
  fingerprint: string | null;
}

export type PageChecker = (
  url: string,
  opts: { brandWebsites: readonly string[]; promisedLinkType: LinkType | null; previousFingerprint: string | null },
) => Promise<PageCheckResult>;

/**
 * The configured checker: this server's identity, the addresses it may reach (LINK_CHECK_ALLOW),
 * and at most LINK_CHECK_CONCURRENCY pages at once, one at a time per outlet host.
 */
export function pageCheckerFor(
  config: Config,
  /** how names are resolved (default: the system's DNS); tests give a loopback-only stand-in */
  opts: { resolve?: Resolver } = {},
): PageChecker {
  const allow = parseAllowList(config.LINK_CHECK_ALLOW);
  const userAgent = `BylineBot/1.0 (+${publicUrl(config)})`;
  const limiter = createCheckLimiter(config.LINK_CHECK_CONCURRENCY);
  return (url, check) => {
    let host = url;
    try {
      host = new URL(url).hostname;
    } catch {
      // the checker reports a bad URL itself
    }
    // the limits are on requests: the page is parsed after its place is given back
    return checkPage(url, {
      ...check,
      fetch: { allow, userAgent, ...(opts.resolve ? { resolve: opts.resolve } : {}) },
      inTurn: (fetch) => limiter.run(host, fetch),
    });
  };
}
