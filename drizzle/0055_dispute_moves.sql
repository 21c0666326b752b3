-- Dispute moves in the table (issue 58, decision 050). DISPUTE_DAYS where SQL reads it: one row,
-- written by the server at boot from its config (db/dispute-settings.ts), so that a placement's
-- life (the content dispute's window, a guard of shared/placement-machine.ts) reads the same days.
CREATE TABLE "dispute_settings" (
  "id" boolean PRIMARY KEY DEFAULT true CHECK ("id"),
  "dispute_days" integer DEFAULT 7 NOT NULL
);--> statement-breakpoint
INSERT INTO "dispute_settings" DEFAULT VALUES;
--> statement-breakpoint
-- The money copies go (decision 050): what a dispute's resolution or a cancellation's grant gave
-- back is read from its movement on the ledger (ledger.ts disputeRefundedSql, cancellationAmountSql).
-- First every row that gave money back refers to its movement, as 0044 linked them (a part by its
-- request: same placement, reason and amount; a full refund: the payment's one refund without a
-- request), now also a link dispute settled by the publication watch (its refund's reason is
-- not_restored) and a row 0044 found no movement for then (a full refund the provider made later).
UPDATE "cancellations" c SET "movement_id" = (
  SELECT m.id FROM money_movements m
  WHERE m.placement_id = c.placement_id AND m.reason = 'cancelled' AND m.kind = 'refund'
    AND (c.outcome = 'refund_full' AND m.refund_id IS NULL OR c.outcome = 'refund_partial' AND m.refund_id IS NOT NULL AND m.amount = c.amount)
    AND NOT EXISTS (SELECT 1 FROM cancellations o WHERE o.movement_id = m.id)
  ORDER BY m.created_at LIMIT 1)
WHERE c.movement_id IS NULL AND c.status = 'granted' AND c.amount > 0;--> statement-breakpoint
UPDATE "disputes" d SET "movement_id" = (
  SELECT m.id FROM money_movements m
  WHERE m.placement_id = d.placement_id AND m.kind = 'refund'
    AND (d.resolution = 'refunded_full' AND m.refund_id IS NULL AND m.reason IN ('dispute', 'not_restored')
      OR d.resolution = 'refunded_partial' AND m.refund_id IS NOT NULL AND m.reason = 'dispute' AND m.amount = d.refunded)
    AND NOT EXISTS (SELECT 1 FROM disputes o WHERE o.movement_id = m.id)
  ORDER BY m.created_at LIMIT 1)
WHERE d.movement_id IS NULL AND d.refunded > 0;--> statement-breakpoint
-- Nothing saved is lost: an amount whose movement could not be found stops the migration here
-- (nothing is dropped; the transaction rolls back) instead of vanishing with its column.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM "cancellations" WHERE "movement_id" IS NULL AND "status" = 'granted' AND "amount" > 0)
    OR EXISTS (SELECT 1 FROM "disputes" WHERE "movement_id" IS NULL AND "refunded" > 0) THEN
    RAISE EXCEPTION 'drizzle/0055: a granted cancellation or a refunded dispute has an amount but no ledger movement; link it (movement_id) before this migration drops the copies';
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "disputes" DROP COLUMN "refunded";--> statement-breakpoint
ALTER TABLE "cancellations" DROP COLUMN "amount";
