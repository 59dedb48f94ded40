import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { blobs } from '../../db/schema/blobs.ts';
import { createTestDatabase } from '../../test/database.ts';
import { fixture, itWithFixtures } from '../../test/shared-fixtures.ts';
import { BlobError, createBlobStore, type BlobStore } from './blob-store.ts';

const dischargeSummary = fixture('pdf/ud-sample.pdf');
const note = new TextEncoder().encode('Patient: Levin, Henry L.\nDOB 01/02/1950\nDischarged home in good condition.\n');

describe('blob store', () => {
  let handle: DatabaseHandle;
  let dataDir: string;
  let store: BlobStore;
  const key = randomBytes(32);
  const lakeside = { organizationId: randomUUID() };
  const fileOf = (id: string) => path.join(dataDir, 'blobs', id.slice(0, 2), id);

  beforeAll(async () => {
    handle = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'clinicrelay-blobs-'));
    store = createBlobStore({ db: handle.db, dataDir, key });
  });
  afterAll(async () => {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  itWithFixtures('gives back exactly the bytes it was given, with their SHA-256 and size recorded', async () => {
    const stored = await store.put(dischargeSummary, lakeside);
    expect(stored).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sha256: createHash('sha256').update(dischargeSummary).digest('hex'),
      sizeInBytes: dischargeSummary.length,
    });
    expect(Buffer.compare(await store.get(stored.id), dischargeSummary)).toBe(0);
    const [row] = await handle.db.select().from(blobs).where(eq(blobs.id, stored.id));
    expect(row).toMatchObject({ organizationId: lakeside.organizationId, sha256: stored.sha256, sizeInBytes: stored.sizeInBytes });
    // Renamed into place: no temporary file is left beside it.
    expect(readdirSync(path.dirname(fileOf(stored.id)))).toEqual([stored.id]);
  });

  itWithFixtures('keeps no plaintext on disk: neither the PDF header nor the patient name', async () => {
    const pdf = await store.put(dischargeSummary, lakeside);
    const text = await store.put(note, lakeside);
    const pdfOnDisk = readFileSync(fileOf(pdf.id));
    const textOnDisk = readFileSync(fileOf(text.id));
    expect(Buffer.from(dischargeSummary).includes('%PDF')).toBe(true);
    expect(pdfOnDisk.includes('%PDF')).toBe(false);
    expect(textOnDisk.includes('Levin')).toBe(false);
    expect(textOnDisk.includes('Henry')).toBe(false);
    expect(textOnDisk.length).toBe(note.length);
  });

  it('refuses a file that was altered on disk', async () => {
    const { id } = await store.put(note, lakeside);
    const bytes = readFileSync(fileOf(id));
    bytes[5]! ^= 0x01;
    writeFileSync(fileOf(id), bytes);
    await expect(store.get(id)).rejects.toThrow(BlobError);
    await expect(store.get(id)).rejects.toThrow(/failed decryption/);
  });

  it('refuses a file moved under another blob’s name', async () => {
    const first = await store.put(note, lakeside);
    const second = await store.put(new TextEncoder().encode('Patient: Other, Anne.\nDOB 03/04/1960\nDischarged home today.\n'), lakeside);
    renameSync(fileOf(first.id), fileOf(second.id));
    await expect(store.get(second.id)).rejects.toThrow(/failed decryption/);
  });

  it('refuses bytes whose SHA-256 no longer matches the row', async () => {
    const { id } = await store.put(note, lakeside);
    await handle.db.update(blobs).set({ sha256: createHash('sha256').update('something else').digest('hex') }).where(eq(blobs.id, id));
    await expect(store.get(id)).rejects.toThrow(/does not match its recorded SHA-256/);
  });

  it('cannot read blobs with another key', async () => {
    const { id } = await store.put(note, lakeside);
    const otherKey = createBlobStore({ db: handle.db, dataDir, key: randomBytes(32) });
    await expect(otherKey.get(id)).rejects.toThrow(/failed decryption/);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createBlobStore({ db: handle.db, dataDir, key: randomBytes(16) })).toThrow(/32 bytes/);
  });

  it('writes its row inside the caller’s transaction: a rollback leaves only an unreferenced file', async () => {
    let id = '';
    await expect(
      handle.db.transaction(async (tx) => {
        ({ id } = await store.put(note, lakeside, tx));
        throw new Error('the caller gives up');
      }),
    ).rejects.toThrow('the caller gives up');
    expect(await handle.db.select().from(blobs).where(eq(blobs.id, id))).toEqual([]);
    await expect(store.get(id)).rejects.toThrow(/does not exist/);

    const committed = await handle.db.transaction((tx) => store.put(note, lakeside, tx));
    expect(Buffer.from(await store.get(committed.id)).toString()).toContain('Levin');
  });

  it('deletes the row and the file', async () => {
    const { id } = await store.put(note, lakeside);
    await store.delete(id);
    expect(existsSync(fileOf(id))).toBe(false);
    await expect(store.get(id)).rejects.toThrow(/does not exist/);
  });

  it('treats an id that is not a UUID as unknown, never as a path', async () => {
    await expect(store.get('../../etc/passwd')).rejects.toThrow(/does not exist/);
  });
});
