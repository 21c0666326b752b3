ALTER TABLE "users" ADD COLUMN "removed_from" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_removed_from_organisations_id_fk" FOREIGN KEY ("removed_from") REFERENCES "public"."organisations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "org_invitations_open_email_idx" ON "org_invitations" USING btree ("email") WHERE accepted_at IS NULL AND revoked_at IS NULL;--> statement-breakpoint
CREATE INDEX "users_email_domain_idx" ON "users" USING btree (split_part("email", '@', 2));