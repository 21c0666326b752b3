import { eq } from 'drizzle-orm';
import { isBlocking, type LinkType, type PublicationCheck } from '../../../shared/publication';
import type { Db } from '../../db/client';
import { opportunities, orgClients, payments, placements, publicationChecks, users } from '../../db/schema';
import { conflict } from '../../lib/errors';
import type { Tx } from '../../mail/outbox';
import type { PaymentProvider } from '../../providers/provider';
import { countEvent } from '../../ops/events';
import type { PageCheckResult, PageChecker } from './page-checker';
import { clockOffsetMs } from '../../lib/clock';

/**
 * The check of a placement's live page, as both the release (release.ts) and the watch (watch.ts)
 * run and record it: what it compares with, how its result is kept, and what it sets on the
 * publication when a URL is given.
 */

/** What publication needs besides the database: the page checker, the provider (refunds), the terms. */
export interface PublicationDeps {
  db: Db;
  provider: PaymentProvider;
  checker: PageChecker;
  terms: { guaranteeDays: number; restoreDays: number; checkIntervalHours: number };
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The next regular check: the interval, give or take a tenth, so checks of many articles spread out. */
export const nextRegularCheck = (now: Date, hours: number, random = Math.random) =>
  new Date(now.getTime() + hours * HOUR * (0.9 + 0.2 * random()));

export const storedCheck = ({ fingerprint: _f, ...check }: PageCheckResult): PublicationCheck => check;

/**
 * The websites a placement's page must link to (issue 57): the client's it was bought for, or, for a
 * client without any (and a placement bought for none), the buyer's own, as its profile has it.
 */
export const linkTargets = (clientWebsites: readonly string[] | null, buyerWebsite: string | null): string[] =>
  clientWebsites?.length ? [...clientWebsites] : buyerWebsite ? [buyerWebsite] : [];

/** The columns `linkTargets` is made of: join `users` on the buyer and `orgClients` (left) on the client. */
export const linkTargetColumns = { clientWebsites: orgClients.websites, buyerWebsite: users.website };

/** The placement as publication sees it: its payment, the websites it must link to, the promised link. */
export async function placementOf(db: Db | Tx, paymentId: string) {
  const [row] = await db
    .select({ placement: placements, payment: payments, ...linkTargetColumns, title: opportunities.title, linkType: opportunities.linkType })
    .from(placements)
    .innerJoin(payments, eq(payments.id, placements.paymentId))
    .innerJoin(users, eq(users.id, placements.brandId))
    .leftJoin(orgClients, eq(orgClients.id, placements.clientId))
    .innerJoin(opportunities, eq(opportunities.id, placements.opportunityId))
    .where(eq(placements.id, paymentId));
  if (!row) return undefined;
  const { clientWebsites, buyerWebsite, ...rest } = row;
  return { ...rest, websites: linkTargets(clientWebsites, buyerWebsite) };
}

/** What a check of a placement's page compares with: the websites it must link to and the link type its opportunity promises. */
interface CheckTarget {
  websites: readonly string[];
  linkType: LinkType | null;
}

/**
 * Runs the check of a live URL for a placement (no database change). An opportunity that names no
 * link type is checked for a plain (dofollow) link, as before link types existed.
 */
export async function checkFor(
  deps: PublicationDeps,
  target: CheckTarget,
  url: string,
  previousFingerprint: string | null = null,
) {
  const check = await deps.checker(url, { brandWebsites: target.websites, promisedLinkType: target.linkType, previousFingerprint });
  // when it was checked, in Byline's time (issue 59): the disputes compare it with their own times
  return { ...check, checkedAt: new Date(new Date(check.checkedAt).getTime() + clockOffsetMs()).toISOString() };
}

/** 409 with the check as the admin's dialog shows it (without the text's fingerprint, which is kept, not shown). */
export function refuseProblems(check: PageCheckResult): never {
  const problems = check.problems.filter((p) => isBlocking(p.code));
  throw conflict('live_article_problems', `The live article has problems: ${problems.map((p) => p.message).join('; ')}`, undefined, {
    check: storedCheck(check),
  });
}

/** The publication's columns after the check a URL is given with (at release or a new URL). */
export function publicationStateAfterFirstCheck(
  check: PageCheckResult,
  reason: string | null,
  now: Date,
  intervalHours: number,
) {
  const accepted = check.result === 'fail' ? check.problems.filter((p) => isBlocking(p.code)).map((p) => p.code) : [];
  return {
    health: check.result === 'pass' && !accepted.length ? ('ok' as const) : ('warning' as const),
    overrideReason: reason,
    acceptedProblems: accepted,
    verifiedAt: now,
    fingerprint: check.fingerprint,
    lastCheck: storedCheck(check),
    failingSince: null,
    nextCheckAt: nextRegularCheck(now, intervalHours),
  };
}

/** Keeps a check as evidence, in the transaction of what it changes. */
export async function recordCheck(tx: Tx, paymentId: string, url: string, check: PageCheckResult) {
  await tx
    .insert(publicationChecks)
    .values({ placementId: paymentId, url, result: check.result, check: storedCheck(check), checkedAt: new Date(check.checkedAt) });
  // counted as the check is recorded (a transaction that then fails counts one check too many)
  countEvent('link-check', check.result);
}
