-- One money ledger, step two (issue 58, decision 041): `payments` keeps no refunded amount of its
-- own. What went back of a payment is the sum of its refunds on the ledger (`payment_money.refunded`).
-- Backfill first: a payment whose refunded_amount says more than its refunds on the ledger (a row
-- written by hand, or by code older than the ledger) gets the difference as a refund of its own, so
-- every total reads the same after the column is gone.
INSERT INTO "money_movements" ("payment_id", "placement_id", "kind", "amount", "reason", "provider_ref", "recorded_by", "created_at")
SELECT p.id, pl.id, 'refund', p.refunded_amount - coalesce(pm.refunded, 0), p.refund_reason, p.provider_refund_id, NULL,
  coalesce(p.refunded_at, p.refund_requested_at, p.paid_at)
FROM "payments" p
LEFT JOIN "payment_money" pm ON pm.payment_id = p.id
LEFT JOIN "placements" pl ON pl.payment_id = coalesce(p.topup_of, p.id)
WHERE p.refunded_amount > coalesce(pm.refunded, 0);--> statement-breakpoint
-- the organisation's escrow balance: still an index-only scan of its held payments, whose refunds
-- are summed from money_movements_refunds_idx
DROP INDEX "payments_org_held_idx";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "refunded_amount";--> statement-breakpoint
CREATE INDEX "payments_org_held_idx" ON "payments" USING btree ("organisation_id","amount","id") WHERE status = 'paid';--> statement-breakpoint
-- what went back of one payment, summed from the index alone (payments/ledger.ts refundedOf)
CREATE INDEX "money_movements_refunds_idx" ON "money_movements" USING btree ("payment_id","amount") WHERE kind IN ('refund', 'swap_difference');
