-- Issue 44: the placement (the work) gets its own table, apart from its payment (the money).
-- Each payment becomes one placement with the payment's id; the draft and its review move to it,
-- its state follows the payment's status; the tables of its work refer to it (payment_id -> placement_id).
CREATE TABLE "placements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"payment_id" uuid NOT NULL,
	"brand_id" uuid NOT NULL,
	"opportunity_id" uuid NOT NULL,
	"state" text DEFAULT 'in_progress' NOT NULL,
	"draft_document_url" text,
	"draft_document_file" text,
	"draft_review_status" text DEFAULT 'awaiting_brand_brief' NOT NULL,
	"brand_feedback" text,
	"created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
INSERT INTO "placements" ("id", "payment_id", "brand_id", "opportunity_id", "state", "draft_document_url",
    "draft_document_file", "draft_review_status", "brand_feedback", "created_at")
  SELECT "id", "id", "brand_id", "opportunity_id",
    CASE "status" WHEN 'released' THEN 'published' WHEN 'refunded' THEN 'refunded' ELSE 'in_progress' END,
    "draft_document_url", "draft_document_file", "draft_review_status", "brand_feedback", "created_at"
  FROM "payments";--> statement-breakpoint
ALTER TABLE "placements" ADD CONSTRAINT "placements_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placements" ADD CONSTRAINT "placements_brand_id_users_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placements" ADD CONSTRAINT "placements_opportunity_id_opportunities_id_fk" FOREIGN KEY ("opportunity_id") REFERENCES "public"."opportunities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "briefs" DROP CONSTRAINT "briefs_payment_id_payments_id_fk";--> statement-breakpoint
ALTER TABLE "briefs" RENAME COLUMN "payment_id" TO "placement_id";--> statement-breakpoint
ALTER TABLE "briefs" ADD CONSTRAINT "briefs_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_notices" DROP CONSTRAINT "conversation_notices_payment_id_payments_id_fk";--> statement-breakpoint
ALTER TABLE "conversation_notices" RENAME COLUMN "payment_id" TO "placement_id";--> statement-breakpoint
ALTER TABLE "conversation_notices" ADD CONSTRAINT "conversation_notices_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_reads" DROP CONSTRAINT "conversation_reads_payment_id_payments_id_fk";--> statement-breakpoint
ALTER TABLE "conversation_reads" RENAME COLUMN "payment_id" TO "placement_id";--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placement_events" DROP CONSTRAINT "placement_events_payment_id_payments_id_fk";--> statement-breakpoint
ALTER TABLE "placement_events" RENAME COLUMN "payment_id" TO "placement_id";--> statement-breakpoint
ALTER TABLE "placement_events" ADD CONSTRAINT "placement_events_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placement_messages" DROP CONSTRAINT "placement_messages_payment_id_payments_id_fk";--> statement-breakpoint
ALTER TABLE "placement_messages" RENAME COLUMN "payment_id" TO "placement_id";--> statement-breakpoint
ALTER TABLE "placement_messages" ADD CONSTRAINT "placement_messages_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_cases" DROP CONSTRAINT "publication_cases_payment_id_payments_id_fk";--> statement-breakpoint
ALTER TABLE "publication_cases" RENAME COLUMN "payment_id" TO "placement_id";--> statement-breakpoint
ALTER TABLE "publication_cases" ADD CONSTRAINT "publication_cases_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_checks" DROP CONSTRAINT "publication_checks_payment_id_payments_id_fk";--> statement-breakpoint
ALTER TABLE "publication_checks" RENAME COLUMN "payment_id" TO "placement_id";--> statement-breakpoint
ALTER TABLE "publication_checks" ADD CONSTRAINT "publication_checks_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" DROP CONSTRAINT "publications_payment_id_payments_id_fk";--> statement-breakpoint
ALTER TABLE "publications" RENAME COLUMN "payment_id" TO "placement_id";--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER INDEX "briefs_payment_unique" RENAME TO "briefs_placement_unique";--> statement-breakpoint
ALTER INDEX "placement_events_payment_idx" RENAME TO "placement_events_placement_idx";--> statement-breakpoint
ALTER INDEX "placement_messages_payment_idx" RENAME TO "placement_messages_placement_idx";--> statement-breakpoint
ALTER INDEX "publication_cases_payment_idx" RENAME TO "publication_cases_placement_idx";--> statement-breakpoint
ALTER INDEX "publication_checks_payment_idx" RENAME TO "publication_checks_placement_idx";--> statement-breakpoint
ALTER TABLE "conversation_notices" RENAME CONSTRAINT "conversation_notices_payment_id_side_pk" TO "conversation_notices_placement_id_side_pk";--> statement-breakpoint
ALTER TABLE "conversation_reads" RENAME CONSTRAINT "conversation_reads_payment_id_side_pk" TO "conversation_reads_placement_id_side_pk";--> statement-breakpoint
-- the trigger of migration 0014, on the renamed column
CREATE OR REPLACE FUNCTION "placement_messages_mark_unread"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "conversation_reads" ("placement_id", "side", "last_other_at")
  VALUES (NEW."placement_id", CASE WHEN NEW."side" = 'brand' THEN 'admin' ELSE 'brand' END, NEW."created_at")
  ON CONFLICT ("placement_id", "side") DO UPDATE
    SET "last_other_at" = GREATEST("conversation_reads"."last_other_at", excluded."last_other_at");
  RETURN NULL;
END $$;--> statement-breakpoint
DROP INDEX "payments_tab_projects_idx";--> statement-breakpoint
DROP INDEX "payments_tab_awaiting_idx";--> statement-breakpoint
DROP INDEX "payments_tab_review_idx";--> statement-breakpoint
DROP INDEX "payments_tab_approved_idx";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "draft_document_url";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "draft_document_file";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "draft_review_status";--> statement-breakpoint
ALTER TABLE "payments" DROP COLUMN "brand_feedback";--> statement-breakpoint
CREATE UNIQUE INDEX "placements_payment_unique" ON "placements" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "placements_brand_created_idx" ON "placements" USING btree ("brand_id","created_at","id");--> statement-breakpoint
CREATE INDEX "placements_opportunity_idx" ON "placements" USING btree ("opportunity_id");--> statement-breakpoint
CREATE INDEX "placements_tab_projects_idx" ON "placements" USING btree ("created_at","id") WHERE state IN ('in_progress', 'published');--> statement-breakpoint
CREATE INDEX "placements_tab_awaiting_idx" ON "placements" USING btree ("created_at","id") WHERE state = 'in_progress' AND draft_review_status = 'awaiting_brand_brief';--> statement-breakpoint
CREATE INDEX "placements_tab_review_idx" ON "placements" USING btree ("created_at","id") WHERE state = 'in_progress' AND draft_review_status IN ('pending_brand_review', 'edits_requested', 'edits_complete');--> statement-breakpoint
CREATE INDEX "placements_tab_approved_idx" ON "placements" USING btree ("created_at","id") WHERE state = 'in_progress' AND draft_review_status = 'approved';--> statement-breakpoint
CREATE INDEX "placements_tab_published_idx" ON "placements" USING btree ("created_at","id") WHERE state = 'published';--> statement-breakpoint
CREATE INDEX "placements_tab_refunded_idx" ON "placements" USING btree ("created_at","id") WHERE state = 'refunded';
