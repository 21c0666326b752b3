-- Organisations (decision 033): every brand that has completed its profile (or owns anything)
-- becomes the owner of a one-person organisation named after its company, with the brand's own id
-- as the organisation's id, so that each owned row's organisation_id is its brand_id.
--> statement-breakpoint
CREATE TABLE "audit_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"actor_id" uuid,
	"actor_name" text,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"subject" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"address" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_invitations_not_owner" CHECK (role <> 'owner')
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"approved" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "organisation_id" uuid
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "org_role" text
--> statement-breakpoint
INSERT INTO "organisations" ("id", "name", "approved", "created_at")
SELECT u."id", coalesce(nullif(trim(u."brand_name"), ''), u."name", u."email"), u."approved", u."created_at"
FROM "users" u
WHERE u."role" = 'brand' AND (
  u."name" IS NOT NULL
  OR EXISTS (SELECT 1 FROM "payments" p WHERE p."brand_id" = u."id")
  OR EXISTS (SELECT 1 FROM "checkouts" c WHERE c."brand_id" = u."id")
  OR EXISTS (SELECT 1 FROM "saved_opportunities" s WHERE s."brand_id" = u."id")
  OR EXISTS (SELECT 1 FROM "briefs" b WHERE b."brand_id" = u."id")
  OR EXISTS (SELECT 1 FROM "billing_details" d WHERE d."brand_id" = u."id")
)
--> statement-breakpoint
UPDATE "users" SET "organisation_id" = "id", "org_role" = 'owner' WHERE "id" IN (SELECT "id" FROM "organisations")
--> statement-breakpoint
ALTER TABLE "briefs" ADD COLUMN "organisation_id" uuid
--> statement-breakpoint
UPDATE "briefs" SET "organisation_id" = "brand_id"
--> statement-breakpoint
ALTER TABLE "briefs" ALTER COLUMN "organisation_id" SET NOT NULL
--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "organisation_id" uuid
--> statement-breakpoint
UPDATE "checkouts" SET "organisation_id" = "brand_id"
--> statement-breakpoint
ALTER TABLE "checkouts" ALTER COLUMN "organisation_id" SET NOT NULL
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "organisation_id" uuid
--> statement-breakpoint
UPDATE "payments" SET "organisation_id" = "brand_id"
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "organisation_id" SET NOT NULL
--> statement-breakpoint
ALTER TABLE "placements" ADD COLUMN "organisation_id" uuid
--> statement-breakpoint
UPDATE "placements" SET "organisation_id" = "brand_id"
--> statement-breakpoint
ALTER TABLE "placements" ALTER COLUMN "organisation_id" SET NOT NULL
--> statement-breakpoint
ALTER TABLE "saved_opportunities" ADD COLUMN "organisation_id" uuid
--> statement-breakpoint
UPDATE "saved_opportunities" SET "organisation_id" = "brand_id"
--> statement-breakpoint
ALTER TABLE "saved_opportunities" ALTER COLUMN "organisation_id" SET NOT NULL
--> statement-breakpoint
ALTER TABLE "billing_details" ADD COLUMN "organisation_id" uuid
--> statement-breakpoint
UPDATE "billing_details" SET "organisation_id" = "brand_id"
--> statement-breakpoint
ALTER TABLE "billing_details" DROP CONSTRAINT "billing_details_brand_id_users_id_fk"
--> statement-breakpoint
ALTER TABLE "billing_details" DROP CONSTRAINT "billing_details_pkey"
--> statement-breakpoint
ALTER TABLE "billing_details" DROP COLUMN "brand_id"
--> statement-breakpoint
ALTER TABLE "billing_details" ADD PRIMARY KEY ("organisation_id")
--> statement-breakpoint
DROP INDEX "briefs_brand_updated_idx";
--> statement-breakpoint
DROP INDEX "payments_brand_held_idx";
--> statement-breakpoint
ALTER TABLE "saved_opportunities" DROP CONSTRAINT "saved_opportunities_brand_id_opportunity_id_pk";
--> statement-breakpoint
ALTER TABLE "saved_opportunities" ADD CONSTRAINT "saved_opportunities_organisation_id_opportunity_id_pk" PRIMARY KEY("organisation_id","opportunity_id");
--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "org_invitations" ADD CONSTRAINT "org_invitations_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "org_invitations" ADD CONSTRAINT "org_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "org_invitations" ADD CONSTRAINT "org_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "billing_details" ADD CONSTRAINT "billing_details_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "briefs" ADD CONSTRAINT "briefs_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "placements" ADD CONSTRAINT "placements_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "saved_opportunities" ADD CONSTRAINT "saved_opportunities_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "audit_entries_org_at_idx" ON "audit_entries" USING btree ("organisation_id","at","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "org_invitations_token_unique" ON "org_invitations" USING btree ("token_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "org_invitations_open_unique" ON "org_invitations" USING btree ("organisation_id","email") WHERE accepted_at IS NULL AND revoked_at IS NULL;
--> statement-breakpoint
CREATE INDEX "briefs_org_updated_idx" ON "briefs" USING btree ("organisation_id","updated_at");
--> statement-breakpoint
CREATE INDEX "payments_org_created_idx" ON "payments" USING btree ("organisation_id","created_at","id");
--> statement-breakpoint
CREATE INDEX "payments_org_held_idx" ON "payments" USING btree ("organisation_id","amount") WHERE status = 'paid';
--> statement-breakpoint
CREATE INDEX "placements_org_created_idx" ON "placements" USING btree ("organisation_id","created_at","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "users_one_owner_per_org" ON "users" USING btree ("organisation_id") WHERE org_role = 'owner';
--> statement-breakpoint
CREATE INDEX "users_organisation_idx" ON "users" USING btree ("organisation_id");
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_org_role_with_org" CHECK ((organisation_id IS NULL) = (org_role IS NULL));
--> statement-breakpoint
-- the audit log is append-only: no UPDATE or DELETE of an entry
CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit entries are append-only';
END
$$
--> statement-breakpoint
CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON "audit_entries" FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()
