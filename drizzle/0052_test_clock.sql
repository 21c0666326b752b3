-- The test clock (issue 59): the times a rule later reads are written in Byline's time, so a row
-- made after the test clock moved forward is as old as its rules think. clock_now() is now()
-- outside test mode (the offset is 0 there), so production rows are unchanged.
ALTER TABLE "payments" ALTER COLUMN "paid_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "checkouts" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "placements" ALTER COLUMN "state_since" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "briefs" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "briefs" ALTER COLUMN "updated_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "publications" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "publications" ALTER COLUMN "updated_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "placement_events" ALTER COLUMN "at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "placement_messages" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "payment_refunds" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "money_movements" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "purchase_requests" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "revision_requests" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "cancellations" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "disputes" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "created_at" SET DEFAULT clock_now();--> statement-breakpoint
-- a placement's state changes at Byline's time (drizzle/0045 read now())
CREATE OR REPLACE FUNCTION placement_state_since() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  submitted boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.state_since := NEW.created_at;
    RETURN NEW;
  END IF;
  submitted := EXISTS (SELECT 1 FROM briefs WHERE placement_id = NEW.id AND submitted_at IS NOT NULL);
  IF placement_life_state(OLD.state, OLD.draft_review_status, submitted, OLD.declined_at IS NOT NULL)
     IS DISTINCT FROM placement_life_state(NEW.state, NEW.draft_review_status, submitted, NEW.declined_at IS NOT NULL) THEN
    NEW.state_since := clock_now();
  END IF;
  RETURN NEW;
END
$$;
