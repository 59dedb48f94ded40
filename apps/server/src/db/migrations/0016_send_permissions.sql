ALTER TABLE "document_sources" ADD COLUMN "is_global" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "intake_rules" ADD COLUMN "to_addresses" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "intake_rules" ADD COLUMN "is_global" boolean DEFAULT false NOT NULL;