import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { isBlocking, type PublicationCheck, type PublishRequest } from '../../../shared/publication';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { opportunities, orgClients, placements, publicationCases, publicationChecks, publications, users } from '../../db/schema';
import { badRequest, notFound, conflict } from '../../lib/errors';
import type { Tx } from '../../mail/outbox';
import { claimPublishedRefund, completeRefund } from '../payments/refunds';
import { recordEvent, SYSTEM, type Actor } from '../timeline/service';
import type { PageCheckResult } from './page-checker';
import {
  checkFor,
  DAY,
  HOUR,
  linkTargetColumns,
  linkTargets,
  nextRegularCheck,
  placementOf,
  publicationStateAfterFirstCheck,
  recordCheck,
  refuseProblems,
  storedCheck,
  type PublicationDeps,
} from './live-check';
import { now as clockNow } from '../../lib/clock';

export type { PublicationDeps } from './live-check';

/**
 * The watch of a published placement's live article (decision 015): checked on a schedule until
 * its guarantee ends; a confirmed problem opens a case with a deadline to restore it, a pass closes
 * the case, and a deadline passed without one refunds the brand. The release itself is release.ts.
 */

/** A failing check counts only when a second one at least this much later confirms it. */
const CONFIRM_AFTER_MS = HOUR;
/**
 * Articles of one sweep in progress at once (fetching, parsing or recording): enough that the
 * checker's places (LINK_CHECK_CONCURRENCY) are always taken while others parse and record, and few
 * enough that the watch never queues hundreds of statements ahead of the API's on the connection
 * pool (`npm run bench -- publication` shows whether the places stay taken; decision 015).
 */
const WATCH_WORKERS = 16;

/** The blocking problems of a check that the admin has not accepted. */
const unaccepted = (check: PublicationCheck, accepted: readonly string[]) =>
  check.problems.filter((p) => isBlocking(p.code) && !accepted.includes(p.code));

/**
 * PUT /api/admin/payments/{id}/publication: the live URL of a released placement, given late or
 * changed (the outlet moved the article). The same rules as at release: checked first, problems
 * refuse unless a reason accepts them. A passing new URL closes an open case (restored).
 */
export async function setPublicationUrl(
  deps: PublicationDeps,
  paymentId: string,
  request: PublishRequest,
  now = clockNow(),
  actor: Actor = SYSTEM,
): Promise<PublicationCheck> {
  const { db } = deps;
  if (!request.liveUrl) throw badRequest('live_url_required', 'Live article URL is required', { liveUrl: 'Live article URL is required' });
  const placement = await placementOf(db, paymentId);
  if (!placement) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  if (placement.placement.state === 'refunded') throw conflict('placement_refunded', 'This placement was refunded');
  if (placement.placement.state !== 'published') throw conflict('placement_not_published', 'Only a published placement has a live article');
  const reason = request.overrideReason?.trim() || null;
  const check = await checkFor(deps, placement, request.liveUrl);
  if (check.result === 'fail' && !reason) refuseProblems(check);
  await db.transaction(async (tx) => {
    const [pub] = await tx.select().from(publications).where(eq(publications.placementId, paymentId)).for('no key update');
    if (!pub) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
    if (pub.health === 'refunded') throw conflict('placement_refunded', 'This placement was refunded');
    await tx
      .update(publications)
      .set({ url: request.liveUrl, ...publicationStateAfterFirstCheck(check, reason, now, deps.terms.checkIntervalHours), updatedAt: now })
      .where(eq(publications.placementId, paymentId));
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
    .where(and(eq(publicationCases.placementId, paymentId), isNull(publicationCases.closedAt)))
    .returning({ id: publicationCases.id });
  if (closed) {
    await tx.update(publications).set({ restoredAt: now }).where(eq(publications.placementId, paymentId));
    // both sides are told it is closed (timeline/effects.ts case_closed)
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
        INSERT INTO ${publicationChecks} (placement_id, url, result, "check", checked_at)
        VALUES (${pub.placementId}, ${url}, ${check.result}, ${stored}::jsonb, ${check.checkedAt}::timestamptz))
      UPDATE ${publications}
      SET last_check = ${stored}::jsonb, updated_at = ${at}::timestamptz, health = ${warned ? 'warning' : 'ok'},
          failing_since = NULL, verified_at = COALESCE(verified_at, ${at}::timestamptz),
          fingerprint = COALESCE(fingerprint, ${check.fingerprint}), next_check_at = ${next?.toISOString() ?? null}::timestamptz
      WHERE placement_id = ${pub.placementId}`);
    return null;
  }
  const refund = await deps.db.transaction(async (tx) => {
    await recordCheck(tx, pub.placementId, url, check);
    const [open] = await tx
      .select()
      .from(publicationCases)
      .where(and(eq(publicationCases.placementId, pub.placementId), isNull(publicationCases.closedAt)));
    const base = { lastCheck: storedCheck(check), updatedAt: now };
    if (!failing) {
      await closeCase(tx, pub.placementId, url, now);
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
        .where(eq(publications.placementId, pub.placementId));
      return null;
    }
    if (open) {
      if (now >= open.restoreBy) {
        // the refund is claimed with the check that decided it: after a crash the refund job completes it
        const claimed = await claimPublishedRefund(tx, pub.placementId, now, 'not_restored', { firstClaim: true });
        await tx.update(publications).set({ ...base, nextCheckAt: null }).where(eq(publications.placementId, pub.placementId));
        return claimed ?? null;
      }
      const next = nextRegularCheck(now, terms.checkIntervalHours);
      await tx
        .update(publications)
        .set({ ...base, nextCheckAt: next < open.restoreBy ? next : open.restoreBy })
        .where(eq(publications.placementId, pub.placementId));
      return null;
    }
    const since = pub.failingSince;
    if (!since || now.getTime() - since.getTime() < CONFIRM_AFTER_MS) {
      // the first failure, or a second too soon: confirm an hour after the first
      const first = since ?? now;
      if (!since) {
        const problems = unaccepted(check, pub.acceptedProblems).map((p) => p.message);
        await recordEvent(tx, pub.placementId, 'check_failed', SYSTEM, { url, problems }, now);
      }
      await tx
        .update(publications)
        .set({ ...base, failingSince: first, nextCheckAt: new Date(first.getTime() + CONFIRM_AFTER_MS) })
        .where(eq(publications.placementId, pub.placementId));
      return null;
    }
    const reason = unaccepted(check, pub.acceptedProblems)
      .map((p) => p.message)
      .join('; ');
    const restoreBy = new Date(now.getTime() + terms.restoreDays * DAY);
    await tx.insert(publicationCases).values({ placementId: pub.placementId, reason, evidence: storedCheck(check), openedAt: now, restoreBy });
    // both sides are told (timeline/effects.ts case_opened)
    await recordEvent(tx, pub.placementId, 'case_opened', SYSTEM, { url, reason, restoreBy: restoreBy.toISOString() }, now);
    const next = nextRegularCheck(now, terms.checkIntervalHours);
    await tx
      .update(publications)
      .set({ ...base, health: 'issue', nextCheckAt: next < restoreBy ? next : restoreBy })
      .where(eq(publications.placementId, pub.placementId));
    return null;
  });
  if (!refund) return null;
  await completeRefund(deps.db, deps.provider, refund, now);
  return 'refunded';
}

/** POST /api/admin/payments/{id}/publication/check: the check, now; its result applied like a scheduled one. */
export async function recheckNow(deps: PublicationDeps, paymentId: string, now = clockNow()): Promise<PublicationCheck> {
  const [pub] = await deps.db.select().from(publications).where(eq(publications.placementId, paymentId));
  if (!pub) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  if (!pub.url) throw conflict('live_url_missing', 'This placement was published without a live link: add its URL first');
  if (pub.health === 'refunded') throw conflict('placement_refunded', 'This placement was refunded');
  const placement = await placementOf(deps.db, paymentId);
  const check = await checkFor(deps, placement ?? { websites: [], linkType: null }, pub.url, pub.fingerprint);
  await applyCheck(deps, pub, check, now);
  return storedCheck(check);
}

/**
 * The watch: claims the articles due for a check (each once, whichever instance asks: the claim
 * moves its next check forward in one statement, skipping rows another instance holds), checks
 * them through the checker's limits, and applies each result. Returns how many were checked.
 */
export async function runDueChecks(deps: PublicationDeps, now = clockNow(), batch = 200): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  // the guarantee is over: the watch ends, unless a problem it found is still being confirmed or is an open case
  const watched = sql`(${at} <= guarantee_ends_at OR health = 'issue' OR failing_since IS NOT NULL)`;
  await deps.db.execute(sql`
    UPDATE ${publications} SET next_check_at = NULL
    WHERE next_check_at <= ${at} AND NOT ${watched}`);
  const lease = new Date(now.getTime() + 10 * 60_000);
  const claimed = await deps.db.execute(sql`
    UPDATE ${publications} SET next_check_at = ${lease.toISOString()}::timestamptz
    WHERE placement_id IN (
      SELECT placement_id FROM ${publications}
      WHERE next_check_at <= ${at} AND ${watched} AND url IS NOT NULL AND health <> 'refunded'
        AND EXISTS (SELECT 1 FROM ${placements} WHERE ${placements.id} = placement_id AND ${placements.state} = 'published')
      ORDER BY next_check_at LIMIT ${batch} FOR UPDATE SKIP LOCKED)
    RETURNING placement_id AS "paymentId"`);
  const ids = (claimed as unknown as { rows: { paymentId: string }[] }).rows.map((r) => r.paymentId);
  if (ids.length === 0) return 0;
  // the claimed articles, the websites each must link to (its client's, else its buyer's) and promised links in one
  // query; then a few workers check and apply them, so the watch holds at most WATCH_WORKERS of the pool's
  // connections and the API keeps the rest
  const due = await deps.db
    .select({ pub: publications, ...linkTargetColumns, linkType: opportunities.linkType })
    .from(publications)
    .innerJoin(placements, eq(placements.id, publications.placementId))
    .innerJoin(users, eq(users.id, placements.brandId))
    .leftJoin(orgClients, eq(orgClients.id, placements.clientId))
    .innerJoin(opportunities, eq(opportunities.id, placements.opportunityId))
    .where(inArray(publications.placementId, ids));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < due.length; i = next++) {
      const { pub, clientWebsites, buyerWebsite, linkType } = due[i];
      if (!pub.url) continue;
      const check = await checkFor(deps, { websites: linkTargets(clientWebsites, buyerWebsite), linkType }, pub.url, pub.fingerprint);
      await applyCheck(deps, pub, check, now);
    }
  };
  await Promise.all(Array.from({ length: Math.min(WATCH_WORKERS, due.length) }, worker));
  return ids.length;
}
