-- back-office-b "Emergencies" (issue 29 §6): emergencies, the organizations each covers, and the Carequality-type
-- service's emergency organizations (same database, tables of their own; written by hand).
CREATE TABLE "emergencies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"disabled_date" date,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" uuid,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "emergency_covered_organizations" (
	"emergency_id" uuid NOT NULL,
	"oid" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "emergency_covered_organizations_emergency_id_oid_pk" PRIMARY KEY("emergency_id","oid")
);
--> statement-breakpoint
CREATE TABLE "emergency_organizations" (
	"oid" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" uuid,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "emergency_covered_organizations" ADD CONSTRAINT "emergency_covered_organizations_emergency_id_emergencies_id_fk" FOREIGN KEY ("emergency_id") REFERENCES "public"."emergencies"("id") ON DELETE cascade ON UPDATE no action;
