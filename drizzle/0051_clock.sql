-- Byline's clock (issue 59). The test clock's offset: one row, 0 unless an admin moved the time
-- forward while the portal runs with the built-in test checkout (never in production); every rule
-- that reads the time in SQL reads clock_now(), and the server's lib/clock.ts adds the same offset.
CREATE TABLE "test_clock" (
  "id" boolean PRIMARY KEY DEFAULT true CHECK ("id"),
  "offset_ms" bigint DEFAULT 0 NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
INSERT INTO "test_clock" DEFAULT VALUES;--> statement-breakpoint
CREATE FUNCTION clock_now() RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT now() + make_interval(secs => coalesce((SELECT offset_ms FROM test_clock), 0) / 1000.0)
$$;--> statement-breakpoint
-- The promise moves by the business days the brand held the placement past its own clocks (the
-- brief sent late, a review taken late): "Live by" is promised_by moved by promise_moved_days.
ALTER TABLE "placements" ADD COLUMN "promise_moved_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE FUNCTION live_by(promised_by timestamptz, moved_days integer) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN moved_days > 0 THEN add_business_days(promised_by, moved_days) ELSE promised_by END
$$;
