import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { auditColumns, organizations } from './organizations.ts';

// back-office-b §3 "Routing rule" (issue 29 §3): how mail for one address leaves the platform. One rule per address
// (case ignored).
export const routingRules = pgTable(
  'routing_rules',
  {
    id: uuid().primaryKey().defaultRandom(),
    address: text().notNull(),
    // 0-12; the spec does not name them (kept and shown as entered).
    stepType: integer().notNull(),
    securityType: text({ enum: ['Certificate', 'SAML'] }).notNull(),
    customCertificateName: text(),
    convertToFormat: text({ enum: ['CDA', 'MDM', 'ORU'] }),
    locationCode: text({ enum: ['rrh', 'smh'] }),
    facilityOid: text(),
    keyHieAddress: text(),
    displayUrl: text(),
    ...auditColumns,
  },
  (t) => [uniqueIndex('routing_rules_address_idx').on(sql`lower(${t.address})`)],
);

// §3 "Endpoint": where an HL7 v2 rule delivers over MLLP (ipAddress:port), tried in the order they were added.
export const routingRuleEndpoints = pgTable(
  'routing_rule_endpoints',
  {
    id: uuid().primaryKey().defaultRandom(),
    routingRuleId: uuid()
      .notNull()
      .references(() => routingRules.id, { onDelete: 'cascade' }),
    ipAddress: text().notNull(),
    port: integer().notNull(),
    oid: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('routing_rule_endpoints_rule_idx').on(t.routingRuleId, t.createdAt)],
);

// §3 "Sender": an organization allowed to use the rule (with none listed, every organization uses it).
export const routingRuleSenders = pgTable(
  'routing_rule_senders',
  {
    id: uuid().primaryKey().defaultRandom(),
    routingRuleId: uuid()
      .notNull()
      .references(() => routingRules.id, { onDelete: 'cascade' }),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    organizationOid: text().notNull(),
    facilityType: text(),
    facilityTypeCodeId: text(),
    facilityTypeCodeScheme: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('routing_rule_senders_rule_org_idx').on(t.routingRuleId, t.organizationId), index('routing_rule_senders_org_idx').on(t.organizationId)],
);
