CREATE TABLE "certificate_organizations" (
	"certificate_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	CONSTRAINT "certificate_organizations_certificate_id_organization_id_pk" PRIMARY KEY("certificate_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"usage" text NOT NULL,
	"subject" text NOT NULL,
	"san_emails" text[] DEFAULT '{}' NOT NULL,
	"san_dns_names" text[] DEFAULT '{}' NOT NULL,
	"thumbprint" text NOT NULL,
	"thumbprint_sha256" text NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"certificate_der" "bytea" NOT NULL,
	"private_key_ciphertext" "bytea" NOT NULL,
	"private_key_iv" "bytea" NOT NULL,
	"private_key_tag" "bytea" NOT NULL,
	"chain" text[] DEFAULT '{}' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" uuid,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificates_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "certificate_organizations" ADD CONSTRAINT "certificate_organizations_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_organizations" ADD CONSTRAINT "certificate_organizations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificate_organizations_org_idx" ON "certificate_organizations" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "certificates_san_emails_idx" ON "certificates" USING gin ("san_emails");--> statement-breakpoint
CREATE INDEX "certificates_san_dns_idx" ON "certificates" USING gin ("san_dns_names");