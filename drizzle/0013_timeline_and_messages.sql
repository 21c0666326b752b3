CREATE TABLE "conversation_notices" (
	"payment_id" uuid NOT NULL,
	"side" text NOT NULL,
	"last_sent_at" timestamp with time zone,
	CONSTRAINT "conversation_notices_payment_id_side_pk" PRIMARY KEY("payment_id","side")
);
--> statement-breakpoint
CREATE TABLE "conversation_reads" (
	"payment_id" uuid NOT NULL,
	"side" text NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "conversation_reads_payment_id_side_pk" PRIMARY KEY("payment_id","side")
);
--> statement-breakpoint
CREATE TABLE "placement_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payment_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "placement_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"side" text NOT NULL,
	"author_id" uuid NOT NULL,
	"text" text NOT NULL,
	"attachment_file" text,
	"attachment_name" text,
	"attachment_type" text,
	"attachment_size" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversation_notices" ADD CONSTRAINT "conversation_notices_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placement_events" ADD CONSTRAINT "placement_events_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placement_messages" ADD CONSTRAINT "placement_messages_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placement_messages" ADD CONSTRAINT "placement_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "placement_events_payment_idx" ON "placement_events" USING btree ("payment_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "placement_events_reminder_once_idx" ON "placement_events" USING btree ("payment_id","kind",("details" ->> 'step')) WHERE kind IN ('brief_reminder', 'review_reminder');--> statement-breakpoint
CREATE INDEX "placement_messages_payment_idx" ON "placement_messages" USING btree ("payment_id","created_at","id");--> statement-breakpoint
CREATE INDEX "placement_messages_unread_idx" ON "placement_messages" USING btree ("payment_id","side","created_at");