CREATE TABLE "intake_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"to_address" text,
	"from_address" text,
	"source_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patient_extractions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"attachment_id" uuid NOT NULL,
	"status" text DEFAULT 'Processing' NOT NULL,
	"patient" jsonb,
	"elapsed_ms" integer,
	"no_text" boolean DEFAULT false NOT NULL,
	"error" boolean DEFAULT false NOT NULL,
	"no_match" boolean DEFAULT false NOT NULL,
	"conflicts" boolean DEFAULT false NOT NULL,
	"perfect_match" boolean DEFAULT false NOT NULL,
	"confidence_is_very_high" boolean DEFAULT false NOT NULL,
	"hits" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_document_sources" (
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"document_source_id" uuid NOT NULL,
	CONSTRAINT "user_document_sources_user_id_document_source_id_pk" PRIMARY KEY("user_id","document_source_id")
);
--> statement-breakpoint
CREATE TABLE "user_intake_rules" (
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"intake_rule_id" uuid NOT NULL,
	CONSTRAINT "user_intake_rules_user_id_intake_rule_id_pk" PRIMARY KEY("user_id","intake_rule_id")
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "assigned_user_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "is_read" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "failed_acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "intake_rules" ADD CONSTRAINT "intake_rules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_extractions" ADD CONSTRAINT "patient_extractions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_extractions" ADD CONSTRAINT "patient_extractions_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_extractions" ADD CONSTRAINT "patient_extractions_attachment_id_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."attachments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_document_sources" ADD CONSTRAINT "user_document_sources_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_document_sources" ADD CONSTRAINT "user_document_sources_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_document_sources" ADD CONSTRAINT "user_document_sources_document_source_id_document_sources_id_fk" FOREIGN KEY ("document_source_id") REFERENCES "public"."document_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_intake_rules" ADD CONSTRAINT "user_intake_rules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_intake_rules" ADD CONSTRAINT "user_intake_rules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_intake_rules" ADD CONSTRAINT "user_intake_rules_intake_rule_id_intake_rules_id_fk" FOREIGN KEY ("intake_rule_id") REFERENCES "public"."intake_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "intake_rules_org_idx" ON "intake_rules" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "patient_extractions_attachment_idx" ON "patient_extractions" USING btree ("attachment_id","created_at");--> statement-breakpoint
CREATE INDEX "patient_extractions_org_idx" ON "patient_extractions" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "user_document_sources_org_idx" ON "user_document_sources" USING btree ("organization_id");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_assigned_user_id_users_id_fk" FOREIGN KEY ("assigned_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_intake_received_idx" ON "messages" USING btree ("organization_id","direction","system_received_date");