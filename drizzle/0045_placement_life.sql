-- A placement's life (issue 58, decision 042): since when it is in its state, kept by the database.
-- The state is src/shared/placement-machine.ts `lifeStateOf`, over the placement's state, its draft
-- review status, whether it was declined and whether its brief is submitted; this function is the
-- same rule (tests/api/placement-life.test.ts compares the two on every combination).
CREATE FUNCTION placement_life_state(state text, draft_review_status text, brief_submitted boolean, declined boolean)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN state = 'refunded' THEN 'refunded'
    WHEN state = 'published' THEN 'released'
    WHEN declined THEN 'declined'
    WHEN draft_review_status = 'awaiting_brand_brief' THEN CASE WHEN brief_submitted THEN 'awaiting_first_draft' ELSE 'brief_pending' END
    WHEN draft_review_status = 'pending_brand_review' THEN 'awaiting_review'
    ELSE draft_review_status
  END
$$;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "state_since" timestamp with time zone;--> statement-breakpoint
-- the backfill: when the placement entered the state it is in, from the timeline entry that moved
-- it there (the latest of its kinds; the first attach and the first brief for the states they open),
-- else when it was bought
UPDATE placements p SET state_since = coalesce(
  (SELECT CASE x.life
      WHEN 'awaiting_first_draft' THEN min(e.at) FILTER (WHERE e.kind = 'brief_submitted')
      WHEN 'awaiting_review' THEN min(e.at) FILTER (WHERE e.kind = 'draft_attached')
      ELSE max(e.at) FILTER (WHERE e.kind = CASE x.life
        WHEN 'brief_pending' THEN 'swapped'
        WHEN 'declined' THEN 'declined'
        WHEN 'edits_requested' THEN 'edits_requested'
        WHEN 'edits_complete' THEN 'edits_completed'
        WHEN 'approved' THEN 'approved'
        WHEN 'released' THEN 'released'
        WHEN 'refunded' THEN 'refunded'
      END)
    END
   FROM placement_events e,
     (SELECT placement_life_state(p.state, p.draft_review_status,
        EXISTS (SELECT 1 FROM briefs b WHERE b.placement_id = p.id AND b.submitted_at IS NOT NULL), p.declined_at IS NOT NULL) AS life) x
   WHERE e.placement_id = p.id
   GROUP BY x.life),
  p.created_at);--> statement-breakpoint
-- a placement bought enters its first state when it is made (its created_at: the payment's)
CREATE FUNCTION placement_state_since() RETURNS trigger LANGUAGE plpgsql AS $$
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
    NEW.state_since := now();
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER placements_state_since BEFORE INSERT OR UPDATE ON placements
  FOR EACH ROW EXECUTE FUNCTION placement_state_since();--> statement-breakpoint
-- a brief submitted for the first time moves a placement awaiting it on (Brief pending to Awaiting
-- first draft) at the moment it was submitted
CREATE FUNCTION brief_state_since() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.submitted_at IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.submitted_at IS NULL) THEN
    UPDATE placements SET state_since = NEW.submitted_at
    WHERE id = NEW.placement_id AND state = 'in_progress' AND draft_review_status = 'awaiting_brand_brief' AND declined_at IS NULL;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER briefs_state_since AFTER INSERT OR UPDATE OF submitted_at ON briefs
  FOR EACH ROW EXECUTE FUNCTION brief_state_since();--> statement-breakpoint
ALTER TABLE "placements" ALTER COLUMN "state_since" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "placements" ALTER COLUMN "state_since" SET NOT NULL;
