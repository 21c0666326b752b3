DROP INDEX "conversation_reads_unread_idx";--> statement-breakpoint
CREATE INDEX "conversation_reads_unread_idx" ON "conversation_reads" USING btree ("side","payment_id","read_at") WHERE unread;