-- Issue 44: Admin Payments filtered by status pages through this index instead of walking every newer
-- payment (at 1,000,000 payments a refunded page read ~7,000 rows, 13-46 ms; with it, its 51)
CREATE INDEX "payments_status_created_idx" ON "payments" USING btree ("status","created_at","id");