import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Who did what, when and from where. No foreign keys: audit rows outlive what they describe.
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    eventType: text().notNull(),
    userId: uuid(),
    userName: text(),
    organizationId: uuid(),
    ip: text(),
    correlationId: text(),
    details: jsonb().$type<Record<string, unknown>>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_events_user_idx').on(t.userId, t.createdAt),
    index('audit_events_org_idx').on(t.organizationId, t.createdAt),
    index('audit_events_type_idx').on(t.eventType, t.createdAt),
  ],
);
