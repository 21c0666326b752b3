CREATE TABLE "signin_addresses" (
	"user_id" uuid NOT NULL,
	"address" text NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "signin_addresses_address_user_id_pk" PRIMARY KEY("address","user_id")
);
--> statement-breakpoint
ALTER TABLE "signin_addresses" ADD CONSTRAINT "signin_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signin_addresses_user_idx" ON "signin_addresses" USING btree ("user_id","last_at");