import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// One server error (an answer 500) under the reference id the user was shown. Never a value from the request:
// the route pattern, not the URL; the error reduced by serializeError and redactPhi.
export const secureLogs = pgTable(
  'secure_logs',
  {
    referenceId: text().primaryKey(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    statusCode: integer().notNull(),
    method: text().notNull(),
    route: text().notNull(),
    requestId: text(),
    userId: uuid(),
    organizationId: uuid(),
    message: text().notNull(),
    error: jsonb().$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('secure_logs_created_idx').on(t.createdAt)],
);
