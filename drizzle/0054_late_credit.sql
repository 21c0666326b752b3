-- Credit without a claim (issue 59, decision 049). The three settings the database needs
-- (LATE_CREDIT_PERCENT, LATE_CREDIT_MAX_PERCENT, LATE_CANCEL_DAYS): one row, written by the server
-- at boot from its config (db/late-credit-settings.ts), so that a placement's life (the late cancel's
-- guard) reads the same threshold as the sweep.
CREATE TABLE "late_credit_settings" (
  "id" boolean PRIMARY KEY DEFAULT true CHECK ("id"),
  "percent" integer DEFAULT 2 NOT NULL,
  "max_percent" integer DEFAULT 20 NOT NULL,
  "cancel_days" integer DEFAULT 10 NOT NULL
);--> statement-breakpoint
INSERT INTO "late_credit_settings" DEFAULT VALUES;--> statement-breakpoint
-- Business days a placement not yet published is late at `at`: past its current "Live by"
-- (live_by, the promise moved by the brand's own delay), counted by UTC dates; 0 without a promise.
CREATE FUNCTION late_days(promised_by timestamptz, moved_days integer, at timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN promised_by IS NULL THEN 0 ELSE business_days_between(live_by(promised_by, moved_days), at) END
$$;--> statement-breakpoint
-- One credit per placement and business day late, claimed (with its part refund, payment_refunds)
-- before the provider is called: the primary key is what makes a day credited once across every
-- instance; the part refund's completion (completePendingPartialRefunds) finishes one a crash left.
CREATE TABLE "late_credits" (
  "placement_id" uuid NOT NULL REFERENCES "placements"("id") ON DELETE RESTRICT,
  "late_day" integer NOT NULL CHECK ("late_day" > 0),
  "refund_id" uuid NOT NULL REFERENCES "payment_refunds"("id") ON DELETE RESTRICT,
  "amount" numeric(12, 2) NOT NULL CHECK ("amount" > 0),
  "created_at" timestamp with time zone DEFAULT clock_now() NOT NULL,
  PRIMARY KEY ("placement_id", "late_day")
);--> statement-breakpoint
-- the sweep's and the reminder's read: placements in progress with a promise, by it (Live by is never
-- before promised_by, so "promised_by < t" narrows the read to the index before live_by is applied)
CREATE INDEX "placements_promised_by_idx" ON "placements" USING btree ("promised_by") WHERE state = 'in_progress' AND promised_by IS NOT NULL;--> statement-breakpoint
-- A purchase request's reminder before it expires, once (the conditional UPDATE that sets it sends it).
ALTER TABLE "purchase_requests" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
-- The record counts the promise: a placement with a promise is on time when it was published by
-- its "Live by" (live_by(promised_by, promise_moved_days)); one without keeps the old rule (the
-- listed turnaround after payment).
CREATE OR REPLACE FUNCTION outlet_delivery(outlet uuid, OUT delivered integer, OUT on_time_rate numeric) LANGUAGE sql STABLE AS $$
  SELECT count(*)::int,
    round(
      (count(*) FILTER (WHERE
        CASE WHEN pl.promised_by IS NOT NULL THEN pub.published_at <= live_by(pl.promised_by, pl.promise_moved_days)
             ELSE o.tat_days IS NOT NULL AND pub.published_at <= pay.paid_at + make_interval(days => o.tat_days) END))::numeric
        / nullif(count(*) FILTER (WHERE pl.promised_by IS NOT NULL OR o.tat_days IS NOT NULL), 0),
      3)
  FROM opportunities o
  JOIN payments pay ON pay.opportunity_id = o.id
  JOIN publications pub ON pub.placement_id = pay.id
  LEFT JOIN placements pl ON pl.id = pay.id
  WHERE o.outlet_id = outlet
$$;--> statement-breakpoint
SELECT refresh_outlet_delivery(id) FROM outlets WHERE delivered > 0 ORDER BY id;
