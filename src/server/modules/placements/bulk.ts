import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { briefs, payments, placements } from '../../db/schema';
import { DomainError, notFound, conflict, isRefusal } from '../../lib/errors';
import type { Member } from '../../lib/contract';
import { PAYMENT_NOT_FOUND } from '../../db/payment-access';
import type { BriefPart1, BriefPart2 } from '../../../shared/schemas/brief-parts';
import { approveDraft } from './review';
import { submitBrief } from './brief';

/**
 * Working on many placements at once (issue 46): a brief copied to the rest of its order, and
 * drafts approved together (brief templates: templates.ts). Each placement goes through the same
 * service as one at a time (its own lock, refusal, timeline entry, mail and audit entry); what
 * could not be done is listed with why, never silently dropped.
 */

type Skipped = { paymentId: string; reason: string };

const DRAFT_KEPT = 'It has a draft brief of its own, not submitted yet, which is kept';

/** The member may reach this placement: its organisation's, and one of its clients' when it is limited. */
const reachable = (member: Member) =>
  and(
    eq(placements.organisationId, member.organisationId),
    member.clientIds === null ? undefined : member.clientIds.length ? inArray(placements.clientId, member.clientIds) : sql`false`,
  );

const reasonOf = (err: unknown) => (isRefusal(err) ? err.message : null);

/** POST /api/brand/projects/approve: approves every chosen draft that is ready; the rest are skipped with why. */
export async function approveMany(db: Db, member: Member, paymentIds: string[]) {
  const found = new Set(
    (await db.select({ id: placements.id }).from(placements).where(and(inArray(placements.id, paymentIds), reachable(member)))).map((r) => r.id),
  );
  const approved: string[] = [];
  const skipped: Skipped[] = [];
  for (const id of paymentIds) {
    if (!found.has(id)) {
      skipped.push({ paymentId: id, reason: PAYMENT_NOT_FOUND });
      continue;
    }
    try {
      await approveDraft(db, member, id);
      approved.push(id);
    } catch (err) {
      const reason = reasonOf(err);
      if (reason === null) throw err;
      skipped.push({ paymentId: id, reason });
    }
  }
  return { approved, skipped };
}

/**
 * POST /api/brand/brief/{paymentId}/copy: the placement's submitted brief, submitted for other
 * placements of the same order (those chosen, or every one without a brief). A placement with a
 * brief of its own keeps it (nothing saved is overwritten); each copy stays editable.
 */
export async function copyBrief(db: Db, member: Member, paymentId: string, chosen: string[] | undefined) {
  const [source] = await db
    .select({ orderId: payments.orderId, part1Json: briefs.part1Json, part2Json: briefs.part2Json, submittedAt: briefs.submittedAt })
    .from(placements)
    .innerJoin(payments, eq(payments.id, placements.paymentId))
    .leftJoin(briefs, eq(briefs.placementId, placements.id))
    .where(and(eq(placements.id, paymentId), reachable(member)));
  if (!source) throw notFound('payment_not_found', PAYMENT_NOT_FOUND);
  if (!source.submittedAt || !source.part1Json || !source.part2Json) throw conflict('brief_not_submitted', 'Submit this brief before copying it');
  if (!source.orderId) throw conflict('placement_not_in_order', 'This placement was bought on its own: there is no order to copy its brief to');
  const siblings = await db
    .select({ id: placements.id, hasBrief: isNotNull(briefs.id).mapWith(Boolean), submitted: isNotNull(briefs.submittedAt).mapWith(Boolean) })
    .from(placements)
    .innerJoin(payments, eq(payments.id, placements.paymentId))
    .leftJoin(briefs, eq(briefs.placementId, placements.id))
    .where(and(eq(payments.orderId, source.orderId), reachable(member)))
    .orderBy(asc(placements.id));
  const byId = new Map(siblings.map((s) => [s.id, s]));
  // every one without a submitted brief: one with a draft of its own is listed as kept, not left out
  // unsaid (the count said "copied to 2" of the three the brand saw as "Brief pending"; issue 57)
  const targets = chosen ?? siblings.filter((s) => s.id !== paymentId && !s.submitted).map((s) => s.id);
  const copied: string[] = [];
  const skipped: Skipped[] = [];
  for (const id of targets) {
    const target = byId.get(id);
    if (id === paymentId) skipped.push({ paymentId: id, reason: 'This is the brief being copied' });
    else if (!target) skipped.push({ paymentId: id, reason: 'Not a placement of the same order' });
    else if (target.hasBrief && !target.submitted) skipped.push({ paymentId: id, reason: DRAFT_KEPT });
    else if (target.hasBrief) skipped.push({ paymentId: id, reason: 'It has a brief of its own, which is kept' });
    else {
      try {
        await submitBrief(db, member, id, { part1Json: source.part1Json as BriefPart1, part2Json: source.part2Json as BriefPart2, baseVersion: 'new' });
        copied.push(id);
      } catch (err) {
        const reason = reasonOf(err);
        if (reason === null) throw err;
        skipped.push({ paymentId: id, reason: err instanceof DomainError && err.code === 'stale_copy' ? 'It has a brief of its own, which is kept' : reason });
      }
    }
  }
  return { copied, skipped };
}
