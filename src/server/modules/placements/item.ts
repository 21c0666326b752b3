import type { AdminPlacementItem, BriefPart1, BriefPart2, BuyersPlacementItem, PlacementPayment } from '../../../shared/schemas/brief';
import { sql } from 'drizzle-orm';
import { as, item, when, type Computed, type ItemOf, type Same } from '../../db/item';
import {
  briefs,
  cancellations,
  conversationReads,
  disputes,
  opportunities,
  orgClients,
  payments,
  placementMessages,
  placements,
  publicationCases,
  publications,
  revisionRequests,
  users,
} from '../../db/schema';
import type { Cancellation, DisputeRef, Revisions } from '../../../shared/schemas/fair-terms';
import { clockNowSql, isoUtc } from '../../db/statement';
import type { MessageSide } from '../../../shared/messages';
import { otherSide } from '../messages/service';
import type { LivePlacementItem, Publication, PublicationCheck, PublicationHealth } from '../../../shared/publication';
import { brandContact, clientRef, organisationRef } from '../payments/service';
import { cancellationItem } from '../payments/cancel';
import { DAY_MS, DRAFT_DUE_DAYS_DEFAULT } from '../../../shared/constants';
import { refundedAmountField, type PaymentMoney } from '../ledger/ledger';
import { now as clockNow } from '../../lib/clock';

type PaymentRow = typeof payments.$inferSelect;
type PlacementRow = typeof placements.$inferSelect;

/**
 * The `payment` object of a placement card (the spec's shape): its money from `payments`, its draft
 * and review from `placements` (no internal columns).
 */
const placementPaymentItem = item({
  id: placements.id,
  status: payments.status,
  draftReviewStatus: placements.draftReviewStatus,
  draftDocumentUrl: placements.draftDocumentUrl,
  draftDocumentFile: placements.draftDocumentFile,
  brandFeedback: placements.brandFeedback,
  stripePaymentId: payments.stripePaymentId,
  amount: payments.amount,
  refundedAmount: refundedAmountField,
  createdAt: payments.createdAt,
});
/** The `payment` object from rows Node holds: the placement, its payment and the payment's money on the ledger. */
export const placementPayment = (placement: PlacementRow, payment: PaymentRow, money: PaymentMoney): PlacementPayment =>
  placementPaymentItem.of({ placements: placement, payments: payment, payment_money: { ...money } });

/** The opportunity members of a placement card (My Articles, Admin Projects). */
const opportunityCard = {
  id: opportunities.id,
  title: opportunities.title,
  type: opportunities.type,
  outletName: opportunities.outletName,
  priceUsd: opportunities.priceUsd,
};

/** A publication refunded by other means (an admin's refund from Placements) shows as refunded too. */
const health: Computed<PublicationHealth> = {
  kind: 'computed',
  sql: sql`CASE WHEN ${payments.status} = 'refunded' THEN 'refunded' ELSE ${publications.health} END`,
  of: (rows) => (rows.payments?.status === 'refunded' ? 'refunded' : ((rows.publications?.health as PublicationHealth | undefined) ?? 'unverified')),
};

/**
 * The live article of a published placement, with its open case (lists LEFT JOIN `publications` and
 * the open `publication_cases` row of the payment).
 */
const publicationItem = item({
  url: publications.url,
  health,
  verifiedAt: publications.verifiedAt,
  guaranteeEndsAt: publications.guaranteeEndsAt,
  overrideReason: publications.overrideReason,
  releasedWithout: publications.releasedWithout,
  lastCheck: as<PublicationCheck | null>(publications.lastCheck),
  issue: when(
    publicationCases.id,
    item({
      reason: publicationCases.reason,
      openedAt: publicationCases.openedAt,
      restoreBy: publicationCases.restoreBy,
      evidence: as<PublicationCheck>(publicationCases.evidence),
    }),
  ),
  restoredAt: publications.restoredAt,
});
const publication = when(publications.placementId, publicationItem);

/** Declined by the outlet and waiting for the brand's choice of an alternative (issue 46). */
const declined = when(placements.declinedAt, item({ reason: as<string>(placements.declineReason), swapBy: as<string>(placements.swapBy) }));

/** The latest extra edit request of the placement (revision_requests_placement_idx). */
const revisionRequestItem = item({
  id: revisionRequests.id,
  status: revisionRequests.status,
  feedback: revisionRequests.feedback,
  reason: revisionRequests.reason,
  answer: revisionRequests.answer,
  createdAt: revisionRequests.createdAt,
});
const dbOnly = () => {
  throw new Error('read by the list statements only');
};
/** Its edit rounds (issue 47): used of included, and the latest request beyond them. */
const revisions: Computed<Revisions> = {
  kind: 'computed',
  sql: sql`json_build_object('used', ${placements.revisionsUsed}, 'included', ${placements.revisionsIncluded}, 'request',
    (SELECT ${revisionRequestItem.sql} FROM ${revisionRequests} WHERE ${revisionRequests.placementId} = ${placements.id}
      ORDER BY ${revisionRequests.createdAt} DESC LIMIT 1))`,
  of: dbOnly,
};

const cancellation: Computed<Cancellation | null> = {
  kind: 'computed',
  sql: sql`(SELECT ${cancellationItem.sql} FROM ${cancellations} WHERE ${cancellations.placementId} = ${placements.id}
    ORDER BY ${cancellations.createdAt} DESC LIMIT 1)`,
  of: dbOnly,
};

/** Its latest dispute (issue 47; disputes_placement_idx), with its next deadline. */
const disputeRefItem = item({
  id: disputes.id,
  kind: disputes.kind,
  reason: disputes.reason,
  status: disputes.status,
  resolution: disputes.resolution,
  dueAt: {
    kind: 'computed',
    sql: isoUtc(sql`CASE ${disputes.status} WHEN 'open' THEN ${disputes.respondBy} WHEN 'offered' THEN ${disputes.escalateBy} WHEN 'escalated' THEN ${disputes.decideBy} END`),
    of: dbOnly,
  } satisfies Computed<string | null>,
});
const dispute: Computed<DisputeRef | null> = {
  kind: 'computed',
  sql: sql`(SELECT ${disputeRefItem.sql} FROM ${disputes} WHERE ${disputes.placementId} = ${placements.id} ORDER BY ${disputes.createdAt} DESC LIMIT 1)`,
  of: dbOnly,
};

/** A My Articles card: the placement, whether the brand has saved or submitted its brief, its live article. */
export const brandPlacementItem = item({
  ...opportunityCard,
  payment: placementPaymentItem,
  brief: when(briefs.id, item({ submittedAt: briefs.submittedAt })),
  publication,
  unreadMessages: unreadMessages('brand'),
  client: clientRef,
  orderId: payments.orderId,
  declined,
  writingStartedAt: placements.writingStartedAt,
  revisions,
  cancellation,
  dispute,
  promisedBy: placements.promisedBy,
  usuallyBy: placements.usuallyBy,
});

/**
 * Overdue (admins only): the brief is in and no draft came within the opportunity's turnaround
 * (`tatDays`, else DRAFT_DUE_DAYS_DEFAULT). It changes with time alone: the database judges it
 * against `clock_now()` on every read.
 */
const draftDueAt = sql`${briefs.submittedAt} + make_interval(days => coalesce(${opportunities.tatDays}, ${DRAFT_DUE_DAYS_DEFAULT}))`;
const awaitingDraft = sql`${placements.state} = 'in_progress' AND ${placements.draftReviewStatus} = 'awaiting_brand_brief'`;
const overdue: Computed<boolean> = {
  kind: 'computed',
  sql: sql`coalesce((${awaitingDraft} AND ${briefs.submittedAt} IS NOT NULL AND ${draftDueAt} < ${clockNowSql}), false)`,
  of: (rows) => {
    const p = rows.placements;
    const submittedAt = rows.briefs?.submittedAt as Date | null | undefined;
    if (!p || p.state !== 'in_progress' || p.draftReviewStatus !== 'awaiting_brand_brief' || !submittedAt) return false;
    const days = (rows.opportunities?.tatDays as number | null | undefined) ?? DRAFT_DUE_DAYS_DEFAULT;
    return submittedAt.getTime() + days * DAY_MS < clockNow().getTime();
  },
};

/**
 * The caller's side's unread messages of the placement (the other side's messages after its read
 * mark; the same rule as messages/service.ts `unreadByPayment`), counted by the list's statement.
 */
function unreadMessages(side: MessageSide): Computed<number> {
  return {
    kind: 'computed',
    sql: sql`(SELECT count(*)::int FROM ${placementMessages} WHERE ${placementMessages.placementId} = ${placements.id}
    AND ${placementMessages.side} = ${otherSide(side)}
    AND ${placementMessages.createdAt} > coalesce((SELECT ${conversationReads.readAt} FROM ${conversationReads}
      WHERE ${conversationReads.placementId} = ${placements.id} AND ${conversationReads.side} = ${side}), '-infinity'::timestamptz))`,
    of: () => {
      throw new Error('unread messages are counted by the database only');
    },
  };
}

/** Its editor (issue 59): the admin assigned, or null. */
const assignee: Computed<{ id: string; name: string } | null> = {
  kind: 'computed',
  sql: sql`(SELECT json_build_object('id', ${users.id}, 'name', coalesce(${users.name}, ${users.email})) FROM ${users} WHERE ${users.id} = ${placements.assigneeId})`,
  of: dbOnly,
};

/** An Admin Projects card: the brief shows once submitted (a brand's drafts are its own). */
export const adminPlacementItem = item({
  ...opportunityCard,
  payment: placementPaymentItem,
  brief: when(
    briefs.submittedAt,
    item({ part1Json: as<BriefPart1>(briefs.part1Json), part2Json: as<BriefPart2>(briefs.part2Json), submittedAt: as<string>(briefs.submittedAt) }),
  ),
  user: brandContact,
  organisation: organisationRef,
  client: clientRef,
  publication,
  overdue,
  unreadMessages: unreadMessages('admin'),
  orderId: payments.orderId,
  declined,
  writingStartedAt: placements.writingStartedAt,
  revisions,
  cancellation,
  dispute,
  assignee,
  promisedBy: placements.promisedBy,
  usuallyBy: placements.usuallyBy,
});

/**
 * The website a placement's link is looked for (what the check says "Link to" when it found none
 * to name): the client's first when it has any, else the buyer's (live-check.ts `linkTargets`).
 */
const linkWebsite: Computed<string | null> = {
  kind: 'computed',
  sql: sql`COALESCE(${orgClients.websites}[1], ${users.website})`,
  of: dbOnly,
};

/** A row of Admin Placements: a published placement and its health. */
export const livePlacementItem = item({
  paymentId: placements.id,
  title: opportunities.title,
  outletName: opportunities.outletName,
  brand: brandContact,
  organisation: organisationRef,
  client: clientRef,
  amount: payments.amount,
  refundedAmount: refundedAmountField,
  brandWebsite: linkWebsite,
  publishedAt: publications.publishedAt,
  nextCheckAt: publications.nextCheckAt,
  failingSince: publications.failingSince,
  publication: publicationItem,
});

// the definitions answer exactly the API's shapes (src/shared/schemas/brief.ts, src/shared/publication.ts)
const _itemTypesMatch: [
  Same<ItemOf<typeof placementPaymentItem>, PlacementPayment>,
  // with its amounts: a client reviewer's copy loses them on the way out (lib/amounts.ts); `life`
  // is appended to each item by life.ts `withLife`, for its viewer
  Same<ItemOf<typeof brandPlacementItem>, Omit<BuyersPlacementItem, 'life'>>,
  Same<ItemOf<typeof adminPlacementItem>, Omit<AdminPlacementItem, 'life'>>,
  Same<ItemOf<typeof publicationItem>, Publication>,
  Same<ItemOf<typeof livePlacementItem>, LivePlacementItem>,
] = [true, true, true, true, true];
