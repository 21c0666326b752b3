import { eq, sql } from 'drizzle-orm';
import { guaranteeRefundAt } from '../../shared/constants';
import { fromCents, toCents } from '../../shared/money';
import { opportunities, payments, placements, users } from '../db/schema';
import { enqueueAdminMail, enqueueMail, type Tx } from './outbox';
import type { DeadlineStep, MailData, PlacementFacts } from './templates';

/**
 * One call per event, with the `tx` of the change: each gathers the facts its mails need and
 * queues them (see outbox.ts). A placement's mails are called by modules/timeline/effects.ts only,
 * from the placement's timeline entry (decision 045); the account's (sign-up, approval) by the
 * service where the change happens, and a cart's order receipt by the order's.
 */

async function placement(tx: Tx, paymentId: string) {
  const [row] = await tx
    .select({
      paymentId: placements.id,
      brandId: placements.brandId,
      assigneeId: placements.assigneeId,
      title: opportunities.title,
      outlet: opportunities.outletName,
      amount: payments.amount,
      paidAt: payments.paidAt,
      providerRef: payments.stripePaymentId,
      refundReason: payments.refundReason,
      feedback: placements.brandFeedback,
      brand: sql<string>`COALESCE(${users.brandName}, ${users.name}, ${users.email})`,
      brandEmail: users.email,
    })
    .from(placements)
    .innerJoin(payments, eq(payments.id, placements.paymentId))
    .innerJoin(opportunities, eq(opportunities.id, placements.opportunityId))
    .innerJoin(users, eq(users.id, placements.brandId))
    .where(eq(placements.id, paymentId));
  return row;
}

type Brand = { id: string; name: string | null; brandName: string | null; email: string; website: string | null };

/** Profile completed without an invite code: the brand is told it is under review, the admins that it waits. */
export async function notifyBrandSignedUp(tx: Tx, brand: Brand) {
  const name = brand.name ?? '';
  const brandName = brand.brandName ?? name;
  await enqueueMail(tx, { userId: brand.id }, { kind: 'signup_received', name, brandName });
  await enqueueAdminMail(tx, { kind: 'admin_new_brand', name, brandName, email: brand.email, website: brand.website ?? '' });
}

export async function notifyBrandApproved(tx: Tx, brand: Brand, viaInviteCode: boolean) {
  await enqueueMail(tx, { userId: brand.id }, { kind: 'brand_approved', name: brand.name ?? '', viaInviteCode });
}

/** A new `paid` payment that holds its slot: the receipt to the brand, the news to the admins. */
export async function notifyPaymentReceived(tx: Tx, paymentId: string, invoiceNumber?: string | null) {
  const p = await placement(tx, paymentId);
  if (!p) return;
  const guarantee = guaranteeRefundAt(p.paidAt);
  const base = { paymentId: p.paymentId, outlet: p.outlet, title: p.title };
  await enqueueMail(tx, { userId: p.brandId }, {
    kind: 'payment_received',
    ...base,
    amount: p.amount,
    paidAt: p.paidAt.toISOString(),
    providerRef: p.providerRef,
    guaranteeDate: guarantee.toISOString(),
    // the invoice goes with the receipt (outbox.ts attaches its PDF when the mail is sent)
    ...(invoiceNumber ? { invoiceNumber } : {}),
  });
  await enqueueAdminMail(tx, { kind: 'admin_new_placement', ...base, brand: p.brand, brandEmail: p.brandEmail, amount: p.amount, providerRef: p.providerRef });
}

/**
 * A cart's order paid (issue 46): one receipt with its lines and the order's invoice, one mail to
 * the admins. Lines sold out while paying are left out: each gets its refund mail.
 */
export async function notifyOrderReceived(tx: Tx, orderId: string, invoiceNumber?: string | null) {
  const rows = await tx
    .select({
      paymentId: payments.id,
      brandId: payments.brandId,
      title: opportunities.title,
      outlet: opportunities.outletName,
      amount: payments.amount,
      paidAt: payments.paidAt,
      providerRef: payments.stripePaymentId,
      holdsSlot: payments.holdsSlot,
      brand: sql<string>`COALESCE(${users.brandName}, ${users.name}, ${users.email})`,
      brandEmail: users.email,
    })
    .from(payments)
    .innerJoin(opportunities, eq(opportunities.id, payments.opportunityId))
    .innerJoin(users, eq(users.id, payments.brandId))
    .where(eq(payments.orderId, orderId))
    .orderBy(opportunities.outletName, payments.id);
  const held = rows.filter((r) => r.holdsSlot);
  if (!held.length) return;
  const [p] = held;
  const lines = held.map((r) => ({ title: r.title, outlet: r.outlet, amount: r.amount }));
  const amount = fromCents(held.reduce((sum, r) => sum + toCents(r.amount), 0));
  await enqueueMail(tx, { userId: p.brandId }, {
    kind: 'order_received',
    orderId,
    paymentId: p.paymentId,
    lines,
    amount,
    paidAt: p.paidAt.toISOString(),
    providerRef: p.providerRef,
    guaranteeDate: guaranteeRefundAt(p.paidAt).toISOString(),
    ...(invoiceNumber ? { invoiceNumber } : {}),
  });
  await enqueueAdminMail(tx, { kind: 'admin_new_order', orderId, brand: p.brand, brandEmail: p.brandEmail, lines, amount, providerRef: p.providerRef });
}

export async function notifyRefunded(
  tx: Tx,
  paymentId: string,
  {
    toAdmins = false,
    amount,
    note,
    lateDay,
  }: {
    toAdmins?: boolean;
    /** a late credit (issue 59): the business day late it credits */
    lateDay?: number;
    /** what was given back (a part refund's amount, or what a full refund gave after parts); default: the amount charged */
    amount?: string;
    /** a part refund (issue 47), with the reason the admin wrote */
    note?: string | null;
  } = {},
) {
  const p = await placement(tx, paymentId);
  if (!p) return;
  const partial = note !== undefined;
  const base = {
    paymentId: p.paymentId,
    outlet: p.outlet,
    title: p.title,
    amount: amount ?? p.amount,
    reason: p.refundReason ?? 'admin',
    ...(partial ? { partial: true, note: note ?? null } : {}),
    ...(lateDay ? { lateDay } : {}),
  };
  await enqueueMail(tx, { userId: p.brandId }, { kind: 'refund_issued', ...base });
  // a published placement refunded (its article gone): the admins are told too
  if (toAdmins) await enqueueAdminMail(tx, { kind: 'admin_publication_refunded', ...base, brand: p.brand });
}

/** A mail about one placement (it names the placement: its id, outlet and title). */
type PlacementMail = Extract<MailData, PlacementFacts>;
/**
 * What a caller gives beyond what the placement's row says: the kind's fields past its placement's,
 * less the brand's name (an admin's mail), the amount (published) and the brand's feedback (edits requested).
 */
type ExtraOf<K extends PlacementMail['kind']> = Omit<
  Extract<MailData, { kind: K }>,
  'kind' | keyof PlacementFacts | 'brand' | (K extends 'published' ? 'amount' : never) | (K extends 'admin_edits_requested' ? 'feedback' : never)
>;

/**
 * The reviewers limited to the client a placement was bought for (decision 035), its buyer aside:
 * the people a draft waits on besides the buyer.
 */
async function clientReviewersOf(tx: Tx, paymentId: string): Promise<{ id: string }[]> {
  return tx
    .select({ id: users.id })
    .from(placements)
    .innerJoin(users, eq(users.organisationId, placements.organisationId))
    .where(
      sql`${placements.id} = ${paymentId} AND ${placements.clientId} IS NOT NULL AND ${users.orgRole} = 'reviewer'
        AND ${placements.clientId} = ANY(${users.clientIds}) AND ${users.id} <> ${placements.brandId}`,
    );
}

/**
 * A placement's mail, read off templates.ts (decision 045): an `admin_` kind to every admin with the
 * brand's name; any other kind to the brand and the client's reviewers (decision 035), but
 * `published` to the brand only, with its amount. A new template is sent from its timeline entry's
 * row (timeline/effects.ts) with no change here: its fields beyond the placement's are `extra`.
 */
export async function notifyPlacement<K extends PlacementMail['kind']>(
  tx: Tx,
  paymentId: string,
  kind: K,
  ...[extra]: Record<string, never> extends ExtraOf<K> ? [extra?: ExtraOf<K>] : [extra: ExtraOf<K>]
) {
  const p = await placement(tx, paymentId);
  if (!p) return;
  const base = { paymentId: p.paymentId, outlet: p.outlet, title: p.title };
  const more = extra ?? {};
  if (kind === 'published') {
    await enqueueMail(tx, { userId: p.brandId }, { kind, ...base, amount: p.amount, ...more } as MailData);
    return;
  }
  if (kind === 'admin_edits_requested') {
    await enqueueAdminMail(tx, { kind, ...base, brand: p.brand, feedback: p.feedback });
    return;
  }
  if (kind.startsWith('admin_')) {
    await enqueueAdminMail(tx, { kind, ...base, brand: p.brand, ...more } as MailData);
    return;
  }
  const data = { kind, ...base, ...more } as MailData;
  await enqueueMail(tx, { userId: p.brandId }, data);
  // the client's own reviewers review it too (decision 035); these mails carry no amount
  for (const reviewer of await clientReviewersOf(tx, paymentId)) await enqueueMail(tx, { userId: reviewer.id }, data);
}

/** A confirmed problem with a live article, to the brand and to the admins. */
export async function notifyPublicationIssue(tx: Tx, paymentId: string, facts: { liveUrl: string; reason: string; restoreBy: string }) {
  const p = await placement(tx, paymentId);
  if (!p) return;
  const base = { paymentId: p.paymentId, outlet: p.outlet, title: p.title, ...facts };
  await enqueueMail(tx, { userId: p.brandId }, { kind: 'publication_issue', ...base, forAdmin: false });
  await enqueueAdminMail(tx, { kind: 'publication_issue', ...base, forAdmin: true });
}

/** A live article back after a case: both sides are told it is closed. */
export async function notifyPublicationRestored(tx: Tx, paymentId: string, liveUrl: string) {
  const p = await placement(tx, paymentId);
  if (!p) return;
  const base = { paymentId: p.paymentId, outlet: p.outlet, title: p.title, liveUrl };
  await enqueueMail(tx, { userId: p.brandId }, { kind: 'publication_restored', ...base, forAdmin: false });
  await enqueueAdminMail(tx, { kind: 'publication_restored', ...base, forAdmin: true });
}


/**
 * A step of the fair terms (issue 47): an extra revision or a cancellation asked for (to the
 * admins) or answered (to the brand), in the change's transaction.
 */
export async function notifyTermsUpdate(
  tx: Tx,
  paymentId: string,
  to: 'brand' | 'admins',
  /** with the words for a reader who sees no amounts, when the headline names one (issue 57) */
  headline: string | { text: string; withoutAmount: string },
  detail: string | null = null,
) {
  const p = await placement(tx, paymentId);
  if (!p) return;
  const words = typeof headline === 'string' ? { headline } : { headline: headline.text, headlineWithoutAmount: headline.withoutAmount };
  const data = { kind: 'terms_update' as const, paymentId: p.paymentId, outlet: p.outlet, title: p.title, ...words, detail, forAdmin: to === 'admins' };
  if (to === 'admins') await enqueueAdminMail(tx, data);
  else await enqueueMail(tx, { userId: p.brandId }, data);
}

/** Declined by the outlet before writing (issue 46): the brand may choose an alternative until `swapBy`. */
export async function notifyDeclined(tx: Tx, paymentId: string, facts: { reason: string; swapBy: string }) {
  const p = await placement(tx, paymentId);
  if (!p) return;
  await enqueueMail(tx, { userId: p.brandId }, { kind: 'placement_declined', paymentId: p.paymentId, title: p.title, outlet: p.outlet, ...facts });
}

/** A timer's reminder to the brand (issue 19): the brief not submitted, or a draft waiting for its review. */
export async function notifyReminder(
  tx: Tx,
  paymentId: string,
  reminder: { kind: 'brief_reminder' } | { kind: 'review_reminder'; autoApproveOn: string | null },
) {
  const p = await placement(tx, paymentId);
  if (!p) return;
  const base = { paymentId: p.paymentId, title: p.title, outlet: p.outlet };
  if (reminder.kind === 'brief_reminder') await enqueueMail(tx, { userId: p.brandId }, { kind: 'brief_reminder', ...base, paidAt: p.paidAt.toISOString() });
  else await enqueueMail(tx, { userId: p.brandId }, { kind: 'review_reminder', ...base, autoApproveOn: reminder.autoApproveOn });
}

/**
 * An automatic step is near (issue 59): the side that can still act is told. The team's steps go
 * to the placement's editor (issue 59), or to every admin when it has none; the swap's to the brand.
 */
export async function notifyDeadlineReminder(tx: Tx, paymentId: string, step: DeadlineStep, at: string) {
  const p = await placement(tx, paymentId);
  if (!p) return;
  const data = { kind: 'deadline_reminder' as const, paymentId: p.paymentId, title: p.title, outlet: p.outlet, step, at };
  if (step === 'swap' || step === 'dispute_escalate') await enqueueMail(tx, { userId: p.brandId }, data);
  // an escalated dispute is decided by an admin who neither published nor answered it: every admin is told
  else if (step === 'dispute_decide') await enqueueAdminMail(tx, data);
  else if (p.assigneeId) await enqueueMail(tx, { userId: p.assigneeId }, data);
  else await enqueueAdminMail(tx, data);
}

/** A draft approved by Byline after waiting AUTO_APPROVE_DAYS (issue 19): both sides are told. */
export async function notifyAutoApproved(tx: Tx, paymentId: string) {
  const p = await placement(tx, paymentId);
  if (!p) return;
  const base = { paymentId: p.paymentId, title: p.title, outlet: p.outlet };
  await enqueueMail(tx, { userId: p.brandId }, { kind: 'auto_approved', ...base, forAdmin: false });
  await enqueueAdminMail(tx, { kind: 'auto_approved', ...base, forAdmin: true });
}
