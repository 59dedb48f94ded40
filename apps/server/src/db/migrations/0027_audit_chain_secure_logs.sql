-- Issue 27 §3: a tamper-evident audit trail (one hash chain per organization, the platform's own events in the
-- chain of the nil uuid) and the secure log of server errors under their reference ids.
ALTER TABLE "audit_events" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" text;--> statement-breakpoint
CREATE TABLE "audit_chain_heads" (
	"chain_key" uuid PRIMARY KEY NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"last_hash" text NOT NULL,
	"pruned_through_seq" bigint DEFAULT 0 NOT NULL,
	"pruned_through_hash" text
);--> statement-breakpoint
CREATE TABLE "secure_logs" (
	"reference_id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status_code" integer NOT NULL,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"request_id" text,
	"user_id" uuid,
	"organization_id" uuid,
	"message" text NOT NULL,
	"error" jsonb NOT NULL
);--> statement-breakpoint
CREATE INDEX "secure_logs_created_idx" ON "secure_logs" USING btree ("created_at");--> statement-breakpoint
-- What the hash covers: every column of the row, each as its byte length, ':' and its text (null as '~'), so no
-- two rows share a text. `npm run audit:verify` rebuilds the same text in TypeScript (platform/audit-chain.ts).
CREATE FUNCTION audit_chain_field(v text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN v IS NULL THEN '~' ELSE octet_length(v)::text || ':' || v END
$$;--> statement-breakpoint
CREATE FUNCTION audit_chain_hash(seq bigint, prev_hash text, id uuid, event_type text, user_id uuid, user_name text, organization_id uuid, ip text, correlation_id text, details jsonb, created_at timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(
    audit_chain_field(seq::text) || audit_chain_field(prev_hash) || audit_chain_field(id::text) || audit_chain_field(event_type)
    || audit_chain_field(user_id::text) || audit_chain_field(user_name) || audit_chain_field(organization_id::text) || audit_chain_field(ip)
    || audit_chain_field(correlation_id) || audit_chain_field(details::text)
    || audit_chain_field(((extract(epoch FROM created_at) * 1000000)::bigint)::text), 'UTF8')), 'hex')
$$;--> statement-breakpoint
-- Every insert, whatever wrote it (writeAudit, a CTE, raw SQL), joins its organization's chain. The chain head row
-- is locked until the inserting transaction ends, so two writers of one organization never fork the chain: the
-- second waits and links to the first (a rollback gives the number back).
CREATE FUNCTION audit_events_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k uuid := coalesce(NEW.organization_id, '00000000-0000-0000-0000-000000000000');
  head record;
BEGIN
  SELECT seq, last_hash INTO head FROM audit_chain_heads WHERE chain_key = k FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO audit_chain_heads (chain_key, seq, last_hash) VALUES (k, 0, repeat('0', 64)) ON CONFLICT (chain_key) DO NOTHING;
    SELECT seq, last_hash INTO head FROM audit_chain_heads WHERE chain_key = k FOR UPDATE;
  END IF;
  NEW.chain_seq := head.seq + 1;
  NEW.prev_hash := head.last_hash;
  NEW.hash := audit_chain_hash(NEW.chain_seq, NEW.prev_hash, NEW.id, NEW.event_type, NEW.user_id, NEW.user_name, NEW.organization_id, NEW.ip, NEW.correlation_id, NEW.details, NEW.created_at);
  UPDATE audit_chain_heads SET seq = NEW.chain_seq, last_hash = NEW.hash WHERE chain_key = k;
  RETURN NEW;
END
$$;--> statement-breakpoint
-- The rows written before the chain existed join it in the order they were written.
DO $$
DECLARE
  r record;
  k uuid;
  s bigint;
  p text;
  h text;
BEGIN
  FOR r IN SELECT * FROM audit_events ORDER BY coalesce(organization_id, '00000000-0000-0000-0000-000000000000'), created_at, id LOOP
    k := coalesce(r.organization_id, '00000000-0000-0000-0000-000000000000');
    SELECT seq, last_hash INTO s, p FROM audit_chain_heads WHERE chain_key = k;
    IF NOT FOUND THEN
      s := 0;
      p := repeat('0', 64);
      INSERT INTO audit_chain_heads (chain_key, seq, last_hash) VALUES (k, 0, p);
    END IF;
    h := audit_chain_hash(s + 1, p, r.id, r.event_type, r.user_id, r.user_name, r.organization_id, r.ip, r.correlation_id, r.details, r.created_at);
    UPDATE audit_events SET chain_seq = s + 1, prev_hash = p, hash = h WHERE id = r.id;
    UPDATE audit_chain_heads SET seq = s + 1, last_hash = h WHERE chain_key = k;
  END LOOP;
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_events_chain BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_chain();--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_chain_idx" ON "audit_events" USING btree (coalesce("organization_id", '00000000-0000-0000-0000-000000000000'::uuid), "chain_seq");--> statement-breakpoint
-- Audit rows are written once. Only the documented retention path (README "Audit trail"), run by the table owner
-- with triggers off, may remove the oldest rows of a chain, and it records where the chain now starts.
CREATE FUNCTION audit_events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events rows cannot be changed or deleted' USING ERRCODE = '42501';
END
$$;--> statement-breakpoint
CREATE TRIGGER audit_events_immutable BEFORE UPDATE OR DELETE ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_immutable();--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION audit_events_immutable();--> statement-breakpoint
-- The retention path: removes a chain's rows older than the cutoff and records the last removed link, so the
-- verifier starts the chain there. Needs the immutability trigger off (session_replication_role = replica, which
-- only a superuser or the table owner's administrator can set), so the application's role cannot call it usefully.
CREATE FUNCTION audit_prune(cutoff timestamptz) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  c record;
  last_removed record;
  removed bigint := 0;
  n bigint;
BEGIN
  FOR c IN SELECT chain_key FROM audit_chain_heads LOOP
    SELECT chain_seq, hash INTO last_removed FROM audit_events
      WHERE coalesce(organization_id, '00000000-0000-0000-0000-000000000000') = c.chain_key AND created_at < cutoff
      ORDER BY chain_seq DESC LIMIT 1;
    CONTINUE WHEN NOT FOUND;
    DELETE FROM audit_events WHERE coalesce(organization_id, '00000000-0000-0000-0000-000000000000') = c.chain_key AND chain_seq <= last_removed.chain_seq;
    GET DIAGNOSTICS n = ROW_COUNT;
    removed := removed + n;
    UPDATE audit_chain_heads SET pruned_through_seq = last_removed.chain_seq, pruned_through_hash = last_removed.hash WHERE chain_key = c.chain_key;
  END LOOP;
  RETURN removed;
END
$$;
--> statement-breakpoint
-- POST /api/admin/audits searches every organization by date.
CREATE INDEX "audit_events_created_idx" ON "audit_events" USING btree ("created_at");
