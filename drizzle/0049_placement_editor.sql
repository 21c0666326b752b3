-- An editor per placement (issue 59): the admin who works on it, set by assignment or when an
-- admin first acts on it (modules/placements/transition.ts). An admin removed leaves it unassigned.
ALTER TABLE "placements" ADD COLUMN "assignee_id" uuid REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
-- Admin Projects' "Mine", paged newest first
CREATE INDEX "placements_assignee_created_idx" ON "placements" ("assignee_id", "created_at", "id") WHERE "assignee_id" IS NOT NULL;
