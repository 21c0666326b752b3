-- Issue 44: lists read the database; the versions that kept pages of the browse list and the search
-- (migrations 0006 and 0018) go, triggers first (a function body is not a dependency of its tables).
DROP TRIGGER IF EXISTS "opportunities_catalogue_version" ON "opportunities";--> statement-breakpoint
DROP TRIGGER IF EXISTS "opportunities_catalogue_version_truncate" ON "opportunities";--> statement-breakpoint
DROP TRIGGER IF EXISTS "saved_opportunities_version_insert" ON "saved_opportunities";--> statement-breakpoint
DROP TRIGGER IF EXISTS "saved_opportunities_version_delete" ON "saved_opportunities";--> statement-breakpoint
DROP TRIGGER IF EXISTS "saved_opportunities_version_update" ON "saved_opportunities";--> statement-breakpoint
DROP TRIGGER IF EXISTS "saved_opportunities_version_truncate" ON "saved_opportunities";--> statement-breakpoint
DROP FUNCTION IF EXISTS "bump_catalogue_version"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "bump_shortlist_version"();--> statement-breakpoint
DROP TABLE "catalogue_versions" CASCADE;--> statement-breakpoint
DROP TABLE "shortlist_versions" CASCADE;
