-- One money ledger (issue 58, decision 041): every amount of money that moved between a brand and
-- Byline is one row of money_movements, appended in the transaction that moves it and never changed.
-- `amount` is positive; the direction is the kind's: a `charge` is money in (a payment, a swap's
-- top-up: a payment of its own); a `refund` (full or part) and a `swap_difference` (a cheaper swap's
-- difference given back) are money out to the brand; `credit` (money out, kept as credit) and
-- `payout` (to a publisher: not the brand's money) are room for later and counted by no total yet.
CREATE TABLE "money_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"placement_id" uuid,
	"kind" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"refund_id" uuid,
	"reason" text,
	"provider_ref" text,
	"recorded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "money_movements_kind" CHECK (kind IN ('charge', 'refund', 'swap_difference', 'credit', 'payout')),
	CONSTRAINT "money_movements_amount_positive" CHECK (amount > 0),
	CONSTRAINT "money_movements_refund_is_out" CHECK (refund_id IS NULL OR kind IN ('refund', 'swap_difference'))
);--> statement-breakpoint
ALTER TABLE "money_movements" ADD CONSTRAINT "money_movements_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_movements" ADD CONSTRAINT "money_movements_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_movements" ADD CONSTRAINT "money_movements_refund_id_payment_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."payment_refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_movements" ADD CONSTRAINT "money_movements_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "money_movements_payment_idx" ON "money_movements" USING btree ("payment_id","kind","amount");--> statement-breakpoint
CREATE INDEX "money_movements_placement_idx" ON "money_movements" USING btree ("placement_id","created_at");--> statement-breakpoint
-- one charge per payment; one movement per part refund
CREATE UNIQUE INDEX "money_movements_one_charge" ON "money_movements" USING btree ("payment_id") WHERE kind = 'charge';--> statement-breakpoint
CREATE UNIQUE INDEX "money_movements_one_per_refund" ON "money_movements" USING btree ("refund_id") WHERE refund_id IS NOT NULL;--> statement-breakpoint
-- Backfill: the ledger says what the columns and rows said. Each payment's charge (every status is
-- charged: paid, released, refunded; a top-up too, of the placement it tops up) ...
INSERT INTO "money_movements" ("payment_id", "placement_id", "kind", "amount", "provider_ref", "recorded_by", "created_at")
SELECT p.id, pl.id, 'charge', p.amount, p.stripe_payment_id, NULL, p.paid_at
FROM "payments" p LEFT JOIN "placements" pl ON pl.payment_id = coalesce(p.topup_of, p.id)
WHERE p.amount > 0;--> statement-breakpoint
-- ... each part refund (a swap's difference, an admin's, a cancellation's or a dispute's part) ...
INSERT INTO "money_movements" ("payment_id", "placement_id", "kind", "amount", "refund_id", "reason", "provider_ref", "recorded_by", "created_at")
SELECT r.payment_id, pl.id, CASE WHEN r.reason = 'swap' THEN 'swap_difference' ELSE 'refund' END, r.amount, r.id, r.reason,
  r.provider_refund_id, r.requested_by, r.created_at
FROM "payment_refunds" r JOIN "payments" p ON p.id = r.payment_id
LEFT JOIN "placements" pl ON pl.payment_id = coalesce(p.topup_of, p.id)
WHERE r.amount > 0;--> statement-breakpoint
-- ... and the full refund: what refunded_amount holds beyond the parts (a payment closed by a part
-- refund, a cancellation's, has none)
INSERT INTO "money_movements" ("payment_id", "placement_id", "kind", "amount", "reason", "provider_ref", "recorded_by", "created_at")
SELECT p.id, pl.id, 'refund', p.refunded_amount - coalesce(r.parts, 0), p.refund_reason, p.provider_refund_id, NULL,
  coalesce(p.refunded_at, p.refund_requested_at, p.paid_at)
FROM "payments" p
LEFT JOIN (SELECT payment_id, sum(amount) AS parts FROM "payment_refunds" GROUP BY payment_id) r ON r.payment_id = p.id
LEFT JOIN "placements" pl ON pl.payment_id = coalesce(p.topup_of, p.id)
WHERE p.refunded_amount - coalesce(r.parts, 0) > 0;--> statement-breakpoint
-- Append-only: a movement is never changed or removed (a mistake is corrected by a movement of its own)
CREATE FUNCTION money_movements_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'money_movements is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER money_movements_append_only BEFORE UPDATE OR DELETE ON "money_movements"
  FOR EACH ROW EXECUTE FUNCTION money_movements_append_only();--> statement-breakpoint
CREATE TRIGGER money_movements_no_truncate BEFORE TRUNCATE ON "money_movements"
  FOR EACH STATEMENT EXECUTE FUNCTION money_movements_append_only();--> statement-breakpoint
-- What the claim (payments/ledger.ts claimRefund) guarantees, kept by the database as well: a
-- payment never gives back more than was charged for it. The payment's row is locked first, so two
-- refunds of one payment at once queue, and the second sums what the first appended.
CREATE FUNCTION money_movements_within_charge() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE charged numeric; refunded numeric;
BEGIN
  IF NEW.kind NOT IN ('refund', 'swap_difference') THEN RETURN NEW; END IF;
  PERFORM 1 FROM payments WHERE id = NEW.payment_id FOR NO KEY UPDATE;
  SELECT coalesce(sum(amount) FILTER (WHERE kind = 'charge'), 0), coalesce(sum(amount) FILTER (WHERE kind IN ('refund', 'swap_difference')), 0)
    INTO charged, refunded FROM money_movements WHERE payment_id = NEW.payment_id;
  IF refunded + NEW.amount > charged THEN
    RAISE EXCEPTION 'refund of % beyond what is left of payment % (% of %)', NEW.amount, NEW.payment_id, charged - refunded, charged
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER money_movements_within_charge BEFORE INSERT ON "money_movements"
  FOR EACH ROW EXECUTE FUNCTION money_movements_within_charge();--> statement-breakpoint
-- The one place every amount of a payment is derived from: what was charged, what went back to the
-- brand (refunds and swap differences) and what is left to refund, in numeric dollars.
CREATE VIEW "payment_money" AS
SELECT m.payment_id,
  coalesce(sum(m.amount) FILTER (WHERE m.kind = 'charge'), 0)::numeric(14, 2) AS charged,
  coalesce(sum(m.amount) FILTER (WHERE m.kind IN ('refund', 'swap_difference')), 0)::numeric(14, 2) AS refunded,
  (coalesce(sum(m.amount) FILTER (WHERE m.kind = 'charge'), 0)
    - coalesce(sum(m.amount) FILTER (WHERE m.kind IN ('refund', 'swap_difference')), 0))::numeric(14, 2) AS left_to_refund
FROM "money_movements" m
GROUP BY m.payment_id;
--> statement-breakpoint
-- A dispute's and a cancellation's refund: the ledger's movement (a part's at its claim, a full
-- refund's when it is recorded), instead of only a copy of its amount
ALTER TABLE "disputes" ADD COLUMN "movement_id" uuid;--> statement-breakpoint
ALTER TABLE "cancellations" ADD COLUMN "movement_id" uuid;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_movement_id_money_movements_id_fk" FOREIGN KEY ("movement_id") REFERENCES "public"."money_movements"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cancellations" ADD CONSTRAINT "cancellations_movement_id_money_movements_id_fk" FOREIGN KEY ("movement_id") REFERENCES "public"."money_movements"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
-- backfill: a part refund is found by its request (same payment, reason, amount, at the answer);
-- a full refund is the payment's one refund without a request
UPDATE "cancellations" c SET "movement_id" = (
  SELECT m.id FROM money_movements m
  WHERE m.placement_id = c.placement_id AND m.reason = 'cancelled' AND m.kind = 'refund'
    AND (c.outcome = 'refund_full' AND m.refund_id IS NULL OR c.outcome = 'refund_partial' AND m.refund_id IS NOT NULL AND m.amount = c.amount)
  ORDER BY m.created_at LIMIT 1)
WHERE c.status = 'granted' AND c.outcome IN ('refund_full', 'refund_partial');--> statement-breakpoint
UPDATE "disputes" d SET "movement_id" = (
  SELECT m.id FROM money_movements m
  WHERE m.placement_id = d.placement_id AND m.reason = 'dispute' AND m.kind = 'refund'
    AND (d.resolution = 'refunded_full' AND m.refund_id IS NULL OR d.resolution = 'refunded_partial' AND m.refund_id IS NOT NULL AND m.amount = d.refunded)
  ORDER BY m.created_at LIMIT 1)
WHERE d.resolution IN ('refunded_full', 'refunded_partial');
