ALTER TABLE "outlets" ADD COLUMN "delivered" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outlets" ADD COLUMN "on_time_rate" numeric(4, 3);--> statement-breakpoint
-- Byline's record of an outlet in short: its placements published, and of those whose opportunity states a turnaround in days, the share published within it of payment (null: none).
CREATE FUNCTION outlet_delivery(outlet uuid, OUT delivered integer, OUT on_time_rate numeric) LANGUAGE sql STABLE AS $$
  SELECT count(*)::int,
    round(
      (count(*) FILTER (WHERE o.tat_days IS NOT NULL AND pub.published_at <= pay.paid_at + make_interval(days => o.tat_days)))::numeric
        / nullif(count(*) FILTER (WHERE o.tat_days IS NOT NULL), 0),
      3)
  FROM opportunities o
  JOIN payments pay ON pay.opportunity_id = o.id
  JOIN publications pub ON pub.placement_id = pay.id
  WHERE o.outlet_id = outlet
$$;--> statement-breakpoint
-- Writes it on the outlet's row, with the row locked first: the count then sees every publication committed before it (two at once queue here).
CREATE FUNCTION refresh_outlet_delivery(outlet uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF outlet IS NULL THEN RETURN; END IF;
  PERFORM 1 FROM outlets WHERE id = outlet FOR UPDATE;
  UPDATE outlets x SET (delivered, on_time_rate) = (SELECT d.delivered, d.on_time_rate FROM outlet_delivery(outlet) d) WHERE x.id = outlet;
END
$$;--> statement-breakpoint
-- publications come in (and, rarely, go) by the statement: each outlet they touch is counted again once per statement, in id order (two statements lock outlets in the same order)
CREATE FUNCTION publications_outlet_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_outlet_delivery(x.outlet_id)
  FROM (SELECT DISTINCT o.outlet_id FROM changed c
        JOIN payments pay ON pay.id = c.placement_id JOIN opportunities o ON o.id = pay.opportunity_id
        ORDER BY o.outlet_id) x;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER publications_added_outlet_delivery AFTER INSERT ON publications
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION publications_outlet_delivery();--> statement-breakpoint
CREATE TRIGGER publications_removed_outlet_delivery AFTER DELETE ON publications
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION publications_outlet_delivery();--> statement-breakpoint
-- the app never moves a publication's date; a correction by hand still counts
CREATE FUNCTION publication_moved_outlet_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_outlet_delivery(o.outlet_id)
  FROM payments pay JOIN opportunities o ON o.id = pay.opportunity_id WHERE pay.id = NEW.placement_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER publications_moved_outlet_delivery AFTER UPDATE OF published_at ON publications
  FOR EACH ROW WHEN (OLD.published_at IS DISTINCT FROM NEW.published_at) EXECUTE FUNCTION publication_moved_outlet_delivery();--> statement-breakpoint
-- an opportunity's turnaround or outlet changed: both outlets' records follow
CREATE FUNCTION opportunity_outlet_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_outlet_delivery(NEW.outlet_id);
  IF OLD.outlet_id IS DISTINCT FROM NEW.outlet_id THEN PERFORM refresh_outlet_delivery(OLD.outlet_id); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- (not UPDATE OF: outlet_id is changed by the BEFORE trigger when outlet_url is, not by the statement)
CREATE TRIGGER opportunities_outlet_delivery AFTER UPDATE ON opportunities
  FOR EACH ROW WHEN (OLD.tat_days IS DISTINCT FROM NEW.tat_days OR OLD.outlet_id IS DISTINCT FROM NEW.outlet_id)
  EXECUTE FUNCTION opportunity_outlet_delivery();--> statement-breakpoint
SELECT refresh_outlet_delivery(id) FROM outlets WHERE EXISTS (SELECT 1 FROM opportunities o JOIN payments p ON p.opportunity_id = o.id JOIN publications pub ON pub.placement_id = p.id WHERE o.outlet_id = outlets.id);
