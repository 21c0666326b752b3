-- Stage clocks (issue 59, decision 048). Each stage of a placement's work has a side that owes it
-- and a due time, kept on the placement by the database so that the lists read them as columns:
-- the brief (brand, BRIEF_DAYS business days from payment), the first draft (team, the opportunity's
-- turnaround in business days from the brief, else DRAFT_DAYS, never after "Live by"), the brand's
-- review (brand, REVIEW_DAYS from the draft or the edits marked complete), each edit round (team,
-- EDIT_DAYS), publication (team, by "Live by": live_by(promised_by, promise_moved_days)).
-- A clock pauses while the other side holds the placement (a request open beside the state,
-- placement-machine.ts OPEN_REQUESTS) and resumes where it stopped: its due time moves by the
-- pause's business time (weekends do not count).
-- A brand's stage that ends past its due time moves "Live by" by the business days it was late
-- (a part day counts whole), and so does the time the brand held a team's stage; each move is kept
-- with its reason (promise_moves) for the page's sentence ("moved 2 days: brief sent 2 days late").
ALTER TABLE "placements" ADD COLUMN "clock_stage" text;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "clock_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "clock_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "clock_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "promise_moves" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- the settings the clocks need beside BRIEF_DAYS (written at boot, db/promise-settings.ts)
ALTER TABLE "promise_settings" ADD COLUMN "review_days" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "promise_settings" ADD COLUMN "edit_days" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "promise_settings" ADD COLUMN "draft_days" integer DEFAULT 14 NOT NULL;--> statement-breakpoint
-- the stage of a life state (placement_life_state, 0045); none once released, refunded or declined
CREATE FUNCTION clock_stage_of(life text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE life
    WHEN 'brief_pending' THEN 'brief'
    WHEN 'awaiting_first_draft' THEN 'draft'
    WHEN 'awaiting_review' THEN 'review'
    WHEN 'edits_complete' THEN 'review'
    WHEN 'edits_requested' THEN 'edits'
    WHEN 'approved' THEN 'publication'
  END
$$;--> statement-breakpoint
-- the side that owes a stage
CREATE FUNCTION clock_owner(stage text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN stage IN ('brief', 'review') THEN 'brand' WHEN stage IS NOT NULL THEN 'team' END
$$;--> statement-breakpoint
-- business days from `due` to `at`, a part of a day counting whole; 0 when `at` is not after `due`
CREATE FUNCTION business_days_late(due timestamptz, at timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN at <= due THEN 0
    ELSE business_days_between(due, at) + CASE WHEN add_business_days(due, business_days_between(due, at)) < at THEN 1 ELSE 0 END
  END
$$;--> statement-breakpoint
-- the business time (weekdays, UTC) from a to b: the time between them less its Saturdays and Sundays
CREATE FUNCTION business_time_between(a timestamptz, b timestamptz) RETURNS interval LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN b <= a THEN interval '0' ELSE (b - a) - coalesce((
    SELECT sum(least(b, d + interval '1 day') - greatest(a, d))
    FROM generate_series(date_trunc('day', a AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', b, interval '1 day') d
    WHERE extract(isodow FROM d AT TIME ZONE 'UTC') IN (6, 7)), interval '0') END
$$;--> statement-breakpoint
-- t moved on by `span` of business time (weekends skipped): a paused clock resumes where it stopped
CREATE FUNCTION add_business_time(t timestamptz, span interval) RETURNS timestamptz LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  rest interval := span;
  day_end timestamptz;
BEGIN
  IF span <= interval '0' THEN RETURN t; END IF;
  LOOP
    IF extract(isodow FROM t AT TIME ZONE 'UTC') IN (6, 7) THEN
      t := next_business_day(date_trunc('day', t AT TIME ZONE 'UTC') AT TIME ZONE 'UTC');
    END IF;
    day_end := (date_trunc('day', t AT TIME ZONE 'UTC') + interval '1 day') AT TIME ZONE 'UTC';
    IF t + rest <= day_end THEN RETURN t + rest; END IF;
    rest := rest - (day_end - t);
    t := day_end;
  END LOOP;
END
$$;--> statement-breakpoint
-- a stage's due time when it starts at `start`
CREATE FUNCTION clock_due(stage text, start timestamptz, tat_days integer, promised_by timestamptz, moved_days integer) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT CASE stage
    WHEN 'brief' THEN add_business_days(start, s.brief_days)
    WHEN 'draft' THEN least(add_business_days(start, coalesce(tat_days, s.draft_days)), live_by(promised_by, moved_days))
    WHEN 'review' THEN add_business_days(start, s.review_days)
    WHEN 'edits' THEN add_business_days(start, s.edit_days)
    WHEN 'publication' THEN coalesce(live_by(promised_by, moved_days), add_business_days(start, s.edit_days))
  END
  FROM promise_settings s
$$;--> statement-breakpoint
CREATE FUNCTION iso_utc(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;--> statement-breakpoint
-- The clock of a placement written or touched (the tables of its open requests touch it): the
-- stage from its life, whose turn from the requests open beside it (the same rule as
-- placement-machine.ts openRequestOf), then the stage that ends and the one that starts, or the
-- clock paused or resumed. The columns it had are the clock's memory (NEW keeps them on UPDATE).
CREATE FUNCTION placement_clock() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  t timestamptz := clock_now();
  submitted timestamptz;
  stage text;
  owner text;
  holder text;
  prev text := NEW.clock_stage;
  dispute text;
  ended timestamptz;
  start timestamptz;
  late integer;
  tat integer;
BEGIN
  -- a placement being made has no brief nor request yet (their rows reference it): no look-ups
  IF TG_OP = 'UPDATE' THEN
    SELECT b.submitted_at INTO submitted FROM briefs b WHERE b.placement_id = NEW.id;
  END IF;
  stage := clock_stage_of(placement_life_state(NEW.state, NEW.draft_review_status, submitted IS NOT NULL, NEW.declined_at IS NOT NULL));
  owner := clock_owner(stage);
  holder := owner;
  IF stage IS NOT NULL AND TG_OP = 'UPDATE' THEN
    SELECT d.status INTO dispute FROM disputes d WHERE d.placement_id = NEW.id ORDER BY d.created_at DESC LIMIT 1;
    holder := CASE
      WHEN dispute IN ('open', 'escalated') THEN 'team'
      WHEN dispute = 'offered' THEN 'brand'
      WHEN EXISTS (SELECT 1 FROM cancellations c WHERE c.placement_id = NEW.id AND c.status = 'requested') THEN 'team'
      WHEN EXISTS (SELECT 1 FROM revision_requests r WHERE r.placement_id = NEW.id AND r.status = 'pending') THEN 'team'
      ELSE owner END;
  END IF;
  IF TG_OP = 'INSERT' THEN
    t := NEW.created_at;
    prev := NULL;
  END IF;
  IF stage IS DISTINCT FROM prev THEN
    -- the brief ends when it was submitted; a paused stage when it was paused
    ended := coalesce(NEW.clock_paused_at, CASE WHEN prev = 'brief' AND submitted IS NOT NULL THEN least(submitted, t) ELSE t END);
    -- a brand's stage ended late (the placement going on): "Live by" moves by as much
    IF clock_owner(prev) = 'brand' AND stage IS NOT NULL AND NEW.clock_due_at IS NOT NULL THEN
      late := business_days_late(NEW.clock_due_at, ended);
      IF late > 0 THEN
        NEW.promise_moved_days := NEW.promise_moved_days + late;
        NEW.promise_moves := NEW.promise_moves || jsonb_build_array(jsonb_build_object('stage', prev, 'to', stage, 'days', late, 'at', iso_utc(ended)));
      END IF;
    END IF;
    IF stage IS NULL THEN
      NEW.clock_stage := NULL;
      NEW.clock_started_at := NULL;
      NEW.clock_due_at := NULL;
      NEW.clock_paused_at := NULL;
    ELSE
      start := CASE WHEN stage = 'draft' AND prev = 'brief' THEN ended ELSE t END;
      IF stage = 'draft' THEN
        SELECT o.tat_days INTO tat FROM opportunities o WHERE o.id = NEW.opportunity_id;
      END IF;
      NEW.clock_stage := stage;
      NEW.clock_started_at := start;
      NEW.clock_due_at := clock_due(stage, start, tat, NEW.promised_by, NEW.promise_moved_days);
      NEW.clock_paused_at := CASE WHEN holder <> owner THEN t END;
    END IF;
  ELSIF stage IS NOT NULL THEN
    IF holder <> owner AND NEW.clock_paused_at IS NULL THEN
      NEW.clock_paused_at := t;
    ELSIF holder = owner AND NEW.clock_paused_at IS NOT NULL THEN
      -- resumed where it stopped: the due time moves by the pause's business time (its weekends apart)
      ended := add_business_time(NEW.clock_due_at, business_time_between(NEW.clock_paused_at, t));
      NEW.clock_started_at := NEW.clock_started_at + (ended - NEW.clock_due_at);
      NEW.clock_due_at := ended;
      -- the brand held the team's stage: "Live by" moves by the business days it held it
      IF owner = 'team' THEN
        late := business_days_late(NEW.clock_paused_at, t);
        IF late > 0 THEN
          NEW.promise_moved_days := NEW.promise_moved_days + late;
          NEW.promise_moves := NEW.promise_moves || jsonb_build_array(jsonb_build_object('stage', stage, 'to', 'held', 'days', late, 'at', iso_utc(t)));
          IF stage = 'publication' AND NEW.promised_by IS NOT NULL THEN
            NEW.clock_due_at := live_by(NEW.promised_by, NEW.promise_moved_days);
          END IF;
        END IF;
      END IF;
      NEW.clock_paused_at := NULL;
    END IF;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
-- a request opened or answered beside the state may flip whose turn it is: the placement's clock is touched
CREATE FUNCTION placement_clock_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE placements SET clock_paused_at = clock_paused_at WHERE id = NEW.placement_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- the backfill: each placement's stage started when it entered its state (the first draft when
-- its brief was submitted); its clock runs (no pause, no move is known of the past)
UPDATE placements p SET
  clock_stage = x.stage,
  clock_started_at = x.start,
  clock_due_at = clock_due(x.stage, x.start, o.tat_days, p.promised_by, p.promise_moved_days)
FROM (
  SELECT p2.id, clock_stage_of(placement_life_state(p2.state, p2.draft_review_status, b.submitted_at IS NOT NULL, p2.declined_at IS NOT NULL)) AS stage,
    CASE WHEN p2.state = 'in_progress' AND p2.draft_review_status = 'awaiting_brand_brief' AND b.submitted_at IS NOT NULL
      THEN b.submitted_at ELSE p2.state_since END AS start
  FROM placements p2 LEFT JOIN briefs b ON b.placement_id = p2.id
) x, opportunities o
WHERE x.id = p.id AND o.id = p.opportunity_id AND x.stage IS NOT NULL;--> statement-breakpoint
CREATE TRIGGER placements_stage_clock BEFORE INSERT OR UPDATE ON placements
  FOR EACH ROW EXECUTE FUNCTION placement_clock();--> statement-breakpoint
CREATE TRIGGER revision_requests_stage_clock AFTER INSERT OR UPDATE OF status ON revision_requests
  FOR EACH ROW EXECUTE FUNCTION placement_clock_touch();--> statement-breakpoint
CREATE TRIGGER cancellations_stage_clock AFTER INSERT OR UPDATE OF status ON cancellations
  FOR EACH ROW EXECUTE FUNCTION placement_clock_touch();--> statement-breakpoint
CREATE TRIGGER disputes_stage_clock AFTER INSERT OR UPDATE OF status ON disputes
  FOR EACH ROW EXECUTE FUNCTION placement_clock_touch();--> statement-breakpoint
-- (a brief submitted moves Brief pending on: 0045's briefs_state_since writes the placement, which
-- runs placements_stage_clock; a brief submitted again moves no stage)
-- Admin Projects sorted by due time (soonest first) and its at risk / late filters read this index
CREATE INDEX "placements_clock_due_idx" ON "placements" USING btree ("clock_due_at", "id") WHERE clock_due_at IS NOT NULL;
