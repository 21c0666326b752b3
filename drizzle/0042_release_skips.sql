ALTER TABLE "publications" ADD COLUMN "released_without" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- the releases made before issue 57 without a live URL (their timeline's "published" entry has no
-- URL; without a timeline entry, the publication has none), and without the brand's approval
-- where the draft never had it
UPDATE "publications" p SET "released_without" =
  CASE WHEN pl."draft_review_status" = 'approved' THEN ARRAY['live_url'] ELSE ARRAY['live_url', 'approval'] END
FROM "placements" pl
WHERE pl."id" = p."placement_id"
  AND (
    EXISTS (SELECT 1 FROM "placement_events" e WHERE e."placement_id" = p."placement_id" AND e."kind" = 'published' AND e."details"->>'url' IS NULL)
    OR (p."url" IS NULL AND NOT EXISTS (SELECT 1 FROM "placement_events" e WHERE e."placement_id" = p."placement_id" AND e."kind" = 'published'))
  );
