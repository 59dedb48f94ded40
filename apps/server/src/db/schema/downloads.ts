import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { blobs } from './blobs.ts';
import { auditColumns } from './organizations.ts';

// The Downloadable file of back-office-b §3 (issue 13 §7): a file the platform publishes for organizations. Its bytes
// are a blob of the encrypted blob store; a new upload is inactive until a system administrator activates it.
export const downloads = pgTable(
  'downloads',
  {
    id: uuid().primaryKey().defaultRandom(),
    displayName: text().notNull(),
    downloadTag: text().notNull(),
    name: text(),
    description: text(),
    // Null: offered to organizations of every brand.
    brandId: text(),
    platformOs: text(),
    platformVersion: text(),
    supportedVersions: text(),
    isDownloadable: boolean().notNull().default(true),
    // False: organizations on a free plan do not see it.
    downloadOnFree: boolean().notNull().default(true),
    isVisible: boolean().notNull().default(true),
    isActive: boolean().notNull().default(false),
    version: text(),
    // Restrict: a blob in use is never removed from under its download (the service deletes it after the row).
    blobId: uuid()
      .notNull()
      .references(() => blobs.id, { onDelete: 'restrict' }),
    fileName: text().notNull(),
    sizeInBytes: integer().notNull(),
    contentType: text().notNull(),
    sha256: text().notNull(),
    ...auditColumns,
  },
  (t) => [
    // back-office-b §5 "version unique": per download tag (one tag is one product); null versions do not collide.
    uniqueIndex('downloads_tag_version_idx').on(t.downloadTag, t.version),
    index('downloads_published_idx').on(t.isActive, t.isVisible).where(sql`${t.isActive} and ${t.isVisible}`),
  ],
);
