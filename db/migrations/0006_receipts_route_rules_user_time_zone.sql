CREATE TABLE "receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"transaction_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"method" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"order_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"mailed_at" timestamp with time zone,
	"mail_claimed_at" timestamp with time zone,
	"mail_attempts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "receipts_transaction_id_unique" UNIQUE("transaction_id"),
	CONSTRAINT "receipts_kind" CHECK ("receipts"."kind" in ('topup', 'purchase', 'gift')),
	CONSTRAINT "receipts_amount" CHECK ("receipts"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "route_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"from" text NOT NULL,
	"to" text NOT NULL,
	"status" integer DEFAULT 302 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "route_rules_from_unique" UNIQUE("from"),
	CONSTRAINT "route_rules_status" CHECK ("route_rules"."status" in (301, 302)),
	CONSTRAINT "route_rules_from" CHECK ("route_rules"."from" like '/%')
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "locale_chosen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receipts_user_id_desc" ON "receipts" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "receipts_unmailed" ON "receipts" USING btree ("id") WHERE "receipts"."mailed_at" is null;