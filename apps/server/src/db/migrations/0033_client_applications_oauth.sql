-- Issue 29 §1: client applications (OAuth 2.0 clients) and the authorization server's models.
CREATE TABLE "client_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"logo_url" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"application_url" text NOT NULL,
	"client_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"credentials_version" integer DEFAULT 1 NOT NULL,
	"credentials_issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"organization_id" uuid,
	"integration_user_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" uuid,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_applications_clientId_unique" UNIQUE("client_id")
);
--> statement-breakpoint
ALTER TABLE "client_applications" ADD CONSTRAINT "client_applications_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "client_applications" ADD CONSTRAINT "client_applications_integration_user_id_users_id_fk" FOREIGN KEY ("integration_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "oauth_models" (
	"kind" text NOT NULL,
	"id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"user_code" text,
	"uid" text,
	"client_id" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oauth_models_kind_id_pk" PRIMARY KEY("kind","id")
);
--> statement-breakpoint
CREATE INDEX "oauth_models_grant_idx" ON "oauth_models" USING btree ("grant_id");
--> statement-breakpoint
CREATE INDEX "oauth_models_uid_idx" ON "oauth_models" USING btree ("uid");
--> statement-breakpoint
CREATE INDEX "oauth_models_client_idx" ON "oauth_models" USING btree ("client_id");
--> statement-breakpoint
CREATE INDEX "oauth_models_expires_idx" ON "oauth_models" USING btree ("expires_at");
--> statement-breakpoint
CREATE TABLE "oauth_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"jwk" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
