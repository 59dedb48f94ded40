CREATE TABLE "api_captures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"network_id" uuid,
	"user_id" uuid,
	"token_hash" text,
	"user_id_source_type" text NOT NULL,
	"captured_at" timestamp with time zone NOT NULL,
	"method" text NOT NULL,
	"url" text NOT NULL,
	"route" text,
	"status_code" integer NOT NULL,
	"duration_ms" double precision NOT NULL,
	"request" jsonb NOT NULL,
	"response" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_captures" ADD CONSTRAINT "api_captures_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_captures_captured_at_idx" ON "api_captures" USING btree ("captured_at");--> statement-breakpoint
CREATE INDEX "api_captures_organization_captured_at_idx" ON "api_captures" USING btree ("organization_id","captured_at");
