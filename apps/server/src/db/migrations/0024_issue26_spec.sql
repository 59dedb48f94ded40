ALTER TABLE "directory_entries" ADD COLUMN "official_last_name" text;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "official_first_name" text;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "official_middle_name" text;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "official_name_prefix" text;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "official_name_suffix" text;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "official_credential" text;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "official_title" text;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "official_phone" text;--> statement-breakpoint
ALTER TABLE "directory_entries" ADD COLUMN "organization_subpart" text;--> statement-breakpoint
ALTER TABLE "patient_extractions" ADD COLUMN "several_people" boolean DEFAULT false NOT NULL;