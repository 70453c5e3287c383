ALTER TABLE "transactions" DROP CONSTRAINT "transactions_type";--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_source";--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "reserved" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_reserved" CHECK ("payment_orders"."reserved" >= 0 and ("payment_orders"."reserved" = 0 or "payment_orders"."kind" = 'product'));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_type" CHECK ("transactions"."type" in ('topup', 'purchase', 'gift', 'referral_reward', 'refund', 'reversal', 'adjustment', 'reserve', 'release'));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_source" CHECK ("transactions"."source" in ('balance', 'paypal', 'btcpay', 'demo', 'system'));