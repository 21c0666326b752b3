CREATE TABLE "publication_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"restore_by" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
CREATE TABLE "publication_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payment_id" uuid NOT NULL,
	"url" text NOT NULL,
	"result" text NOT NULL,
	"check" jsonb NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publications" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"url" text,
	"health" text DEFAULT 'unverified' NOT NULL,
	"override_reason" text,
	"accepted_problems" text[] DEFAULT '{}'::text[] NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"guarantee_ends_at" timestamp with time zone NOT NULL,
	"fingerprint" text,
	"next_check_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"last_check" jsonb,
	"restored_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "publication_cases" ADD CONSTRAINT "publication_cases_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publication_checks" ADD CONSTRAINT "publication_checks_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publications" ADD CONSTRAINT "publications_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "publication_cases_open_unique" ON "publication_cases" USING btree ("payment_id") WHERE closed_at IS NULL;--> statement-breakpoint
CREATE INDEX "publication_cases_payment_idx" ON "publication_cases" USING btree ("payment_id","opened_at");--> statement-breakpoint
CREATE INDEX "publication_checks_payment_idx" ON "publication_checks" USING btree ("payment_id","checked_at");--> statement-breakpoint
CREATE INDEX "publications_due_idx" ON "publications" USING btree ("next_check_at") WHERE next_check_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "publications_health_idx" ON "publications" USING btree ("health","published_at","payment_id");--> statement-breakpoint
CREATE INDEX "publications_published_idx" ON "publications" USING btree ("published_at","payment_id");