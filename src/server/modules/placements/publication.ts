import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PaymentDto } from '../../../shared/payment';
import { isBlocking, type LinkType, type PublicationCheck, type PublishRequest } from '../../../shared/publication';
import type { Db } from '../../db/client';
import { opportunities, payments, publicationCases, publicationChecks, publications, users } from '../../db/schema';
import { HttpError, conflict, notFound } from '../../lib/errors';
import { notifyPlacement, notifyPublicationIssue, notifyPublicationRestored } from '../../mail/notify';
import type { Tx } from '../../mail/outbox';
import type { PaymentProvider } from '../../providers/provider';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { paymentById, toPaymentDto } from '../payments/service';
import { claimPublishedRefund, completeRefund } from '../payments/refunds';
import type { PageCheckResult, PageChecker } from './page-checker';
import { recordEvent, SYSTEM, type Actor } from '../timeline/service';
import { countEvent } from '../../ops/events';

/** What publication needs besides the database: the page checker, the provider (refunds), the terms. */
export interface PublicationDeps {
  db: Db;
  provider: PaymentProvider;
  checker: PageChecker;
  terms: { guaranteeDays: number; restoreDays: number; checkIntervalHours: number };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A failing check counts only when a second one at least this much later confirms it. */
const CONFIRM_AFTER_MS = HOUR;
/**
 * Articles of one sweep in progress at once (fetching, parsing or recording): enough that the
 * checker's places (LINK_CHECK_CONCURRENCY) are always taken while others parse and record, and few
 * enough that the watch never queues hundreds of statements ahead of the API's on the connection
 * pool (`npm run bench:publication` shows whether the places stay taken; decision 015).
 */
const WATCH_WORKERS = 16;

/** The next regular check: the interval, give or take a tenth, so checks of many articles spread out. */
const nextRegularCheck = (now: Date, hours: number, random = Math.random) => new Date(now.getTime() + hours * HOUR * (0.9 + 0.2 * random()));

const storedCheck = ({ fingerprint: _f, ...check }: PageCheckResult): PublicationCheck => check;

/** What the brand reads of a check ("Reachable", "Indexable", "Link to acme.com: dofollow"). */
function checkSummary(check: PublicationCheck, brandHost: string | null): string[] {
  const lines = [`Reachable (HTTP ${check.httpStatus ?? '—'})`];
  if (check.indexable) lines.push('Indexable');
  if (check.link.found) lines.push(`Link to ${brandHost ?? 'your website'}: ${check.link.rel}`);
  return lines;
}

const hostOf = (website: string | null) => {
  if (!website) return null;
  try {
    return new URL(/^[a-z]+:\/\//i.test(website) ? website : `https://${website}`).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
};

/** The placement as publication sees it: its payment, the brand's website, the promised link. */
async function placementOf(db: Db | Tx, paymentId: string) {
  const [row] = await db
    .select({ payment: payments, website: users.website, title: opportunities.title, linkType: opportunities.linkType })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.brandId))
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .where(eq(payments.id, paymentId));
  return row;
}

/** What a check of a placement's page compares with: the brand's website and the link type its opportunity promises. */
interface CheckTarget {
  website: string | null;
  linkType: LinkType | null;
}

/**
 * Runs the check of a live URL for a placement (no database change). An opportunity that names no
 * link type is checked for a plain (dofollow) link, as before link types existed.
 */
async function checkFor(deps: PublicationDeps, target: CheckTarget, url: string, previousFingerprint: string | null = null) {
  return deps.checker(url, { brandWebsite: target.website, promisedLinkType: target.linkType, previousFingerprint });
}

/** The blocking problems of a check that the admin has not accepted. */
const unaccepted = (check: PublicationCheck, accepted: readonly string[]) =>
  check.problems.filter((p) => isBlocking(p.code) && !accepted.includes(p.code));

/** 409 with the check as the admin's dialog shows it (without the text's fingerprint, which is kept, not shown). */
function refuseProblems(check: PageCheckResult): never {
  const problems = check.problems.filter((p) => isBlocking(p.code));
  throw new HttpError(409, `The live article has problems: ${problems.map((p) => p.message).join('; ')}`, undefined, { check: storedCheck(check) });
}

/**
 * Publication: the admin says the article is live and the money held in escrow is released
 * (paid → released), once. With a live URL (the new body) the page is checked first, before any
 * money moves: problems refuse the release unless a written reason accepts them, and a placement
 * the brand has not approved needs a reason too. Without one (the spec's body) the release works as
 * it always did and is recorded as released without a live link (the URL can be added later).
 * Refused while a refund has begun (it cannot be undone) and for a payment not held.
 */
export async function releasePayment(
  deps: PublicationDeps,
  paymentId: string,
  request: PublishRequest = {},
  now = new Date(),
  actor: Actor = SYSTEM,
): Promise<PaymentDto> {
  const { db } = deps;
  const reason = request.overrideReason?.trim() || null;
  let check: PageCheckResult | null = null;
  if (request.liveUrl !== undefined) {
    const placement = await placementOf(db, paymentId);
    if (!placement) throw notFound(PAYMENT_NOT_FOUND);
    if (placement.payment.status === 'paid' && placement.payment.draftReviewStatus !== 'approved' && !reason) {
      throw conflict('The brand has not approved the draft yet. Give a reason to publish anyway.');
    }
    check = await checkFor(deps, placement, request.liveUrl);
    if (check.result === 'fail' && !reason) refuseProblems(check);
  }
  const row = await db.transaction(async (tx) => {
    const [released] = await tx
      .update(payments)
      .set({ status: 'released', releasedAt: now })
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'paid'), isNull(payments.refundRequestedAt)))
      .returning();
    if (!released) return undefined;
    const guaranteeEndsAt = new Date(now.getTime() + deps.terms.guaranteeDays * DAY);
    await tx.insert(publications).values({
      paymentId,
      url: request.liveUrl ?? null,
      publishedAt: now,
      guaranteeEndsAt,
      // the reason given for publishing a draft the brand has not approved is kept even without a link
      overrideReason: reason,
      ...(check ? publicationStateAfterFirstCheck(check, reason, now, deps.terms.checkIntervalHours) : {}),
    });
    if (check && request.liveUrl) await recordCheck(tx, paymentId, request.liveUrl, check);
    const placement = await placementOf(tx, paymentId);
    await notifyPlacement(tx, released.id, 'published', {
      liveUrl: request.liveUrl ?? null,
      checks: check ? checkSummary(check, hostOf(placement?.website ?? null)) : [],
      guaranteeDate: request.liveUrl ? guaranteeEndsAt.toISOString() : null,
    });
    await recordEvent(tx, paymentId, 'published', actor, { url: request.liveUrl ?? null, check: check?.result ?? null, overrideReason: reason }, now);
    await recordEvent(tx, paymentId, 'released', actor, { amount: released.amount }, now);
    return released;
  });
  if (row) {
    countEvent('release');
    return toPaymentDto(row);
  }
  const existing = await paymentById(db, paymentId);
  if (!existing) throw notFound(PAYMENT_NOT_FOUND);
  if (existing.status === 'paid') throw conflict('A refund is in progress for this payment');
  throw conflict(`Only a payment held in escrow can be released (this one is ${existing.status})`);
}

/** The publication's columns after the check a URL is given with (at release or a new URL). */
function publicationStateAfterFirstCheck(check: PageCheckResult, reason: string | null, now: Date, intervalHours: number) {
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

async function recordCheck(tx: Tx, paymentId: string, url: string, check: PageCheckResult) {
  await tx.insert(publicationChecks).values({ paymentId, url, result: check.result, check: storedCheck(check), checkedAt: new Date(check.checkedAt) });
  // counted as the check is recorded (a transaction that then fails counts one check too many)
  countEvent('link-check', check.result);
}

/**
 * PUT /api/admin/payments/{id}/publication: the live URL of a released placement, given late or
 * changed (the outlet moved the article). The same rules as at release: checked first, problems
 * refuse unless a reason accepts them. A passing new URL closes an open case (restored).
 */
export async function setPublicationUrl(
  deps: PublicationDeps,
  paymentId: string,
  request: PublishRequest,
  now = new Date(),
  actor: Actor = SYSTEM,
): Promise<PublicationCheck> {
  const { db } = deps;
  if (!request.liveUrl) throw new HttpError(400, 'Live article URL is required', { liveUrl: 'Live article URL is required' });
  const placement = await placementOf(db, paymentId);
  if (!placement) throw notFound(PAYMENT_NOT_FOUND);
  if (placement.payment.status === 'refunded') throw conflict('This placement was refunded');
  if (placement.payment.status !== 'released') throw conflict('Only a published placement has a live article');
  const reason = request.overrideReason?.trim() || null;
  const check = await checkFor(deps, placement, request.liveUrl);
  if (check.result === 'fail' && !reason) refuseProblems(check);
  await db.transaction(async (tx) => {
    const [pub] = await tx.select().from(publications).where(eq(publications.paymentId, paymentId)).for('update');
    if (!pub) throw notFound(PAYMENT_NOT_FOUND);
    if (pub.health === 'refunded') throw conflict('This placement was refunded');
    await tx
      .update(publications)
      .set({ url: request.liveUrl, ...publicationStateAfterFirstCheck(check, reason, now, deps.terms.checkIntervalHours), updatedAt: now })
      .where(eq(publications.paymentId, paymentId));
    await recordCheck(tx, paymentId, request.liveUrl!, check);
    await recordEvent(tx, paymentId, 'live_url_changed', actor, { url: request.liveUrl, check: check.result, overrideReason: reason }, now);
    await closeCase(tx, paymentId, request.liveUrl!, now);
  });
  return storedCheck(check);
}

async function closeCase(tx: Tx, paymentId: string, liveUrl: string, now: Date) {
  const [closed] = await tx
    .update(publicationCases)
    .set({ closedAt: now, outcome: 'restored' })
    .where(and(eq(publicationCases.paymentId, paymentId), isNull(publicationCases.closedAt)))
    .returning({ id: publicationCases.id });
  if (closed) {
    await tx.update(publications).set({ restoredAt: now }).where(eq(publications.paymentId, paymentId));
    await notifyPublicationRestored(tx, paymentId, liveUrl);
    await recordEvent(tx, paymentId, 'case_closed', SYSTEM, { outcome: 'restored', url: liveUrl }, now);
  }
  return Boolean(closed);
}

type PublicationRow = typeof publications.$inferSelect;

/**
 * What one check of a watched article changes, in one transaction: the check is kept as evidence;
 * a failure is confirmed by a second check at least an hour later, which opens a case (both sides
 * told, a restore deadline); a pass closes an open case; the deadline passed without a pass refunds
 * the brand in full, exactly once (after the transaction: the provider is called with the payment id
 * as idempotency key). Returns whether a refund was made.
 */
async function applyCheck(deps: PublicationDeps, pub: PublicationRow, check: PageCheckResult, now: Date): Promise<'refunded' | null> {
  const url = pub.url!;
  const failing = unaccepted(check, pub.acceptedProblems).length > 0;
  const terms = deps.terms;
  // regular checks run until the guarantee ends, the last one at its end
  const watchUntil = (next: Date) => (now >= pub.guaranteeEndsAt ? null : next < pub.guaranteeEndsAt ? next : pub.guaranteeEndsAt);
  // the common check (a pass, nothing pending) has no case to look at: a case opens only after a
  // failure, which sets failing_since, and keeps health 'issue' until it closes
  const quiet = !failing && pub.health !== 'issue' && pub.failingSince === null;
  if (quiet) {
    // the check kept and the article's state moved on in one statement: one round trip, where most
    // checks of a sweep of thousands are exactly this
    const warned = check.result !== 'pass' || pub.acceptedProblems.length > 0;
    const next = watchUntil(nextRegularCheck(now, terms.checkIntervalHours));
    const stored = JSON.stringify(storedCheck(check));
    const at = now.toISOString();
    await deps.db.execute(sql`
      WITH kept AS (
        INSERT INTO ${publicationChecks} (payment_id, url, result, "check", checked_at)
        VALUES (${pub.paymentId}, ${url}, ${check.result}, ${stored}::jsonb, ${check.checkedAt}::timestamptz))
      UPDATE ${publications}
      SET last_check = ${stored}::jsonb, updated_at = ${at}::timestamptz, health = ${warned ? 'warning' : 'ok'},
          failing_since = NULL, verified_at = COALESCE(verified_at, ${at}::timestamptz),
          fingerprint = COALESCE(fingerprint, ${check.fingerprint}), next_check_at = ${next?.toISOString() ?? null}::timestamptz
      WHERE payment_id = ${pub.paymentId}`);
    return null;
  }
  const refund = await deps.db.transaction(async (tx) => {
    await recordCheck(tx, pub.paymentId, url, check);
    const [open] = await tx
      .select()
      .from(publicationCases)
      .where(and(eq(publicationCases.paymentId, pub.paymentId), isNull(publicationCases.closedAt)));
    const base = { lastCheck: storedCheck(check), updatedAt: now };
    if (!failing) {
      await closeCase(tx, pub.paymentId, url, now);
      const warned = check.result !== 'pass' || pub.acceptedProblems.length > 0;
      await tx
        .update(publications)
        .set({
          ...base,
          health: warned ? 'warning' : 'ok',
          failingSince: null,
          verifiedAt: pub.verifiedAt ?? now,
          fingerprint: pub.fingerprint ?? check.fingerprint,
          nextCheckAt: watchUntil(nextRegularCheck(now, terms.checkIntervalHours)),
        })
        .where(eq(publications.paymentId, pub.paymentId));
      return null;
    }
    if (open) {
      if (now >= open.restoreBy) {
        // the refund is claimed with the check that decided it: after a crash the refund job completes it
        const claimed = await claimPublishedRefund(tx, pub.paymentId, now, 'not_restored', { firstClaim: true });
        await tx.update(publications).set({ ...base, nextCheckAt: null }).where(eq(publications.paymentId, pub.paymentId));
        return claimed ?? null;
      }
      const next = nextRegularCheck(now, terms.checkIntervalHours);
      await tx
        .update(publications)
        .set({ ...base, nextCheckAt: next < open.restoreBy ? next : open.restoreBy })
        .where(eq(publications.paymentId, pub.paymentId));
      return null;
    }
    const since = pub.failingSince;
    if (!since || now.getTime() - since.getTime() < CONFIRM_AFTER_MS) {
      // the first failure, or a second too soon: confirm an hour after the first
      const first = since ?? now;
      if (!since) {
        const problems = unaccepted(check, pub.acceptedProblems).map((p) => p.message);
        await recordEvent(tx, pub.paymentId, 'check_failed', SYSTEM, { url, problems }, now);
      }
      await tx
        .update(publications)
        .set({ ...base, failingSince: first, nextCheckAt: new Date(first.getTime() + CONFIRM_AFTER_MS) })
        .where(eq(publications.paymentId, pub.paymentId));
      return null;
    }
    const reason = unaccepted(check, pub.acceptedProblems)
      .map((p) => p.message)
      .join('; ');
    const restoreBy = new Date(now.getTime() + terms.restoreDays * DAY);
    await tx.insert(publicationCases).values({ paymentId: pub.paymentId, reason, evidence: storedCheck(check), openedAt: now, restoreBy });
    await recordEvent(tx, pub.paymentId, 'case_opened', SYSTEM, { url, reason, restoreBy: restoreBy.toISOString() }, now);
    const next = nextRegularCheck(now, terms.checkIntervalHours);
    await tx
      .update(publications)
      .set({ ...base, health: 'issue', nextCheckAt: next < restoreBy ? next : restoreBy })
      .where(eq(publications.paymentId, pub.paymentId));
    await notifyPublicationIssue(tx, pub.paymentId, { liveUrl: url, reason, restoreBy: restoreBy.toISOString() });
    return null;
  });
  if (!refund) return null;
  await completeRefund(deps.db, deps.provider, refund, now);
  return 'refunded';
}

/**
 * POST /api/admin/payments/{id}/publication/check with {liveUrl}: what the check of a URL finds for
 * this placement (the brand's website, its promised link), before it is published with it or moved
 * to it. Nothing changes.
 */
export async function previewCheck(deps: PublicationDeps, paymentId: string, liveUrl: string): Promise<PublicationCheck> {
  const placement = await placementOf(deps.db, paymentId);
  if (!placement) throw notFound(PAYMENT_NOT_FOUND);
  if (placement.payment.status === 'refunded') throw conflict('This placement was refunded');
  return storedCheck(await checkFor(deps, placement, liveUrl));
}

/** POST /api/admin/payments/{id}/publication/check: the check, now; its result applied like a scheduled one. */
export async function recheckNow(deps: PublicationDeps, paymentId: string, now = new Date()): Promise<PublicationCheck> {
  const [pub] = await deps.db.select().from(publications).where(eq(publications.paymentId, paymentId));
  if (!pub) throw notFound(PAYMENT_NOT_FOUND);
  if (!pub.url) throw conflict('This placement was published without a live link: add its URL first');
  if (pub.health === 'refunded') throw conflict('This placement was refunded');
  const placement = await placementOf(deps.db, paymentId);
  const check = await checkFor(deps, placement ?? { website: null, linkType: null }, pub.url, pub.fingerprint);
  await applyCheck(deps, pub, check, now);
  return storedCheck(check);
}

/**
 * The watch: claims the articles due for a check (each once, whichever instance asks: the claim
 * moves its next check forward in one statement, skipping rows another instance holds), checks
 * them through the checker's limits, and applies each result. Returns how many were checked.
 */
export async function runDueChecks(deps: PublicationDeps, now = new Date(), batch = 200): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  // the guarantee is over: the watch ends, unless a problem it found is still being confirmed or is an open case
  const watched = sql`(${at} <= guarantee_ends_at OR health = 'issue' OR failing_since IS NOT NULL)`;
  await deps.db.execute(sql`
    UPDATE ${publications} SET next_check_at = NULL
    WHERE next_check_at <= ${at} AND NOT ${watched}`);
  const lease = new Date(now.getTime() + 10 * 60_000);
  const claimed = await deps.db.execute(sql`
    UPDATE ${publications} SET next_check_at = ${lease.toISOString()}::timestamptz
    WHERE payment_id IN (
      SELECT payment_id FROM ${publications}
      WHERE next_check_at <= ${at} AND ${watched} AND url IS NOT NULL AND health <> 'refunded'
        AND EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.id} = payment_id AND ${payments.status} = 'released')
      ORDER BY next_check_at LIMIT ${batch} FOR UPDATE SKIP LOCKED)
    RETURNING payment_id AS "paymentId"`);
  const ids = (claimed as unknown as { rows: { paymentId: string }[] }).rows.map((r) => r.paymentId);
  if (ids.length === 0) return 0;
  // the claimed articles, their brands' websites and promised links in one query; then a few workers check and apply
  // them, so the watch holds at most WATCH_WORKERS of the pool's connections and the API keeps the rest
  const due = await deps.db
    .select({ pub: publications, website: users.website, linkType: opportunities.linkType })
    .from(publications)
    .innerJoin(payments, eq(payments.id, publications.paymentId))
    .innerJoin(users, eq(users.id, payments.brandId))
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .where(inArray(publications.paymentId, ids));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < due.length; i = next++) {
      const { pub, ...target } = due[i];
      if (!pub.url) continue;
      const check = await checkFor(deps, target, pub.url, pub.fingerprint);
      await applyCheck(deps, pub, check, now);
    }
  };
  await Promise.all(Array.from({ length: Math.min(WATCH_WORKERS, due.length) }, worker));
  return ids.length;
}
