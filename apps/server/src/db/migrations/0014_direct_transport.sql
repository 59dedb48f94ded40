CREATE TABLE "trust_bundles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"url" text,
	"domain" text,
	"incoming" boolean DEFAULT true NOT NULL,
	"outgoing" boolean DEFAULT true NOT NULL,
	"refresh_interval_minutes" integer DEFAULT 1440 NOT NULL,
	"checksum" text,
	"last_refreshed_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trust_bundles_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "delivery_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"stage" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_events_stage_unique" UNIQUE("delivery_id","stage")
);
--> statement-breakpoint
ALTER TABLE "trust_anchors" DROP CONSTRAINT "trust_anchors_thumbprintSha256_unique";--> statement-breakpoint
ALTER TABLE "trust_anchors" ADD COLUMN "bundle_id" uuid;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "direct_message_id" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "notification_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "delivery_events" ADD CONSTRAINT "delivery_events_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_events" ADD CONSTRAINT "delivery_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_events_delivery_idx" ON "delivery_events" USING btree ("delivery_id","created_at");--> statement-breakpoint
ALTER TABLE "trust_anchors" ADD CONSTRAINT "trust_anchors_bundle_id_trust_bundles_id_fk" FOREIGN KEY ("bundle_id") REFERENCES "public"."trust_bundles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deliveries_direct_message_idx" ON "deliveries" USING btree ("direct_message_id");--> statement-breakpoint
CREATE INDEX "deliveries_notification_due_idx" ON "deliveries" USING btree ("notification_due_at");