CREATE TABLE "routing_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"address" text NOT NULL,
	"step_type" integer NOT NULL,
	"security_type" text NOT NULL,
	"custom_certificate_name" text,
	"convert_to_format" text,
	"location_code" text,
	"facility_oid" text,
	"key_hie_address" text,
	"display_url" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" uuid,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "routing_rule_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"routing_rule_id" uuid NOT NULL,
	"ip_address" text NOT NULL,
	"port" integer NOT NULL,
	"oid" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "routing_rule_senders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"routing_rule_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"organization_oid" text NOT NULL,
	"facility_type" text,
	"facility_type_code_id" text,
	"facility_type_code_scheme" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "routing_rule_endpoints" ADD CONSTRAINT "routing_rule_endpoints_routing_rule_id_routing_rules_id_fk" FOREIGN KEY ("routing_rule_id") REFERENCES "public"."routing_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "routing_rule_senders" ADD CONSTRAINT "routing_rule_senders_routing_rule_id_routing_rules_id_fk" FOREIGN KEY ("routing_rule_id") REFERENCES "public"."routing_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "routing_rule_senders" ADD CONSTRAINT "routing_rule_senders_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "routing_rules_address_idx" ON "routing_rules" USING btree (lower("address"));--> statement-breakpoint
CREATE INDEX "routing_rule_endpoints_rule_idx" ON "routing_rule_endpoints" USING btree ("routing_rule_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "routing_rule_senders_rule_org_idx" ON "routing_rule_senders" USING btree ("routing_rule_id","organization_id");--> statement-breakpoint
CREATE INDEX "routing_rule_senders_org_idx" ON "routing_rule_senders" USING btree ("organization_id");
