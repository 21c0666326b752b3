DROP INDEX "conversation_reads_unread_idx";--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD COLUMN "unread" boolean GENERATED ALWAYS AS (last_other_at > coalesce(read_at, '-infinity'::timestamptz)) STORED;--> statement-breakpoint
CREATE INDEX "conversation_reads_unread_idx" ON "conversation_reads" USING btree ("side","payment_id") WHERE unread;