CREATE TABLE "user_data_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "user_data_changes_user" ON "user_data_changes" USING btree ("user_id");--> statement-breakpoint
-- The version of a user's row, transactions and subscriptions (docs/decisions/0076-own-rows-by-version.md):
-- every statement that inserts, changes or removes rows of theirs adds the number of those rows (a
-- change counts twice, its row before and after; the user's own row counts when it changes). The new change row of each user takes in the
-- user's earlier ones that no other transaction holds (SKIP LOCKED: a writer never waits here), so
-- a user keeps about one row; what it takes in and what it adds appear together at commit, so the
-- sum only ever grows, by the changes committed. One statement per writing statement, however
-- many users it touched (a bulk compensation).
CREATE FUNCTION "user_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_users integer[];
  changes bigint[];
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    SELECT array_agg("user_id"), array_agg("n") INTO changed_users, changes
      FROM (SELECT "user_id", count(*) AS "n" FROM (SELECT "id" AS "user_id" FROM changed UNION ALL SELECT "id" FROM changed_before) r GROUP BY "user_id") c;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg("user_id"), array_agg("n") INTO changed_users, changes
      FROM (SELECT "user_id", count(*) AS "n" FROM (SELECT "user_id" FROM changed UNION ALL SELECT "user_id" FROM changed_before) r GROUP BY "user_id") c;
  ELSE
    SELECT array_agg("user_id"), array_agg("n") INTO changed_users, changes
      FROM (SELECT "user_id", count(*) AS "n" FROM changed GROUP BY "user_id") c;
  END IF;
  IF changed_users IS NULL THEN
    RETURN NULL;
  END IF;
  WITH counted AS (
    SELECT * FROM unnest(changed_users, changes) AS t("user_id", "n")
  ), earlier AS (
    SELECT "id" FROM "user_data_changes" WHERE "user_id" = ANY (changed_users) FOR UPDATE SKIP LOCKED
  ), folded AS (
    DELETE FROM "user_data_changes" c USING earlier WHERE c."id" = earlier."id" RETURNING c."user_id", c."n"
  ), folded_per_user AS (
    SELECT "user_id", sum("n") AS "n" FROM folded GROUP BY "user_id"
  )
  INSERT INTO "user_data_changes" ("user_id", "n")
    SELECT counted."user_id", counted."n" + coalesce(folded_per_user."n", 0) FROM counted LEFT JOIN folded_per_user USING ("user_id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "transactions_inserted_user_data" AFTER INSERT ON "transactions" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "user_data_changed"();--> statement-breakpoint
CREATE TRIGGER "transactions_updated_user_data" AFTER UPDATE ON "transactions" REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "user_data_changed"();--> statement-breakpoint
CREATE TRIGGER "transactions_deleted_user_data" AFTER DELETE ON "transactions" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "user_data_changed"();--> statement-breakpoint
CREATE TRIGGER "subscriptions_inserted_user_data" AFTER INSERT ON "subscriptions" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "user_data_changed"();--> statement-breakpoint
CREATE TRIGGER "subscriptions_updated_user_data" AFTER UPDATE ON "subscriptions" REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "user_data_changed"();--> statement-breakpoint
CREATE TRIGGER "subscriptions_deleted_user_data" AFTER DELETE ON "subscriptions" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "user_data_changed"();--> statement-breakpoint
CREATE TRIGGER "users_updated_user_data" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "user_data_changed"();
