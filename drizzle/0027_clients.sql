CREATE TABLE "client_billing_details" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"legal_name" text NOT NULL,
	"address_line1" text NOT NULL,
	"address_line2" text,
	"postal_code" text,
	"city" text NOT NULL,
	"country" text NOT NULL,
	"tax_id" text,
	"email" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"name" text NOT NULL,
	"monthly_cap_usd" numeric(12, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "org_invitations" ADD COLUMN "client_ids" uuid[];--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "purchase_requests" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "client_ids" uuid[];--> statement-breakpoint
ALTER TABLE "client_billing_details" ADD CONSTRAINT "client_billing_details_client_id_org_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."org_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_clients" ADD CONSTRAINT "org_clients_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "org_clients_org_name_unique" ON "org_clients" USING btree ("organisation_id",lower("name"));--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_client_id_org_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."org_clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_client_id_org_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."org_clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placements" ADD CONSTRAINT "placements_client_id_org_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."org_clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_requests" ADD CONSTRAINT "purchase_requests_client_id_org_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."org_clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_client_created_idx" ON "payments" USING btree ("client_id","created_at","id") WHERE client_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "placements_client_created_idx" ON "placements" USING btree ("client_id","created_at","id") WHERE client_id IS NOT NULL;