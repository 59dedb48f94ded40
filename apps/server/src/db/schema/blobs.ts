import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Bytes live encrypted on disk (DATA_DIR/blobs); this row holds what is needed to find, decrypt and
// check them. No foreign keys: attachments point here, and a blob outlives nothing it belongs to.
export const blobs = pgTable('blobs', {
  id: uuid().primaryKey().defaultRandom(),
  organizationId: uuid(),
  sizeInBytes: integer().notNull(),
  // SHA-256 of the plaintext, checked on every read.
  sha256: text().notNull(),
  // AES-256-GCM nonce and tag, base64.
  iv: text().notNull(),
  authTag: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
