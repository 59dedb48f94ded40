ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "idle_timeout_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_totp_step" bigint;--> statement-breakpoint
-- Disabling a user ends every session at once, whatever path disabled them, so re-enabling revives none.
CREATE FUNCTION "revoke_sessions_of_disabled_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "sessions" SET "revoked_at" = now(), "revoked_reason" = 'user-disabled'
   WHERE "user_id" = NEW."id" AND "revoked_at" IS NULL;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_disabled_revoke_sessions" AFTER UPDATE OF "is_disabled" ON "users"
  FOR EACH ROW WHEN (NEW."is_disabled" AND NOT OLD."is_disabled")
  EXECUTE FUNCTION "revoke_sessions_of_disabled_user"();--> statement-breakpoint
-- Removing a membership ends the sessions working in that organization, and all of them with the last
-- membership, unless a system role keeps the user signed in; re-adding the membership revives none.
CREATE FUNCTION "revoke_sessions_of_removed_member"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "user_system_roles" WHERE "user_id" = OLD."user_id") THEN
    UPDATE "sessions" SET "revoked_at" = now(), "revoked_reason" = 'membership-removed'
     WHERE "user_id" = OLD."user_id" AND "revoked_at" IS NULL
       AND ("organization_id" = OLD."organization_id"
            OR NOT EXISTS (SELECT 1 FROM "memberships" WHERE "user_id" = OLD."user_id"));
  END IF;
  RETURN OLD;
END
$$;--> statement-breakpoint
CREATE TRIGGER "memberships_removed_revoke_sessions" AFTER DELETE ON "memberships"
  FOR EACH ROW EXECUTE FUNCTION "revoke_sessions_of_removed_member"();
