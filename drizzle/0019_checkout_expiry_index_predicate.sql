DROP INDEX "checkouts_open_expiry_idx";--> statement-breakpoint
CREATE INDEX "checkouts_open_expiry_idx" ON "checkouts" USING btree ("expires_at") WHERE status = 'open' AND test_provider_ref IS NULL;