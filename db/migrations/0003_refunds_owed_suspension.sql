CREATE TABLE "referral_rewards" (
	"id" serial PRIMARY KEY NOT NULL,
	"referrer_id" integer NOT NULL,
	"buyer_id" integer NOT NULL,
	"order_id" integer,
	"payment_reference" text NOT NULL,
	"amount" bigint NOT NULL,
	"reversed" bigint DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"release_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"transaction_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_rewards_payment_reference_unique" UNIQUE("payment_reference"),
	CONSTRAINT "referral_rewards_status" CHECK ("referral_rewards"."status" in ('pending', 'released', 'cancelled', 'refused')),
	CONSTRAINT "referral_rewards_amounts" CHECK ("referral_rewards"."amount" > 0 and "referral_rewards"."reversed" >= 0 and "referral_rewards"."reversed" <= "referral_rewards"."amount")
);
--> statement-breakpoint
ALTER TABLE "payment_orders" DROP CONSTRAINT "payment_orders_status";--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_type";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "signup_ip" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "owed" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_reason" text;--> statement-breakpoint
ALTER TABLE "gifts" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "payer_id" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "refunded" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "disputed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "dispute_id" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "owed_change" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "related_id" bigint;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_referrer_id_users_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_order_id_payment_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "referral_rewards_due" ON "referral_rewards" USING btree ("status","release_at");--> statement-breakpoint
CREATE INDEX "referral_rewards_referrer" ON "referral_rewards" USING btree ("referrer_id");--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_order_id_payment_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_related_id_transactions_id_fk" FOREIGN KEY ("related_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gifts_transaction" ON "gifts" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "payment_orders_payer" ON "payment_orders" USING btree ("payer_id");--> statement-breakpoint
CREATE INDEX "transactions_related" ON "transactions" USING btree ("related_id");--> statement-breakpoint
CREATE INDEX "transactions_order" ON "transactions" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_owed_non_negative" CHECK ("users"."owed" >= 0);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_suspension_reason" CHECK (("users"."suspended_at" is null) = ("users"."suspended_reason" is null));--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_voided_unredeemed" CHECK ("gifts"."voided_at" is null or "gifts"."redeemed_by" is null);--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_refunded" CHECK ("payment_orders"."refunded" >= 0 and "payment_orders"."refunded" <= "payment_orders"."amount");--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_status" CHECK ("payment_orders"."status" in ('created', 'approved', 'completed', 'partially_refunded', 'refunded', 'reversed', 'failed'));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_type" CHECK ("transactions"."type" in ('topup', 'purchase', 'gift', 'referral_reward', 'refund', 'reversal', 'adjustment'));