ALTER TABLE "payment_orders" ADD COLUMN "shopping_area" text DEFAULT 'global' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "product" jsonb;