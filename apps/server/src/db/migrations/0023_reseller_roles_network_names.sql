ALTER TABLE "networks" DROP CONSTRAINT "networks_name_unique";--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "affiliate_reseller_id" uuid;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "licensing_reseller_id" uuid;--> statement-breakpoint
-- The one reseller an organization had goes to the role its type says (0 Affiliate, 1 Licensing).
UPDATE "organizations" o SET "licensing_reseller_id" = r."id" FROM "resellers" r WHERE r."id" = o."reseller_id" AND r."type" = 1;--> statement-breakpoint
UPDATE "organizations" o SET "affiliate_reseller_id" = r."id" FROM "resellers" r WHERE r."id" = o."reseller_id" AND r."type" <> 1;--> statement-breakpoint
-- Names that differ only in case become distinct before they are made unique whatever their case.
UPDATE "networks" n SET "name" = n."name" || ' (' || n."id" || ')' WHERE EXISTS (SELECT 1 FROM "networks" m WHERE lower(m."name") = lower(n."name") AND (m."created_at", m."id") < (n."created_at", n."id"));--> statement-breakpoint
CREATE UNIQUE INDEX "networks_name_lower_key" ON "networks" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "organizations" DROP COLUMN "reseller_id";
--> statement-breakpoint
-- Activated organizations whose records address was left Provisioning (issue 26 §3b) can send from it now, as a new activation does.
UPDATE "document_sources" d SET "status" = 1, "is_global" = true FROM "organizations" o WHERE o."id" = d."organization_id" AND o."is_activated" AND d."type" = 'Direct' AND d."status" = 0 AND d."full_address" LIKE 'records@' || o."subdomain" || '.direct.%';
