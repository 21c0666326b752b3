-- A reminder before each automatic step (issue 59): 'deadline_reminder' entries are recorded once per
-- step like the brief and review reminders, so the partial unique index takes the new kind too.
DROP INDEX IF EXISTS "placement_events_reminder_once_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "placement_events_reminder_once_idx" ON "placement_events" USING btree ("placement_id","kind",("details" ->> 'step')) WHERE kind IN ('brief_reminder', 'review_reminder', 'deadline_reminder');
