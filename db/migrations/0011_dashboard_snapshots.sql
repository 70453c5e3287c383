CREATE TABLE "pass_snapshots" (
	"day" date NOT NULL,
	"cheat_id" integer NOT NULL,
	"held" integer NOT NULL,
	"frozen" integer NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pass_snapshots_day_cheat_id_pk" PRIMARY KEY("day","cheat_id")
);
