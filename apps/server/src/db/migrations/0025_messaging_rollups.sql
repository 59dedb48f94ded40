-- Messaging health dashboard (issue 27 §1): messages per minute, direction, channel and outcome, written in the same
-- transaction as the workflow step that delivered or received them, so the dashboard never scans workflow_steps.
CREATE TABLE "messaging_rollups" (
	"minute" timestamp with time zone NOT NULL,
	"direction" text NOT NULL,
	"channel" text NOT NULL,
	"outcome" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "messaging_rollups_pk" PRIMARY KEY("minute","direction","channel","outcome")
);
--> statement-breakpoint
-- A worker process's last sign of life (GET /api/diagnostics/worker, the "workers not heartbeating" alert).
CREATE TABLE "worker_heartbeats" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"lanes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The "Direct recipients without an MDN" alert reads only the recipients that timed out.
CREATE INDEX "deliveries_no_notification_idx" ON "deliveries" USING btree ("updated_at") WHERE "deliveries"."status" = 'Failed' and "deliveries"."reason" = 'No delivery notification received';
--> statement-breakpoint
-- The "failed workflows in the last hour" alert reads only the recent failures, however many failed before.
CREATE INDEX "workflows_failed_updated_idx" ON "workflows" USING btree ("updated_at") WHERE "workflows"."status" = 'Failed';
