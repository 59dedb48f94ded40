CREATE TABLE "trust_anchors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"domain" text,
	"incoming" boolean DEFAULT true NOT NULL,
	"outgoing" boolean DEFAULT true NOT NULL,
	"subject" text NOT NULL,
	"thumbprint_sha256" text NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"certificate_der" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trust_anchors_thumbprintSha256_unique" UNIQUE("thumbprint_sha256")
);
