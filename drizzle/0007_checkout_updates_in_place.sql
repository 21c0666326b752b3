DROP INDEX "opportunities_claimable_idx";--> statement-breakpoint
CREATE INDEX "opportunities_available_idx" ON "opportunities" USING btree ("deadline_date") WHERE status = 'available';--> statement-breakpoint
-- Written by hand (drizzle-kit does not track storage parameters): every checkout, expiry and
-- refund updates a row's filled_slots; room left on each page lets PostgreSQL keep the new version
-- on the same page and skip the indexes (a HOT update).
ALTER TABLE "opportunities" SET (fillfactor = 90);
