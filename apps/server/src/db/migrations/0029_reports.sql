CREATE TABLE "generated_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"file_name" text NOT NULL,
	"organization_id" uuid,
	"period" text NOT NULL,
	"blob_id" uuid NOT NULL,
	"size_in_bytes" integer NOT NULL,
	"create_date" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "generated_reports_kind_org_period_unique" UNIQUE("kind","organization_id","period")
);
--> statement-breakpoint
CREATE TABLE "generated_report_runs" (
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "generated_report_runs_kind_period_pk" PRIMARY KEY("kind","period")
);
--> statement-breakpoint
ALTER TABLE "generated_reports" ADD CONSTRAINT "generated_reports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generated_reports" ADD CONSTRAINT "generated_reports_blob_id_blobs_id_fk" FOREIGN KEY ("blob_id") REFERENCES "public"."blobs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generated_reports_create_date_idx" ON "generated_reports" USING btree ("create_date","id");--> statement-breakpoint
CREATE INDEX "message_events_created_idx" ON "message_events" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "sessions_created_idx" ON "sessions" USING btree ("created_at","id");
