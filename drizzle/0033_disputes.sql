CREATE TABLE "disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"placement_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"asked" text NOT NULL,
	"asked_amount" numeric(12, 2),
	"text" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"resolution" text,
	"respond_by" timestamp with time zone,
	"answer_action" text,
	"offer_amount" numeric(12, 2),
	"answer_reason" text,
	"answered_by" uuid,
	"answered_at" timestamp with time zone,
	"escalate_by" timestamp with time zone,
	"escalated_at" timestamp with time zone,
	"decide_by" timestamp with time zone,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"refunded" numeric(12, 2) DEFAULT '0' NOT NULL,
	"case_id" uuid,
	"requested_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_placement_id_placements_id_fk" FOREIGN KEY ("placement_id") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_case_id_publication_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."publication_cases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disputes_placement_idx" ON "disputes" USING btree ("placement_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_unresolved_unique" ON "disputes" USING btree ("placement_id") WHERE status <> 'resolved';--> statement-breakpoint
CREATE INDEX "disputes_status_idx" ON "disputes" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "disputes_respond_idx" ON "disputes" USING btree ("respond_by") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "disputes_escalate_idx" ON "disputes" USING btree ("escalate_by") WHERE status = 'offered';--> statement-breakpoint
CREATE INDEX "disputes_decide_idx" ON "disputes" USING btree ("decide_by") WHERE status = 'escalated';