import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

// A file of organizations imported by a system administrator (back-office-b §3 "Batch import metadata", issue 29 §2):
// the form's metadata, the file's name and SHA-256; its rows are batch_import_items, worked by a workflow.
export const batchImports = pgTable(
  'batch_imports',
  {
    id: uuid().primaryKey().defaultRandom(),
    batchType: text().notNull().default('Organization'),
    fileName: text().notNull(),
    fileSha256: text().notNull(),
    // batchImportMetadata as parsed (hispProviderId, brandId, planId, resellers, specialty, type).
    metadata: jsonb().$type<Record<string, unknown>>().notNull(),
    // Pending, Running, Completed, CompletedWithErrors.
    status: text().notNull().default('Pending'),
    rowCount: integer().notNull(),
    workflowId: uuid(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('batch_imports_created_idx').on(t.createdAt)],
);

// One row of an import file: its values, and what became of it. `key` is the file's SHA-256 and the row number: a
// re-import of the same file skips every key an earlier import created an organization for.
export const batchImportItems = pgTable(
  'batch_import_items',
  {
    id: uuid().primaryKey().defaultRandom(),
    batchId: uuid()
      .notNull()
      .references(() => batchImports.id, { onDelete: 'cascade' }),
    rowNumber: integer().notNull(),
    key: text().notNull(),
    values: jsonb().$type<Record<string, string>>().notNull(),
    // Pending, Created, Failed, Skipped.
    itemStatus: text().notNull().default('Pending'),
    itemError: text(),
    organizationId: uuid().references(() => organizations.id, { onDelete: 'set null' }),
    // Pending, Created, Added, Failed, NotStarted.
    primaryContactStatus: text().notNull().default('Pending'),
    pcsErrors: text(),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('batch_import_items_batch_row_idx').on(t.batchId, t.rowNumber),
    // At most one organization per key, whatever the number of imports of the file.
    uniqueIndex('batch_import_items_created_key_idx').on(t.key).where(sql`${t.organizationId} is not null`),
    index('batch_import_items_key_idx').on(t.key),
  ],
);
