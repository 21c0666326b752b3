ALTER TABLE "conversation_reads" ALTER COLUMN "read_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD COLUMN "last_other_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "conversation_reads_unread_idx" ON "conversation_reads" USING btree ("side","payment_id") WHERE last_other_at > coalesce(read_at, '-infinity'::timestamptz);--> statement-breakpoint
-- existing conversations: each side's row says when the other side last wrote
INSERT INTO "conversation_reads" ("payment_id", "side", "last_other_at")
  SELECT "payment_id", CASE WHEN "side" = 'brand' THEN 'admin' ELSE 'brand' END, max("created_at")
  FROM "placement_messages" GROUP BY "payment_id", "side"
  ON CONFLICT ("payment_id", "side") DO UPDATE SET "last_other_at" = excluded."last_other_at";
--> statement-breakpoint
-- from now on every message moves the other side's mark, whoever inserts it, in its transaction
CREATE FUNCTION "placement_messages_mark_unread"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "conversation_reads" ("payment_id", "side", "last_other_at")
  VALUES (NEW."payment_id", CASE WHEN NEW."side" = 'brand' THEN 'admin' ELSE 'brand' END, NEW."created_at")
  ON CONFLICT ("payment_id", "side") DO UPDATE
    SET "last_other_at" = GREATEST("conversation_reads"."last_other_at", excluded."last_other_at");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "placement_messages_mark_unread" AFTER INSERT ON "placement_messages"
  FOR EACH ROW EXECUTE FUNCTION "placement_messages_mark_unread"();
