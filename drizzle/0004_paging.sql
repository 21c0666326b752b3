DROP INDEX "opportunities_status_created_idx";--> statement-breakpoint
DROP INDEX "opportunities_created_idx";--> statement-breakpoint
DROP INDEX "payments_brand_created_idx";--> statement-breakpoint
DROP INDEX "payments_created_idx";--> statement-breakpoint
DROP INDEX "users_pending_brands_idx";--> statement-breakpoint
CREATE INDEX "invite_codes_created_idx" ON "invite_codes" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "payments_tab_projects_idx" ON "payments" USING btree ("created_at","id") WHERE status IN ('paid', 'released');--> statement-breakpoint
CREATE INDEX "payments_tab_awaiting_idx" ON "payments" USING btree ("created_at","id") WHERE status = 'paid' AND draft_review_status = 'awaiting_brand_brief';--> statement-breakpoint
CREATE INDEX "payments_tab_review_idx" ON "payments" USING btree ("created_at","id") WHERE status = 'paid' AND draft_review_status IN ('pending_brand_review', 'edits_requested', 'edits_complete');--> statement-breakpoint
CREATE INDEX "payments_tab_approved_idx" ON "payments" USING btree (((status = 'paid')::int),"created_at","id") WHERE draft_review_status = 'approved' AND status <> 'refunded';--> statement-breakpoint
CREATE INDEX "opportunities_status_created_idx" ON "opportunities" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "opportunities_created_idx" ON "opportunities" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "payments_brand_created_idx" ON "payments" USING btree ("brand_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_created_idx" ON "payments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_pending_brands_idx" ON "users" USING btree ("created_at","id") WHERE role = 'brand' AND approved = false AND name IS NOT NULL;