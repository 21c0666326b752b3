CREATE TABLE "outlet_metrics" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"outlet_id" uuid NOT NULL,
	"metric" text NOT NULL,
	"value" numeric(14, 2) NOT NULL,
	"source" text NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"imported_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outlets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"host" text,
	"name" text NOT NULL,
	"url" text,
	"logo_url" text,
	"country" text,
	"language" text,
	"topics" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "outlet_id" uuid;--> statement-breakpoint
ALTER TABLE "outlet_metrics" ADD CONSTRAINT "outlet_metrics_outlet_id_outlets_id_fk" FOREIGN KEY ("outlet_id") REFERENCES "public"."outlets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outlet_metrics" ADD CONSTRAINT "outlet_metrics_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "outlet_metrics_value_unique" ON "outlet_metrics" USING btree ("outlet_id","metric","source","as_of");--> statement-breakpoint
CREATE INDEX "outlet_metrics_latest_idx" ON "outlet_metrics" USING btree ("outlet_id","as_of");--> statement-breakpoint
CREATE UNIQUE INDEX "outlets_host_unique" ON "outlets" USING btree ("host") WHERE host IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "outlets_name_unique" ON "outlets" USING btree (lower("name")) WHERE host IS NULL;--> statement-breakpoint
ALTER TABLE "opportunities" ADD CONSTRAINT "opportunities_outlet_id_outlets_id_fk" FOREIGN KEY ("outlet_id") REFERENCES "public"."outlets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "opportunities_outlet_idx" ON "opportunities" USING btree ("outlet_id");--> statement-breakpoint
-- The host an outlet is known by (src/shared/outlets.ts outletHost does the same): lower case, no scheme, www., port or path; null when it has no dot.
CREATE FUNCTION outlet_host(url text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN h LIKE '%.%' THEN h END
  FROM (SELECT rtrim(regexp_replace(lower(substring(btrim(url) from '^(?:[a-zA-Z][a-zA-Z0-9+.-]*://)?([^/:?#[:space:]]+)')), '^www\.', ''), '.') AS h) s
$$;--> statement-breakpoint
-- Every opportunity belongs to the outlet of its URL's host (or, without a URL, of its outlet name), made on first use: whichever path writes the opportunity.
CREATE FUNCTION opportunity_outlet() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  h text := outlet_host(NEW.outlet_url);
  found uuid;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.outlet_id IS NOT NULL
     AND NEW.outlet_url IS NOT DISTINCT FROM OLD.outlet_url AND NEW.outlet_name IS NOT DISTINCT FROM OLD.outlet_name THEN
    RETURN NEW;
  END IF;
  IF h IS NOT NULL THEN
    INSERT INTO outlets (host, name, url, logo_url, country, language, topics)
    VALUES (h, NEW.outlet_name, NEW.outlet_url, NEW.logo_url, NEW.country, NEW.language, NEW.topics)
    ON CONFLICT (host) WHERE host IS NOT NULL DO NOTHING
    RETURNING id INTO found;
    IF found IS NULL THEN SELECT id INTO found FROM outlets WHERE host = h; END IF;
  ELSE
    INSERT INTO outlets (host, name, url, logo_url, country, language, topics)
    VALUES (NULL, NEW.outlet_name, NULL, NEW.logo_url, NEW.country, NEW.language, NEW.topics)
    ON CONFLICT (lower(name)) WHERE host IS NULL DO NOTHING
    RETURNING id INTO found;
    IF found IS NULL THEN SELECT id INTO found FROM outlets WHERE host IS NULL AND lower(name) = lower(NEW.outlet_name); END IF;
  END IF;
  NEW.outlet_id := found;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER opportunities_outlet BEFORE INSERT OR UPDATE OF outlet_url, outlet_name ON opportunities
  FOR EACH ROW EXECUTE FUNCTION opportunity_outlet();--> statement-breakpoint
-- the existing opportunities, grouped into outlets by host (or name): each outlet as its newest opportunity describes it
INSERT INTO outlets (host, name, url, logo_url, country, language, topics)
SELECT DISTINCT ON (outlet_host(outlet_url) IS NULL, coalesce(outlet_host(outlet_url), lower(outlet_name)))
  outlet_host(outlet_url), outlet_name, CASE WHEN outlet_host(outlet_url) IS NOT NULL THEN outlet_url END, logo_url, country, language, topics
FROM opportunities
ORDER BY outlet_host(outlet_url) IS NULL, coalesce(outlet_host(outlet_url), lower(outlet_name)), created_at DESC;--> statement-breakpoint
UPDATE opportunities SET outlet_name = outlet_name;
