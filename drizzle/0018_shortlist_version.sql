CREATE TABLE "shortlist_versions" (
	"brand_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "shortlist_versions" ("brand_id", "version") SELECT "brand_id", 1 FROM "saved_opportunities" GROUP BY "brand_id";--> statement-breakpoint
-- Written by hand (drizzle-kit has no triggers). One upsert per statement that saves or unsaves,
-- for each brand whose shortlist it changed (its transition table), in the same transaction: a
-- reader sees the new version exactly when it sees the change. A save of what is already saved
-- (ON CONFLICT DO NOTHING) changes no row and no version.
CREATE FUNCTION "bump_shortlist_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "shortlist_versions" SET "version" = "version" + 1;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "shortlist_versions" ("brand_id", "version")
      SELECT "brand_id", 1 FROM (SELECT "brand_id" FROM "before_rows" UNION SELECT "brand_id" FROM "changed_rows") AS "brands"
      ON CONFLICT ("brand_id") DO UPDATE SET "version" = "shortlist_versions"."version" + 1;
  ELSE
    INSERT INTO "shortlist_versions" ("brand_id", "version")
      SELECT DISTINCT "brand_id", 1 FROM "changed_rows"
      ON CONFLICT ("brand_id") DO UPDATE SET "version" = "shortlist_versions"."version" + 1;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "saved_opportunities_version_insert" AFTER INSERT ON "saved_opportunities"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_shortlist_version"();--> statement-breakpoint
CREATE TRIGGER "saved_opportunities_version_delete" AFTER DELETE ON "saved_opportunities"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_shortlist_version"();--> statement-breakpoint
CREATE TRIGGER "saved_opportunities_version_update" AFTER UPDATE ON "saved_opportunities"
  REFERENCING OLD TABLE AS "before_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_shortlist_version"();--> statement-breakpoint
CREATE TRIGGER "saved_opportunities_version_truncate" AFTER TRUNCATE ON "saved_opportunities"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_shortlist_version"();
