CREATE TABLE "cancellations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"placement_id" uuid NOT NULL,
	"reason" text,
	"status" text DEFAULT 'requested' NOT NULL,
	"outcome" text,
	"amount" numeric(12, 2),
	"answer" text,
	"respond_by" timestamp with time zone NOT NULL,
	"requested_by" uuid,
	"answered_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "revision_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"placement_id" uuid NOT NULL,
	"feedback" text NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"answer" text,
	"requested_by" uuid,
	"answered_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD COLUMN "requested_by" uuid;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "writing_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "revisions_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "revisions_included" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "cancellations" ADD CONSTRAINT "cancellations_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cancellations" ADD CONSTRAINT "cancellations_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cancellations" ADD CONSTRAINT "cancellations_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revision_requests" ADD CONSTRAINT "revision_requests_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revision_requests" ADD CONSTRAINT "revision_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revision_requests" ADD CONSTRAINT "revision_requests_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cancellations_placement_idx" ON "cancellations" USING btree ("placement_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "cancellations_open_unique" ON "cancellations" USING btree ("placement_id") WHERE status = 'requested';--> statement-breakpoint
CREATE INDEX "cancellations_due_idx" ON "cancellations" USING btree ("respond_by") WHERE status = 'requested';--> statement-breakpoint
CREATE INDEX "revision_requests_placement_idx" ON "revision_requests" USING btree ("placement_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "revision_requests_pending_unique" ON "revision_requests" USING btree ("placement_id") WHERE status = 'pending';--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- the rounds already asked for count against the included ones; a placement with a draft has had its writing started
UPDATE "placements" SET "revisions_used" = (SELECT count(*) FROM "placement_events" e WHERE e."placement_id" = "placements"."id" AND e."kind" = 'edits_requested')::int WHERE EXISTS (SELECT 1 FROM "placement_events" e WHERE e."placement_id" = "placements"."id" AND e."kind" = 'edits_requested');--> statement-breakpoint
UPDATE "placements" SET "writing_started_at" = "created_at" WHERE "draft_document_url" IS NOT NULL OR "draft_document_file" IS NOT NULL OR "state" <> 'in_progress';
--> statement-breakpoint
-- refunded_amount is what was given back: all of it for a payment refunded in full
UPDATE "payments" SET "refunded_amount" = "amount" WHERE "status" = 'refunded';
