CREATE TABLE "payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"reason" text NOT NULL,
	"provider_refund_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "payments_org_held_idx";--> statement-breakpoint
DROP INDEX "tax_documents_payment_kind_unique";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_amount" numeric(12, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "declined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "decline_reason" text;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "swap_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD COLUMN "refund_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_refunds_payment_idx" ON "payment_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_refunds_pending_idx" ON "payment_refunds" USING btree ("created_at") WHERE completed_at IS NULL;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_refund_id_payment_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."payment_refunds"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "placements_swap_by_idx" ON "placements" USING btree ("swap_by") WHERE declined_at IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_refund_unique" ON "tax_documents" USING btree ("refund_id") WHERE refund_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "payments_org_held_idx" ON "payments" USING btree ("organisation_id","amount","refunded_amount") WHERE status = 'paid';--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_payment_kind_unique" ON "tax_documents" USING btree ("payment_id","kind") WHERE refund_id IS NULL;