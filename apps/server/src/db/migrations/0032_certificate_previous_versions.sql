-- Issue 28 §1: the certificate versions a re-import replaced, kept with their sealed keys for decryption during a rollover.
CREATE TABLE "certificate_previous_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"certificate_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"usage" text NOT NULL,
	"san_emails" text[] DEFAULT '{}' NOT NULL,
	"san_dns_names" text[] DEFAULT '{}' NOT NULL,
	"thumbprint" text NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"certificate_der" bytea NOT NULL,
	"private_key_ciphertext" bytea NOT NULL,
	"private_key_iv" bytea NOT NULL,
	"private_key_tag" bytea NOT NULL,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certificate_previous_versions" ADD CONSTRAINT "certificate_previous_versions_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificate_previous_versions_certificate_idx" ON "certificate_previous_versions" USING btree ("certificate_id");
