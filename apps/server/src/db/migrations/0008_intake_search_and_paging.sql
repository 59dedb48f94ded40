DROP INDEX "messages_intake_received_idx";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("messages"."subject" || chr(10) || coalesce("messages"."from_address", '') || chr(10) || "messages"."to_address" || chr(10) || coalesce("messages"."patient_name", '') || case when "messages"."from_address" ~ '^[0-9 ().+-]+$' then chr(10) || regexp_replace("messages"."from_address", '[^0-9]', '', 'g') else '' end || case when "messages"."to_address" ~ '^[0-9 ().+;-]+$' then chr(10) || regexp_replace("messages"."to_address", '[^0-9;]', '', 'g') else '' end)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "recipients" text[] GENERATED ALWAYS AS (string_to_array(lower("messages"."to_address"), ';')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_intake_by_received_idx" ON "messages" USING btree ("organization_id","system_received_date","id") WHERE "messages"."direction" = 'Inbound' and "messages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "messages_intake_by_updated_idx" ON "messages" USING btree ("organization_id","updated_date","id") WHERE "messages"."direction" = 'Inbound' and "messages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "messages_intake_source_idx" ON "messages" USING btree ("organization_id","source_type","system_received_date") WHERE "messages"."direction" = 'Inbound' and "messages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "messages_intake_assigned_idx" ON "messages" USING btree ("organization_id","assigned_user_id","system_received_date") WHERE "messages"."direction" = 'Inbound' and "messages"."deleted_at" is null;--> statement-breakpoint
-- Intake's search looks for words anywhere in search_text: a trigram index of received messages serves it where
-- pg_trgm can be installed (PostgreSQL's contrib; PGlite loads it, db/client.ts). Without it the search still works, by scanning.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): Intake search runs without its trigram index.', SQLERRM;
END
$$;--> statement-breakpoint
DO $$
DECLARE
  trgm_schema text := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm');
BEGIN
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX IF NOT EXISTS "messages_search_trgm_idx" ON "messages" USING gin ("search_text" %I.gin_trgm_ops) WHERE "direction" = ''Inbound''', trgm_schema);
  END IF;
END
$$;
