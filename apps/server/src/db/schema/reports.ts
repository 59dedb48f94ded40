import { index, integer, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { blobs } from './blobs.ts';
import { organizations } from './organizations.ts';

// Generated reports of back-office-b §3 (issue 27 §4): files the platform makes on a schedule, kept in the blob store.
// kind names the report (MonthlyUsage), period what it covers (YYYY-MM); one file per kind, organization and period.
export const generatedReports = pgTable(
  'generated_reports',
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text().notNull(),
    name: text().notNull(),
    fileName: text().notNull(),
    organizationId: uuid().references(() => organizations.id, { onDelete: 'cascade' }),
    period: text().notNull(),
    blobId: uuid()
      .notNull()
      .references(() => blobs.id, { onDelete: 'restrict' }),
    sizeInBytes: integer().notNull(),
    createDate: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('generated_reports_kind_org_period_unique').on(t.kind, t.organizationId, t.period), index('generated_reports_create_date_idx').on(t.createDate, t.id)],
);

// One row per kind and period whose reports were started: the schedule's guard, so a restart or a second process
// never starts the same month twice.
export const generatedReportRuns = pgTable(
  'generated_report_runs',
  {
    kind: text().notNull(),
    period: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.period] })],
);
