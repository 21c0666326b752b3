-- The catalogue search at 100,000 opportunities (issue 61). Two things the search's statements lacked:
-- 1. The on-time sort's key on the opportunity itself: the outlet's on-time rate (kept on the
--    outlet by 0035), copied here by the database, -1 when the outlet has none (sorted last). The
--    sort then walks an index instead of joining every claimable opportunity to its outlet and
--    sorting them all.
ALTER TABLE "opportunities" ADD COLUMN "outlet_on_time" numeric(4, 3) DEFAULT -1 NOT NULL;--> statement-breakpoint
-- an opportunity written (or moved to another outlet) takes its outlet's rate; runs after
-- opportunities_outlet (BEFORE triggers fire in name order), which sets outlet_id
CREATE FUNCTION opportunity_outlet_on_time() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.outlet_id IS DISTINCT FROM OLD.outlet_id THEN
    NEW.outlet_on_time := coalesce((SELECT on_time_rate FROM outlets WHERE id = NEW.outlet_id), -1);
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER opportunities_outlet_on_time BEFORE INSERT OR UPDATE ON opportunities
  FOR EACH ROW EXECUTE FUNCTION opportunity_outlet_on_time();--> statement-breakpoint
-- an outlet's rate changed (refresh_outlet_delivery, after a publication): its opportunities follow
CREATE FUNCTION outlet_on_time_to_opportunities() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE opportunities SET outlet_on_time = coalesce(NEW.on_time_rate, -1)
  WHERE outlet_id = NEW.id AND outlet_on_time IS DISTINCT FROM coalesce(NEW.on_time_rate, -1);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER outlets_on_time_to_opportunities AFTER UPDATE OF on_time_rate ON outlets
  FOR EACH ROW WHEN (OLD.on_time_rate IS DISTINCT FROM NEW.on_time_rate)
  EXECUTE FUNCTION outlet_on_time_to_opportunities();--> statement-breakpoint
UPDATE opportunities o SET outlet_on_time = coalesce(x.on_time_rate, -1)
FROM outlets x WHERE x.id = o.outlet_id AND x.on_time_rate IS NOT NULL;--> statement-breakpoint
-- 2. Each sort's index (0012) carries every column a search filters on, so that the filters, the
--    capped count and the page's keys are read from the index alone (an index-only scan), never
--    from the table's wide rows (descriptions, titles): the cards are read for the page's ids only.
DROP INDEX "opportunities_browse_newest_idx";--> statement-breakpoint
DROP INDEX "opportunities_browse_price_idx";--> statement-breakpoint
DROP INDEX "opportunities_browse_da_idx";--> statement-breakpoint
DROP INDEX "opportunities_browse_deadline_idx";--> statement-breakpoint
CREATE INDEX "opportunities_browse_newest_idx" ON "opportunities" USING btree ("created_at", "id")
  INCLUDE ("price_usd", "domain_authority", "deadline_date", "filled_slots", "max_slots", "tat_days", "link_type", "country", "language", "outlet_id", "outlet_on_time", "type", "topics")
  WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_price_idx" ON "opportunities" USING btree ("price_usd", "id")
  INCLUDE ("created_at", "domain_authority", "deadline_date", "filled_slots", "max_slots", "tat_days", "link_type", "country", "language", "outlet_id", "outlet_on_time", "type", "topics")
  WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_da_idx" ON "opportunities" USING btree (coalesce("domain_authority", 0), "id")
  INCLUDE ("created_at", "price_usd", "domain_authority", "deadline_date", "filled_slots", "max_slots", "tat_days", "link_type", "country", "language", "outlet_id", "outlet_on_time", "type", "topics")
  WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_deadline_idx" ON "opportunities" USING btree (coalesce("deadline_date", 'infinity'::timestamptz), "id")
  INCLUDE ("created_at", "price_usd", "domain_authority", "deadline_date", "filled_slots", "max_slots", "tat_days", "link_type", "country", "language", "outlet_id", "outlet_on_time", "type", "topics")
  WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_on_time_idx" ON "opportunities" USING btree ("outlet_on_time", "id")
  INCLUDE ("created_at", "price_usd", "domain_authority", "deadline_date", "filled_slots", "max_slots", "tat_days", "link_type", "country", "language", "outlet_id", "type", "topics")
  WHERE status = 'available';;--> statement-breakpoint
-- 3. The filters that leave few rows (a topic and a language, a type and a topic): one GIN index
--    over the filtered columns (btree_gin for the plain ones) finds the rows of every given filter at
--    once, so such a search reads only its matches' rows instead of passing over every claimable
--    opportunity's index entry. The planner takes it when the filters leave few rows, the sorts'
--    indexes above when they leave many.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "opportunities_browse_filters_idx" ON "opportunities" USING gin ("topics", "type", "language", "country", "link_type")
  WHERE status = 'available';
