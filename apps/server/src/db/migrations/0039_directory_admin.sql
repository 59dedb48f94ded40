-- Issue 29 §7: directory entries of the directory service, directory download requests and their parts, e-signature accounts.
CREATE TABLE "directory_service_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"entry_type" text NOT NULL,
	"is_system_generated" boolean DEFAULT false NOT NULL,
	"data" jsonb NOT NULL,
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
ALTER TABLE "directory_service_entries" ADD CONSTRAINT "directory_service_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "directory_service_entries_name_idx" ON "directory_service_entries" USING btree ("entity_type","name_norm");
--> statement-breakpoint
CREATE INDEX "directory_service_entries_address_idx" ON "directory_service_entries" USING btree ("direct_address");
--> statement-breakpoint
CREATE TABLE "directory_downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"requested_by" uuid,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"since" timestamp with time zone,
	"cutoff" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"row_count" integer,
	"part_count" integer,
	"size_in_bytes" bigint,
	"log_message" text
);
--> statement-breakpoint
ALTER TABLE "directory_downloads" ADD CONSTRAINT "directory_downloads_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "directory_downloads_occurred_idx" ON "directory_downloads" USING btree ("occurred_at");
--> statement-breakpoint
CREATE TABLE "directory_download_parts" (
	"download_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"blob_id" uuid NOT NULL,
	"row_count" integer NOT NULL,
	"last_npi" text,
	CONSTRAINT "directory_download_parts_download_id_part_pk" PRIMARY KEY("download_id","part")
);
--> statement-breakpoint
ALTER TABLE "directory_download_parts" ADD CONSTRAINT "directory_download_parts_download_id_directory_downloads_id_fk" FOREIGN KEY ("download_id") REFERENCES "public"."directory_downloads"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "directory_download_parts" ADD CONSTRAINT "directory_download_parts_blob_id_blobs_id_fk" FOREIGN KEY ("blob_id") REFERENCES "public"."blobs"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "esignature_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"external_account_id" text NOT NULL,
	"account_name" text NOT NULL,
	"email" text NOT NULL,
	"access_token_sealed" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "esignature_accounts_provider_account_key" UNIQUE("provider","external_account_id")
);
--> statement-breakpoint
ALTER TABLE "esignature_accounts" ADD CONSTRAINT "esignature_accounts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
