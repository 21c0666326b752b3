import { and, eq, isNull } from 'drizzle-orm';
import type { ReleaseSkip } from '../../../shared/enums';
import type { PaymentDto } from '../../../shared/payment';
import type { PublicationCheck, PublishRequest } from '../../../shared/publication';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import { payments, placements, publications } from '../../db/schema';
import { notFound, conflict } from '../../lib/errors';
import { countEvent } from '../../ops/events';
import { actorOf } from '../org/audit';
import { paymentById, toPaymentDto } from '../payments/service';
import { recordEvent, SYSTEM, type Actor } from '../timeline/service';
import { actorAsMover, transition } from './transition';
import type { PageCheckResult } from './page-checker';
import {
  checkFor,
  DAY,
  placementOf,
  publicationStateAfterFirstCheck,
  recordCheck,
  refuseProblems,
  storedCheck,
  type PublicationDeps,
} from './live-check';
import { now as clockNow } from '../../lib/clock';

/**
 * The release: the admin says the article is live and the money held in escrow goes to the outlet.
 * The live page is checked before any money moves; the watch of it afterwards is watch.ts.
 */

/** What the brand reads of a check ("Reachable", "Indexable", "Link to acme.com: dofollow": the site the link goes to). */
function checkSummary(check: PublicationCheck): string[] {
  const lines = [`Reachable (HTTP ${check.httpStatus ?? '—'})`];
  if (check.indexable) lines.push('Indexable');
  if (check.link.found) lines.push(`Link to ${check.link.site ?? 'your website'}: ${check.link.rel}`);
  return lines;
}

/**
 * The one release of a placement, behind both of the spec's calls (POST …/release and PATCH
 * …/status {status: "released"}): the money held in escrow is released (paid → released), once.
 * With a live URL the page is checked first, before any money moves: problems refuse the release
 * unless a written reason accepts them, and a placement the brand has not approved needs a reason
 * too. Without one (the spec's body) the release works as it always did and is recorded as released
 * without a live link (the URL can be added later). Refused while a refund has begun (it cannot be
 * undone) and for a payment not held.
 */
export async function releasePayment(
  deps: PublicationDeps,
  paymentId: string,
  request: PublishRequest = {},
  now = clockNow(),
  actor: Actor = SYSTEM,
  /** the admin's address, for the organisation's audit log */
  address: string | null = null,
): Promise<PaymentDto> {
  const { db } = deps;
  const reason = request.overrideReason?.trim() || null;
  let check: PageCheckResult | null = null;
  if (request.liveUrl !== undefined) {
    const placement = await placementOf(db, paymentId);
    if (!placement) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
    if (placement.placement.state === 'in_progress' && placement.placement.draftReviewStatus !== 'approved' && !reason) {
      throw conflict('draft_not_approved', 'The brand has not approved the draft yet. Give a reason to publish anyway.');
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
    // the difference paid for a dearer swap is released with it (issue 46)
    await tx
      .update(payments)
      .set({ status: 'released', releasedAt: now })
      .where(and(eq(payments.topupOf, released.id), eq(payments.status, 'paid'), isNull(payments.refundRequestedAt)));
    // the placement is published with its money released, in the same transaction: the table's
    // release (transition.ts), whose entry (released) follows the publication's
    await transition(
      tx,
      paymentId,
      'release',
      actorAsMover(actor),
      async () => {
        const [work] = await tx
          .update(placements)
          .set({ state: 'published' })
          .where(eq(placements.paymentId, released.id))
          .returning({ draftReviewStatus: placements.draftReviewStatus });
        // the spec's call (no live URL) keeps its answer, but what it skipped is on the record (issue 57):
        // no page was checked, and the brand may not have approved the draft
        const without: ReleaseSkip[] =
          request.liveUrl === undefined ? ['live_url', ...(work.draftReviewStatus !== 'approved' ? (['approval'] as const) : [])] : [];
        const guaranteeEndsAt = new Date(now.getTime() + deps.terms.guaranteeDays * DAY);
        await tx.insert(publications).values({
          placementId: paymentId,
          url: request.liveUrl ?? null,
          publishedAt: now,
          guaranteeEndsAt,
          // the reason given for publishing a draft the brand has not approved is kept even without a link
          overrideReason: reason,
          releasedWithout: without,
          ...(check ? publicationStateAfterFirstCheck(check, reason, now, deps.terms.checkIntervalHours) : {}),
        });
        if (check && request.liveUrl) await recordCheck(tx, paymentId, request.liveUrl, check);
        // the brand's mail follows the entry, and what the release skipped goes on the organisation's
        // audit log with the admin who did it (timeline/effects.ts published)
        await recordEvent(
          tx,
          paymentId,
          'published',
          actor,
          { url: request.liveUrl ?? null, check: check?.result ?? null, overrideReason: reason, ...(without.length ? { without } : {}) },
          now,
          {
            checks: check ? checkSummary(check) : [],
            guaranteeDate: request.liveUrl ? guaranteeEndsAt.toISOString() : null,
            ...(actor.type === 'admin' ? { by: { ...(await actorOf(tx, actor.id)), address } } : {}),
          },
        );
        return { without };
      },
      () => ({ amount: released.amount }),
      now,
    );
    return released;
  });
  if (row) {
    countEvent('release');
    return toPaymentDto(db, row);
  }
  const existing = await paymentById(db, paymentId);
  if (!existing) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  if (existing.status === 'paid') throw conflict('refund_in_progress', 'A refund is in progress for this payment');
  throw conflict('payment_not_in_escrow', `Only a payment held in escrow can be released (this one is ${existing.status})`);
}

/**
 * POST /api/admin/payments/{id}/publication/check with {liveUrl}: what the check of a URL finds for
 * this placement (the websites it must link to, its promised link), before it is published with it or moved
 * to it. Nothing changes.
 */
export async function previewCheck(deps: PublicationDeps, paymentId: string, liveUrl: string): Promise<PublicationCheck> {
  const placement = await placementOf(deps.db, paymentId);
  if (!placement) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  if (placement.placement.state === 'refunded') throw conflict('placement_refunded', 'This placement was refunded');
  return storedCheck(await checkFor(deps, placement, liveUrl));
}
