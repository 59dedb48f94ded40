import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { blobs } from './blobs.ts';
import { users } from './users.ts';

// Directory download requests (/admin/directorydownloads, issue 29 §7): a CSV of the provider directory made by the
// directory-download workflow, stored as encrypted blobs, one per batch of rows (parts), sent back to back as one file.
export const directoryDownloads = pgTable(
  'directory_downloads',
  {
    id: uuid().primaryKey().defaultRandom(),
    type: text().notNull(),
    mode: text().notNull(),
    status: text().notNull().default('Pending'),
    requestedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    occurredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // Incremental: entries imported at or after this instant (the last completed download's cut-off); null for Full.
    since: timestamp({ withTimezone: true }),
    // The instant the rows were read up to: the next incremental download starts here.
    cutoff: timestamp({ withTimezone: true }),
    completedAt: timestamp({ withTimezone: true }),
    rowCount: integer(),
    partCount: integer(),
    sizeInBytes: bigint({ mode: 'number' }),
    logMessage: text(),
  },
  (t) => [index('directory_downloads_occurred_idx').on(t.occurredAt)],
);

export const directoryDownloadParts = pgTable(
  'directory_download_parts',
  {
    downloadId: uuid()
      .notNull()
      .references(() => directoryDownloads.id, { onDelete: 'cascade' }),
    part: integer().notNull(),
    blobId: uuid()
      .notNull()
      .references(() => blobs.id, { onDelete: 'restrict' }),
    rowCount: integer().notNull(),
    // The NPI of the part's last row: the next part starts after it.
    lastNpi: text(),
  },
  (t) => [primaryKey({ columns: [t.downloadId, t.part] })],
);
