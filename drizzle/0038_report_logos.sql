ALTER TABLE "uploads" ADD COLUMN "organisation_id" uuid;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- a white-label report's logo is one its organisation uploaded for reports (issue 57): the logos
-- reports name that a member of the report's own organisation uploaded as a PNG or JPEG become
-- report logos of that organisation; a report naming any other file (another organisation's, an
-- opportunity's logo, a message's attachment) loses it
UPDATE "uploads" u SET "kind" = 'report_logo', "organisation_id" = r."organisation_id"
FROM "reports" r, "users" w
WHERE r."white_label"->>'logoFile' = '/uploads/' || u."name"
  AND w."id" = u."owner_id" AND w."role" = 'brand' AND w."organisation_id" = r."organisation_id"
  AND u."kind" = 'image' AND u."name" ~ '^[0-9a-f]{32}\.(png|jpg)$';--> statement-breakpoint
UPDATE "reports" r SET "white_label" = jsonb_set(r."white_label", '{logoFile}', 'null'::jsonb)
WHERE r."white_label"->>'logoFile' IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM "uploads" u
    WHERE '/uploads/' || u."name" = r."white_label"->>'logoFile'
      AND u."kind" = 'report_logo' AND u."organisation_id" = r."organisation_id"
  );
