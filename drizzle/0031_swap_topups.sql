ALTER TABLE "checkouts" ADD COLUMN "swap_of" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "topup_of" uuid;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_swap_of_placements_id_fk" FOREIGN KEY ("swap_of") REFERENCES "public"."placements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_topup_of_payments_id_fk" FOREIGN KEY ("topup_of") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_topup_idx" ON "payments" USING btree ("topup_of") WHERE topup_of IS NOT NULL;