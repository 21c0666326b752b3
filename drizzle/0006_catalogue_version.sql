CREATE TABLE "catalogue_versions" (
	"shard" smallint PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "catalogue_versions" ("shard") SELECT generate_series(0, 15);--> statement-breakpoint
-- Written by hand (drizzle-kit has no triggers). Runs when a transaction that changed opportunities
-- commits (a deferred constraint trigger fires just before COMMIT), once per transaction: the row
-- lock it takes is the transaction's last, so it can make nobody wait in a cycle, and it is held
-- only through the commit itself. Readers see the new version exactly when they see the change.
CREATE FUNCTION "bump_catalogue_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('byline.catalogue_bumped_by', true) IS DISTINCT FROM txid_current()::text THEN
    PERFORM set_config('byline.catalogue_bumped_by', txid_current()::text, true);
    UPDATE "catalogue_versions" SET "version" = "version" + 1 WHERE "shard" = txid_current() % 16;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "opportunities_catalogue_version"
  AFTER INSERT OR UPDATE OR DELETE ON "opportunities"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_catalogue_version"();--> statement-breakpoint
CREATE TRIGGER "opportunities_catalogue_version_truncate"
  AFTER TRUNCATE ON "opportunities"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();
