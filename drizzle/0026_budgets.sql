CREATE TABLE "purchase_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"requested_by" uuid NOT NULL,
	"opportunity_id" uuid NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "purchase_request_id" uuid;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "monthly_cap_usd" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "monthly_cap_usd" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "approval_threshold_usd" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "purchase_requests" ADD CONSTRAINT "purchase_requests_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_requests" ADD CONSTRAINT "purchase_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_requests" ADD CONSTRAINT "purchase_requests_opportunity_id_opportunities_id_fk" FOREIGN KEY ("opportunity_id") REFERENCES "public"."opportunities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_requests" ADD CONSTRAINT "purchase_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchase_requests_org_created_idx" ON "purchase_requests" USING btree ("organisation_id","created_at","id");--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_purchase_request_id_purchase_requests_id_fk" FOREIGN KEY ("purchase_request_id") REFERENCES "public"."purchase_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkouts_org_status_idx" ON "checkouts" USING btree ("organisation_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "checkouts_one_paid_per_request" ON "checkouts" USING btree ("purchase_request_id") WHERE status = 'completed';