CREATE TABLE "rate_limit_hits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bucket" text NOT NULL,
	"subject" text NOT NULL,
	"weight" bigint DEFAULT 1 NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"name" text PRIMARY KEY NOT NULL,
	"owner_id" uuid,
	"kind" text NOT NULL,
	"bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "login_failures" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "password_reset_requests" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "login_failures" CASCADE;--> statement-breakpoint
DROP TABLE "password_reset_requests" CASCADE;--> statement-breakpoint
ALTER TABLE "checkout_sessions" RENAME TO "checkouts";--> statement-breakpoint
ALTER TABLE "checkouts" RENAME COLUMN "local_payment_id" TO "test_provider_ref";--> statement-breakpoint
ALTER TABLE "checkouts" RENAME CONSTRAINT "checkout_sessions_brand_id_users_id_fk" TO "checkouts_brand_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "checkouts" RENAME CONSTRAINT "checkout_sessions_opportunity_id_opportunities_id_fk" TO "checkouts_opportunity_id_opportunities_id_fk";--> statement-breakpoint
ALTER INDEX "checkout_sessions_pkey" RENAME TO "checkouts_pkey";--> statement-breakpoint
ALTER INDEX "checkout_sessions_provider_session_unique" RENAME TO "checkouts_provider_session_unique";--> statement-breakpoint
ALTER INDEX "checkout_sessions_one_open_per_brand" RENAME TO "checkouts_one_open_per_brand";--> statement-breakpoint
ALTER INDEX "checkout_sessions_open_expiry_idx" RENAME TO "checkouts_open_expiry_idx";--> statement-breakpoint
ALTER INDEX "checkout_sessions_opportunity_idx" RENAME TO "checkouts_opportunity_idx";--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "attention_reason" text;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "charged_amount_cents" bigint;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "charged_currency" text;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "charged_provider_ref" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rate_limit_hits_subject_idx" ON "rate_limit_hits" USING btree ("bucket","subject","at");--> statement-breakpoint
CREATE INDEX "rate_limit_hits_at_idx" ON "rate_limit_hits" USING btree ("at");--> statement-breakpoint
CREATE INDEX "uploads_created_idx" ON "uploads" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "checkouts_attention_idx" ON "checkouts" USING btree ("created_at") WHERE attention_reason IS NOT NULL;--> statement-breakpoint
-- mails queued before this release name the provider reference "reference"
UPDATE "mail_outbox" SET "data" = ("data" - 'reference') || jsonb_build_object('providerRef', "data"->'reference') WHERE "data" ? 'reference';
