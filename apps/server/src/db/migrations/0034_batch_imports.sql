-- Batch organization import (issue 29 §2): a file and its metadata, and one item per row with what became of it.
CREATE TABLE "batch_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_type" text DEFAULT 'Organization' NOT NULL,
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"row_count" integer NOT NULL,
	"workflow_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "batch_import_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"key" text NOT NULL,
	"values" jsonb NOT NULL,
	"item_status" text DEFAULT 'Pending' NOT NULL,
	"item_error" text,
	"organization_id" uuid,
	"primary_contact_status" text DEFAULT 'Pending' NOT NULL,
	"pcs_errors" text,
	"user_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_imports" ADD CONSTRAINT "batch_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "batch_import_items" ADD CONSTRAINT "batch_import_items_batch_id_batch_imports_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batch_imports"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "batch_import_items" ADD CONSTRAINT "batch_import_items_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "batch_import_items" ADD CONSTRAINT "batch_import_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "batch_imports_created_idx" ON "batch_imports" USING btree ("created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "batch_import_items_batch_row_idx" ON "batch_import_items" USING btree ("batch_id","row_number");
--> statement-breakpoint
CREATE UNIQUE INDEX "batch_import_items_created_key_idx" ON "batch_import_items" USING btree ("key") WHERE "batch_import_items"."organization_id" is not null;
--> statement-breakpoint
CREATE INDEX "batch_import_items_key_idx" ON "batch_import_items" USING btree ("key");
