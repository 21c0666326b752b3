ALTER TABLE "orders" ADD COLUMN "purchase_request_id" uuid;--> statement-breakpoint
ALTER TABLE "purchase_requests" ADD COLUMN "lines" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_purchase_request_id_purchase_requests_id_fk" FOREIGN KEY ("purchase_request_id") REFERENCES "public"."purchase_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_paid_per_request" ON "orders" USING btree ("purchase_request_id") WHERE status = 'completed';