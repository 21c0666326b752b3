CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "saved_opportunities" (
	"brand_id" uuid NOT NULL,
	"opportunity_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_opportunities_brand_id_opportunity_id_pk" PRIMARY KEY("brand_id","opportunity_id")
);
--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "tat_days" integer;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "link_type" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "topics" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "opportunities" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', outlet_name), 'A') || setweight(to_tsvector('simple', title), 'B') || setweight(to_tsvector('simple', description), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "saved_opportunities" ADD CONSTRAINT "saved_opportunities_brand_id_users_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_opportunities" ADD CONSTRAINT "saved_opportunities_opportunity_id_opportunities_id_fk" FOREIGN KEY ("opportunity_id") REFERENCES "public"."opportunities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_opportunities_opportunity_idx" ON "saved_opportunities" USING btree ("opportunity_id");--> statement-breakpoint
CREATE INDEX "opportunities_browse_newest_idx" ON "opportunities" USING btree ("created_at","id") WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_price_idx" ON "opportunities" USING btree ("price_usd","id") WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_da_idx" ON "opportunities" USING btree (coalesce("domain_authority", 0),"id") WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_deadline_idx" ON "opportunities" USING btree (coalesce("deadline_date", 'infinity'::timestamptz),"id") WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_country_idx" ON "opportunities" USING btree ("country","price_usd") WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_language_idx" ON "opportunities" USING btree ("language","price_usd") WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_link_type_idx" ON "opportunities" USING btree ("link_type","price_usd") WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_tat_idx" ON "opportunities" USING btree ("tat_days") WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_browse_topics_idx" ON "opportunities" USING gin ("topics") WHERE status = 'available';--> statement-breakpoint
CREATE INDEX "opportunities_search_idx" ON "opportunities" USING gin ("search");--> statement-breakpoint
CREATE INDEX "opportunities_outlet_trgm_idx" ON "opportunities" USING gin ("outlet_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ((coalesce("name", '') || ' ' || coalesce("brand_name", '') || ' ' || "email") gin_trgm_ops);