UPDATE "intake_rules" SET "to_addresses" = ARRAY["to_address"] WHERE "to_address" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "intake_rules" DROP COLUMN "to_address";--> statement-breakpoint
-- Issue 13 §4: every organization starts with "To Records (Sample)", its default (first) Direct address to its Administrators.
INSERT INTO "intake_rules" ("organization_id", "name", "to_addresses")
SELECT o."id", 'To Records (Sample)', ARRAY[(SELECT s."full_address" FROM "document_sources" s WHERE s."organization_id" = o."id" AND s."type" = 'Direct' ORDER BY s."created_at", s."full_address" LIMIT 1)]
FROM "organizations" o
WHERE EXISTS (SELECT 1 FROM "document_sources" s WHERE s."organization_id" = o."id" AND s."type" = 'Direct')
  AND NOT EXISTS (SELECT 1 FROM "intake_rules" r WHERE r."organization_id" = o."id" AND r."name" = 'To Records (Sample)');--> statement-breakpoint
INSERT INTO "user_intake_rules" ("user_id", "organization_id", "intake_rule_id")
SELECT m."user_id", r."organization_id", r."id"
FROM "intake_rules" r JOIN "memberships" m ON m."organization_id" = r."organization_id" AND m."role" = 'Administrator'
WHERE r."name" = 'To Records (Sample)'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Issue 13 §2/§4: an address given to a user is now a send permission only; what it brought to their Intake becomes a
-- rule "To <address>" for the same users, so nobody's Intake changes.
INSERT INTO "intake_rules" ("organization_id", "name", "to_addresses")
SELECT DISTINCT ds."organization_id", 'To ' || ds."full_address", ARRAY[ds."full_address"]
FROM "user_document_sources" uds JOIN "document_sources" ds ON ds."id" = uds."document_source_id" AND ds."organization_id" = uds."organization_id";--> statement-breakpoint
INSERT INTO "user_intake_rules" ("user_id", "organization_id", "intake_rule_id")
SELECT uds."user_id", uds."organization_id", r."id"
FROM "user_document_sources" uds
JOIN "document_sources" ds ON ds."id" = uds."document_source_id" AND ds."organization_id" = uds."organization_id"
JOIN "intake_rules" r ON r."organization_id" = ds."organization_id" AND r."name" = 'To ' || ds."full_address" AND r."to_addresses" = ARRAY[ds."full_address"]
ON CONFLICT DO NOTHING;
