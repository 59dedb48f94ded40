import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
    // The hash chain (migration 0027): set by the insert trigger, never by the application.
    chainSeq: bigint({ mode: 'number' }),
    prevHash: text(),
    hash: text(),
  },
  (t) => [
    index('audit_events_user_idx').on(t.userId, t.createdAt),
    index('audit_events_org_idx').on(t.organizationId, t.createdAt),
    index('audit_events_type_idx').on(t.eventType, t.createdAt),
    index('audit_events_created_idx').on(t.createdAt),
    uniqueIndex('audit_events_chain_idx').on(sql`coalesce(${t.organizationId}, '00000000-0000-0000-0000-000000000000'::uuid)`, t.chainSeq),
  ],
);
