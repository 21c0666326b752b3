/**
 * The admins' "Needs attention" list (issue 19): each placement that waits on the editorial team,
 * with why. GET /api/admin/attention answers {@link AttentionList}.
 */

/** Days before the automatic guarantee refund from which a held payment is listed. */
export const GUARANTEE_NEAR_DAYS = 14;

/** The most placements the list answers; `total` counts them all. */
export const ATTENTION_LIMIT = 200;

/** Why a placement is listed (a placement may have several reasons at once). */
export type AttentionReason =
  /** the brand's messages the team has not read */
  | { kind: 'unread_messages'; count: number }
  /** the brief is in and no draft came within the opportunity's turnaround; `dueAt` was the deadline */
  | { kind: 'overdue'; dueAt: string }
  /** the brand asked for edits of the draft */
  | { kind: 'edits_requested' }
  /** the brand approved the draft and it is not published yet */
  | { kind: 'approved_unpublished' }
  /** the payment is still held and the guarantee refunds it automatically on `refundAt` */
  | { kind: 'guarantee_near'; refundAt: string }
  /** a confirmed problem with the live article: the outlet must restore it by `restoreBy` */
  | { kind: 'open_case'; restoreBy: string };

export interface AttentionItem {
  paymentId: string;
  title: string;
  outletName: string;
  brand: { id: string; name: string | null; brandName: string | null; email: string };
  amount: string;
  paidAt: string;
  reasons: AttentionReason[];
  /** when the placement began to wait on the team (its oldest present reason) */
  since: string;
}

export interface AttentionList {
  /** every placement that needs attention, also those past the first {@link ATTENTION_LIMIT} */
  total: number;
  /** the most urgent first (modules/attention/service.ts) */
  items: AttentionItem[];
}
