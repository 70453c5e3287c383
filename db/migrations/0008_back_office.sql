CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" integer,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"reason" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"ip" text,
	CONSTRAINT "audit_log_reason" CHECK (char_length("audit_log"."reason") between 1 and 500)
);
--> statement-breakpoint
CREATE TABLE "compensation_items" (
	"compensation_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"applied_at" timestamp with time zone,
	"mailed_at" timestamp with time zone,
	CONSTRAINT "compensation_items_compensation_id_subscription_id_pk" PRIMARY KEY("compensation_id","subscription_id")
);
--> statement-breakpoint
CREATE TABLE "compensations" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_id" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"cheat_id" integer NOT NULL,
	"days" integer NOT NULL,
	"reason" text NOT NULL,
	"total" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "compensations_days" CHECK ("compensations"."days" between 1 and 365)
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"request_id" text NOT NULL,
	"actor_id" integer NOT NULL,
	"refund_id" text,
	"status" text DEFAULT 'requested' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_refunds_request_id_unique" UNIQUE("request_id"),
	CONSTRAINT "payment_refunds_status" CHECK ("payment_refunds"."status" in ('requested', 'completed', 'pending', 'refused')),
	CONSTRAINT "payment_refunds_amount" CHECK ("payment_refunds"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "step_up_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "template" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "params" jsonb;--> statement-breakpoint
ALTER TABLE "compensation_items" ADD CONSTRAINT "compensation_items_compensation_id_compensations_id_fk" FOREIGN KEY ("compensation_id") REFERENCES "public"."compensations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compensation_items" ADD CONSTRAINT "compensation_items_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compensations" ADD CONSTRAINT "compensations_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compensations" ADD CONSTRAINT "compensations_cheat_id_cheats_id_fk" FOREIGN KEY ("cheat_id") REFERENCES "public"."cheats"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_order_id_payment_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_actor" ON "audit_log" USING btree ("actor_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_target" ON "audit_log" USING btree ("target_type","target_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "compensation_items_pending" ON "compensation_items" USING btree ("compensation_id","subscription_id") WHERE "compensation_items"."applied_at" is null;--> statement-breakpoint
CREATE INDEX "compensation_items_unmailed" ON "compensation_items" USING btree ("compensation_id") WHERE "compensation_items"."applied_at" is not null and "compensation_items"."mailed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "compensations_actor_key" ON "compensations" USING btree ("actor_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "payment_refunds_order" ON "payment_refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_to" ON "mail_outbox" USING btree (lower("to"),"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role" CHECK ("users"."role" is null or "users"."role" in ('owner', 'support'));