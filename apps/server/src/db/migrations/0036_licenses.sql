CREATE TABLE "license_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"subscription" text,
	"subscription_duration_days" integer,
	"application_names" text[] DEFAULT '{}'::text[] NOT NULL,
	"connector_names" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" uuid,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "license_types_nameKey_unique" UNIQUE("name_key")
);
--> statement-breakpoint
CREATE TABLE "licenses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"license_type_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"licensee_name" text NOT NULL,
	"email" text NOT NULL,
	"internal_product_name" text NOT NULL,
	"application_name" text,
	"reference" text NOT NULL,
	"connector_id" text,
	"connector_name" text,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"issued_by" uuid
);
--> statement-breakpoint
ALTER TABLE "license_types" ADD CONSTRAINT "license_types_subscription_subscription_plans_id_fk" FOREIGN KEY ("subscription") REFERENCES "public"."subscription_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_license_type_id_license_types_id_fk" FOREIGN KEY ("license_type_id") REFERENCES "public"."license_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "licenses_key_hash_idx" ON "licenses" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "licenses_organization_idx" ON "licenses" USING btree ("organization_id","issued_at");--> statement-breakpoint
CREATE INDEX "licenses_expires_idx" ON "licenses" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "licenses_type_idx" ON "licenses" USING btree ("license_type_id");
