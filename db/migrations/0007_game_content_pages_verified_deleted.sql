CREATE TABLE "game_texts" (
	"cheat_id" integer NOT NULL,
	"locale" text NOT NULL,
	"name" text NOT NULL,
	"tagline" text NOT NULL,
	"description" text NOT NULL,
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"requirements" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"modes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"changelog" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"faq" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status_note" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "game_texts_cheat_id_locale_pk" PRIMARY KEY("cheat_id","locale"),
	CONSTRAINT "game_texts_locale" CHECK ("game_texts"."locale" in ('ru', 'en', 'cn', 'es', 'hi', 'pt', 'id'))
);
--> statement-breakpoint
CREATE TABLE "site_pages" (
	"slug" text NOT NULL,
	"locale" text NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"body" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_pages_slug_locale_pk" PRIMARY KEY("slug","locale"),
	CONSTRAINT "site_pages_slug" CHECK ("site_pages"."slug" in ('terms', 'privacy', 'refunds', 'support')),
	CONSTRAINT "site_pages_locale" CHECK ("site_pages"."locale" in ('ru', 'en', 'cn', 'es', 'hi', 'pt', 'id'))
);
--> statement-breakpoint
ALTER TABLE "one_time_codes" DROP CONSTRAINT "one_time_codes_purpose";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cheats" ADD COLUMN "status" text DEFAULT 'working' NOT NULL;--> statement-breakpoint
ALTER TABLE "cheats" ADD COLUMN "last_updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "cheats" ADD COLUMN "visible" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "game_texts" ADD CONSTRAINT "game_texts_cheat_id_cheats_id_fk" FOREIGN KEY ("cheat_id") REFERENCES "public"."cheats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_purpose" CHECK ("one_time_codes"."purpose" in ('password_reset', 'email_change', 'email_change_undo', 'sso_ticket', 'email_verify'));--> statement-breakpoint
ALTER TABLE "cheats" ADD CONSTRAINT "cheats_status" CHECK ("cheats"."status" in ('working', 'updating', 'detected', 'maintenance'));