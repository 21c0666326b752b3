DROP INDEX "brief_templates_org_name_unique";--> statement-breakpoint
ALTER TABLE "brief_templates" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "org_clients" ADD COLUMN "websites" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "brief_templates" ADD CONSTRAINT "brief_templates_client_id_org_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."org_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "brief_templates_client_name_unique" ON "brief_templates" USING btree ("client_id",lower("name")) WHERE "brief_templates"."client_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "brief_templates_org_name_unique" ON "brief_templates" USING btree ("organisation_id",lower("name")) WHERE "brief_templates"."client_id" IS NULL;--> statement-breakpoint
-- a template made by a member limited to one client was that client's: it stays theirs (names were
-- unique in the organisation, so they are unique per client too)
UPDATE "brief_templates" t SET "client_id" = u."client_ids"[1]
FROM "users" u
WHERE u."id" = t."created_by" AND cardinality(u."client_ids") = 1;
