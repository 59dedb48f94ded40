-- The search columns of directory_entries are COLLATE "C" (added by hand: drizzle-kit does not write collations): their values are
-- ASCII (modules/directory/normalize.ts), and a C-collated btree serves both the prefix LIKE and the ORDER BY of a search.
CREATE TABLE "directory_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"entity_type" smallint NOT NULL,
	"npi" text,
	"last_name" text,
	"first_name" text,
	"middle_name" text,
	"organization_name" text,
	"clinic_name" text,
	"phone_primary" text,
	"fax" text,
	"address_line1" text,
	"city" text,
	"state" text,
	"zip" text,
	"taxonomy" text,
	"direct_address" text,
	"name_norm" text NOT NULL,
	"last_norm" text,
	"first_norm" text,
	"org_norm" text,
	"city_norm" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "directory_endpoints" (
	"npi" text NOT NULL,
	"address" text NOT NULL,
	"affiliation_name" text,
	"source_file" text,
	CONSTRAINT "directory_endpoints_npi_address_pk" PRIMARY KEY("npi","address")
);
--> statement-breakpoint
CREATE TABLE "directory_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"npi" text NOT NULL,
	"entity_type" smallint NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"last_name" text,
	"first_name" text,
	"middle_name" text,
	"organization_name" text,
	"clinic_name" text,
	"phone_primary" text,
	"fax" text,
	"address_line1" text,
	"city" text,
	"state" text COLLATE "C",
	"zip" text COLLATE "C",
	"taxonomy" text,
	"direct_address" text,
	"has_direct" boolean GENERATED ALWAYS AS ("direct_address" is not null) STORED NOT NULL,
	"name_norm" text COLLATE "C" NOT NULL,
	"last_norm" text COLLATE "C",
	"first_norm" text COLLATE "C",
	"org_norm" text COLLATE "C",
	"city_norm" text COLLATE "C",
	"source_file" text,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "directory_entries_npi_unique" UNIQUE("npi")
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"invited_by" uuid,
	"full_name" text NOT NULL,
	"email_address" text NOT NULL,
	"direct_address" text,
	"code" text NOT NULL,
	"mail_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invitations_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid,
	"kind" text NOT NULL,
	"from_address" text NOT NULL,
	"from_name" text,
	"to_address" text NOT NULL,
	"to_name" text,
	"reply_to" text,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text NOT NULL,
	"headers" jsonb,
	"status" text DEFAULT 'Queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"delivered_to" text,
	"workflow_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "directory_contacts" ADD CONSTRAINT "directory_contacts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directory_contacts" ADD CONSTRAINT "directory_contacts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "directory_contacts_org_idx" ON "directory_contacts" USING btree ("organization_id","name_norm");--> statement-breakpoint
CREATE INDEX "directory_contacts_address_idx" ON "directory_contacts" USING btree ("direct_address");--> statement-breakpoint
CREATE INDEX "directory_endpoints_address_idx" ON "directory_endpoints" USING btree ("address");--> statement-breakpoint
CREATE INDEX "directory_by_name_idx" ON "directory_entries" USING btree ("entity_type","has_direct","name_norm") WHERE "directory_entries"."active";--> statement-breakpoint
CREATE INDEX "directory_by_state_name_idx" ON "directory_entries" USING btree ("entity_type","has_direct","state","name_norm") WHERE "directory_entries"."active";--> statement-breakpoint
CREATE INDEX "directory_by_city_idx" ON "directory_entries" USING btree ("entity_type","has_direct","city_norm","name_norm") WHERE "directory_entries"."active";--> statement-breakpoint
CREATE INDEX "directory_by_zip_idx" ON "directory_entries" USING btree ("entity_type","has_direct","zip","name_norm") WHERE "directory_entries"."active";--> statement-breakpoint
CREATE INDEX "directory_by_first_idx" ON "directory_entries" USING btree ("entity_type","has_direct","first_norm","name_norm") WHERE "directory_entries"."active";--> statement-breakpoint
CREATE INDEX "invitations_org_idx" ON "invitations" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_status_idx" ON "mail_outbox" USING btree ("status","created_at");