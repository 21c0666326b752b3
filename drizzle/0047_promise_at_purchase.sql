-- A promise at purchase (issue 59, decision 047). Business days are Monday to Friday in UTC, the
-- rule tests/support/business-days.ts models (tests/api/promise.test.ts checks both agree).
-- The moment itself on a weekday, else the Monday after at the same time.
CREATE FUNCTION next_business_day(t timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT t + make_interval(days => CASE extract(isodow FROM t AT TIME ZONE 'UTC')::int WHEN 6 THEN 2 WHEN 7 THEN 1 ELSE 0 END)
$$;--> statement-breakpoint
-- n business days after t, same time of day; from a weekend the count starts on Monday
CREATE FUNCTION add_business_days(t timestamptz, n integer) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT s + make_interval(days => (n / 5) * 7 + n % 5
    + CASE WHEN extract(isodow FROM s AT TIME ZONE 'UTC')::int - 1 + n % 5 >= 5 THEN 2 ELSE 0 END)
  FROM (SELECT next_business_day(t) AS s) x
$$;--> statement-breakpoint
-- weekdays from Monday 1970-01-05 up to and including the UTC date d
CREATE FUNCTION weekdays_through(d date) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT 5 * floor((d - date '1970-01-05') / 7.0)::int + least(extract(isodow FROM d)::int, 5)
$$;--> statement-breakpoint
-- whole business days from a to b by their UTC dates, a on a weekend counting from the Monday after; 0 when b is not after a
CREATE FUNCTION business_days_between(a timestamptz, b timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT greatest(weekdays_through((b AT TIME ZONE 'UTC')::date) - weekdays_through((next_business_day(a) AT TIME ZONE 'UTC')::date), 0)
$$;--> statement-breakpoint
-- The two settings the database needs (PROMISE_MIN_DELIVERIES, BRIEF_DAYS): one row, written by
-- the server at boot from its config (db/promise-settings.ts), so that the record and the
-- placements' trigger follow the settings without the fulfilment code passing them in.
CREATE TABLE "promise_settings" (
  "id" boolean PRIMARY KEY DEFAULT true CHECK ("id"),
  "min_deliveries" integer DEFAULT 5 NOT NULL,
  "brief_days" integer DEFAULT 3 NOT NULL
);--> statement-breakpoint
INSERT INTO "promise_settings" DEFAULT VALUES;--> statement-breakpoint
-- The record counts the promise: business days from the brief's submission to publication over
-- the outlet's last 50 deliveries, P50 and P90 (rounded up to whole days); null below the minimum.
ALTER TABLE "outlets" ADD COLUMN "promise_p50_days" integer;--> statement-breakpoint
ALTER TABLE "outlets" ADD COLUMN "promise_p90_days" integer;--> statement-breakpoint
CREATE FUNCTION outlet_promise(outlet uuid, OUT p50 integer, OUT p90 integer) LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN count(*) >= (SELECT min_deliveries FROM promise_settings) THEN ceil(percentile_cont(0.5) WITHIN GROUP (ORDER BY d.days))::int END,
         CASE WHEN count(*) >= (SELECT min_deliveries FROM promise_settings) THEN ceil(percentile_cont(0.9) WITHIN GROUP (ORDER BY d.days))::int END
  FROM (
    SELECT business_days_between(b.submitted_at, pub.published_at) AS days
    FROM opportunities o
    JOIN placements pl ON pl.opportunity_id = o.id
    JOIN publications pub ON pub.placement_id = pl.id
    JOIN briefs b ON b.placement_id = pl.id AND b.submitted_at IS NOT NULL
    WHERE o.outlet_id = outlet
    ORDER BY pub.published_at DESC
    LIMIT 50
  ) d
$$;--> statement-breakpoint
-- 0035's refresh writes the promise beside the rest of the record (same lock, same triggers)
CREATE OR REPLACE FUNCTION refresh_outlet_delivery(outlet uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF outlet IS NULL THEN RETURN; END IF;
  PERFORM 1 FROM outlets WHERE id = outlet FOR UPDATE;
  UPDATE outlets x SET (delivered, on_time_rate) = (SELECT d.delivered, d.on_time_rate FROM outlet_delivery(outlet) d) WHERE x.id = outlet;
  UPDATE outlets x SET (promise_p50_days, promise_p90_days) = (SELECT p.p50, p.p90 FROM outlet_promise(outlet) p) WHERE x.id = outlet;
END
$$;--> statement-breakpoint
-- the minimum changed (a new setting at boot): every outlet with deliveries is counted again
CREATE FUNCTION promise_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_outlet_delivery(id) FROM outlets WHERE delivered > 0 ORDER BY id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER promise_settings_min_deliveries AFTER UPDATE ON promise_settings
  FOR EACH ROW WHEN (OLD.min_deliveries IS DISTINCT FROM NEW.min_deliveries) EXECUTE FUNCTION promise_settings_changed();--> statement-breakpoint
-- A placement's promise, fixed when it is made (at payment) and never moved after: "Live by"
-- (promised_by, the P90 date), "usually by" (usually_by, the P50 date; record only), and its basis.
ALTER TABLE "placements" ADD COLUMN "promised_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "usually_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "promise_basis" text;--> statement-breakpoint
-- the promise of an opportunity (its listed turnaround, its outlet) bought at `at`: the brief's
-- BRIEF_DAYS business days, then the outlet's P90 (P50) business days when it has a record, else
-- the listed turnaround in calendar days moved to the next business day; none without either.
-- tests/support/business-days.ts promiseOf is the tests' model of it.
CREATE FUNCTION promise_at(tat_days integer, outlet uuid, at timestamptz, OUT promised_by timestamptz, OUT usually_by timestamptz, OUT basis text)
LANGUAGE sql STABLE AS $$
  SELECT
    CASE WHEN x.promise_p90_days IS NOT NULL THEN add_business_days(s.brief_by, x.promise_p90_days)
         WHEN tat_days IS NOT NULL THEN next_business_day(s.brief_by + make_interval(days => tat_days)) END,
    CASE WHEN x.promise_p90_days IS NOT NULL THEN add_business_days(s.brief_by, x.promise_p50_days) END,
    CASE WHEN x.promise_p90_days IS NOT NULL THEN 'record' WHEN tat_days IS NOT NULL THEN 'listed' END
  FROM (SELECT add_business_days(at, brief_days) AS brief_by FROM promise_settings) s
  LEFT JOIN outlets x ON x.id = outlet
$$;--> statement-breakpoint
-- the same as the cards' JSON (`promise`): null when there is none
CREATE FUNCTION promise_json(tat_days integer, outlet uuid, at timestamptz) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p.basis IS NOT NULL THEN json_build_object(
    'liveBy', to_char(p.promised_by AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'usuallyBy', to_char(p.usually_by AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'basis', p.basis) END
  FROM promise_at(tat_days, outlet, at) p
$$;--> statement-breakpoint
CREATE FUNCTION placement_promise() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT p.promised_by, p.usually_by, p.basis INTO NEW.promised_by, NEW.usually_by, NEW.promise_basis
  FROM opportunities o CROSS JOIN LATERAL promise_at(o.tat_days, o.outlet_id, NEW.created_at) p
  WHERE o.id = NEW.opportunity_id;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER placements_promise BEFORE INSERT ON placements
  FOR EACH ROW EXECUTE FUNCTION placement_promise();--> statement-breakpoint
SELECT refresh_outlet_delivery(id) FROM outlets WHERE delivered > 0 ORDER BY id;
