-- Issue 29 §5: the Feature of back-office-b §3 (organization feature flag and audit columns).
ALTER TABLE "feature_toggles" ADD COLUMN "is_organization_feature" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "feature_toggles" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "feature_toggles" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "feature_toggles" ADD COLUMN "modified_by" uuid;--> statement-breakpoint
ALTER TABLE "feature_toggles" ADD COLUMN "modified_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- The end-user features, and any an organization already has a setting for, keep their per-organization settings.
UPDATE "feature_toggles" SET "is_organization_feature" = true
 WHERE "name" IN ('PatientExtractionAPI', 'IntakeCdaViewer', 'AutomatedCarePlans', 'UseOptimizedIntake')
    OR EXISTS (SELECT 1 FROM "organization_features" f WHERE f."feature_id" = "feature_toggles"."id");--> statement-breakpoint
CREATE UNIQUE INDEX "feature_toggles_name_lower_idx" ON "feature_toggles" USING btree (lower("name"));--> statement-breakpoint
-- Every server process keeps the toggles in memory: any change, whoever writes it, tells them all at commit.
CREATE FUNCTION "notify_feature_toggles_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('feature_toggles_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "feature_toggles_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "feature_toggles"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_feature_toggles_changed"();--> statement-breakpoint
CREATE TRIGGER "organization_features_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organization_features"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_feature_toggles_changed"();--> statement-breakpoint
-- Issue 29 §6: health referral regions and the ZIP code → health service area crosswalk.
CREATE TABLE "health_referral_regions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" uuid,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "health_referral_regions_name_lower_idx" ON "health_referral_regions" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "health_referral_regions_code_lower_idx" ON "health_referral_regions" USING btree (lower("code"));--> statement-breakpoint
CREATE TABLE "health_service_areas" (
	"zip_code" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"health_referral_region_id" uuid NOT NULL,
	"last_updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "health_service_areas" ADD CONSTRAINT "health_service_areas_health_referral_region_id_health_referral_regions_id_fk" FOREIGN KEY ("health_referral_region_id") REFERENCES "public"."health_referral_regions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "health_service_areas_region_idx" ON "health_service_areas" USING btree ("health_referral_region_id");--> statement-breakpoint
CREATE INDEX "health_service_areas_code_idx" ON "health_service_areas" USING btree ("code");
