import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, notExists, or, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.ts';
import { blobs } from '../../db/schema/blobs.ts';
import { attachments } from '../../db/schema/messages.ts';

export interface StoredBlob {
  id: string;
  sha256: string;
  sizeInBytes: number;
}

export interface BlobStore {
  put(bytes: Uint8Array, owner: { organizationId: string | null }, tx?: DbOrTx): Promise<StoredBlob>;
  get(id: string, tx?: DbOrTx): Promise<Uint8Array>;
  // Removes a blob no attachment refers to any more; false (and nothing removed) while one still does.
  delete(id: string): Promise<boolean>;
}

// A blob that is missing or fails its checks: a server fault (5xx), never shown to users as is.
export class BlobError extends Error {}

const ALGORITHM = 'aes-256-gcm';
const TAG_LENGTH = 16;
const FOREIGN_KEY_VIOLATION = '23503';
// The driver's SQLSTATE, under drizzle's DrizzleQueryError.
const sqlStateOf = (error: unknown): string | undefined => {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Where blob files live: DATA_DIR/blobs/<first two characters of the id>/<id>.
export const blobRoot = (dataDir: string): string => path.join(dataDir, 'blobs');

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

// Attachment bytes, encrypted at rest with AES-256-GCM under DATA_DIR/blobs; the row holds nonce, tag and
// the plaintext's SHA-256, so a read returns the stored bytes or fails, never something else.
export function createBlobStore({ db, dataDir, key }: { db: Database; dataDir: string; key: Uint8Array }): BlobStore {
  if (key.length !== 32) throw new Error('The blob encryption key must be 32 bytes.');
  const root = blobRoot(dataDir);
  // Two hex characters of fan-out keep any one folder small.
  const fileOf = (id: string) => path.join(root, id.slice(0, 2), id);

  return {
    async put(bytes, { organizationId }, tx = db) {
      const id = randomUUID();
      const iv = randomBytes(12);
      const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_LENGTH });
      // The id as associated data: a file moved under another blob's name fails to decrypt.
      cipher.setAAD(Buffer.from(id));
      const ciphertext = Buffer.concat([cipher.update(bytes), cipher.final()]);
      const stored = { id, sha256: sha256Hex(bytes), sizeInBytes: bytes.length };
      // File first, row second: if the transaction rolls back or the process dies in between, what is left
      // is a file no row points to, harmless (unreadable without its row's nonce and tag); blob-sweep.ts removes it.
      await writeAtomically(fileOf(id), ciphertext);
      await tx.insert(blobs).values({
        ...stored,
        organizationId,
        iv: iv.toString('base64'),
        authTag: cipher.getAuthTag().toString('base64'),
      });
      return stored;
    },

    async get(id, tx = db) {
      const [row] = UUID.test(id) ? await tx.select().from(blobs).where(eq(blobs.id, id)) : [];
      if (!row) throw new BlobError(`Blob ${id} does not exist.`);
      const ciphertext = await readFile(fileOf(id)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw new BlobError(`The file of blob ${id} is missing.`);
        throw error;
      });
      let plaintext: Buffer;
      try {
        const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(row.iv, 'base64'), { authTagLength: TAG_LENGTH });
        decipher.setAAD(Buffer.from(id));
        decipher.setAuthTag(Buffer.from(row.authTag, 'base64'));
        plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
      } catch {
        throw new BlobError(`Blob ${id} failed decryption: its file was altered or the encryption key is not the one it was stored with.`);
      }
      if (plaintext.length !== row.sizeInBytes || sha256Hex(plaintext) !== row.sha256) {
        throw new BlobError(`Blob ${id} does not match its recorded SHA-256.`);
      }
      return plaintext;
    },

    // Row first, file second: a crash in between leaves a harmless orphan file, never a row without its bytes.
    // Blobs are shared by reference (a draft's copies, a local delivery's inbound copy): deleting one
    // message's attachment never removes a file another attachment still reads.
    async delete(id) {
      if (!UUID.test(id)) return false;
      let removed: { id: string }[];
      try {
        removed = await db
          .delete(blobs)
          .where(
            and(
              eq(blobs.id, id),
              notExists(
                db
                  .select({ one: sql`1` })
                  .from(attachments)
                  .where(or(eq(attachments.originalBlobId, id), eq(attachments.currentBlobId, id), eq(attachments.previewBlobId, id))),
              ),
            ),
          )
          .returning({ id: blobs.id });
      } catch (error) {
        // An attachment referring to it committed meanwhile: its foreign key keeps the row, and so the file.
        if (sqlStateOf(error) === FOREIGN_KEY_VIOLATION) return false;
        throw error;
      }
      if (removed.length === 0) return false;
      await rm(fileOf(id), { force: true });
      return true;
    },
  };
}

// Written to a temporary name, flushed, then renamed: a crash never leaves a half-written blob under its name.
async function writeAtomically(file: string, data: Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
