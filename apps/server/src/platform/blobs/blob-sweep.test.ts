import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createBlobStore, type BlobStore } from './blob-store.ts';
import { startBlobSweep, sweepBlobs } from './blob-sweep.ts';

const HOUR = 60 * 60 * 1000;
const quiet = { info: () => undefined, warn: () => undefined };

describe('leftover blob files (a process killed between writing a file and committing its row)', () => {
  let handle: DatabaseHandle;
  let dataDir: string;
  let store: BlobStore;
  const organization = { organizationId: randomUUID() };

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  const fileOf = (id: string) => path.join(dataDir, 'blobs', id.slice(0, 2), id);
  // A file as a killed writer leaves it, with its modification time set `ageMs` in the past.
  const leftover = (name: string, ageMs: number) => {
    const file = path.join(dataDir, 'blobs', name.slice(0, 2), name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(64));
    const when = new Date(Date.now() - ageMs);
    utimesSync(file, when, when);
    return file;
  };
  const aged = (file: string, ageMs: number) => {
    const when = new Date(Date.now() - ageMs);
    utimesSync(file, when, when);
  };

  function freshStore() {
    dataDir = mkdtempSync(path.join(tmpdir(), 'clinicrelay-sweep-'));
    store = createBlobStore({ db: handle.db, dataDir, key: randomBytes(32) });
  }

  it('removes temporary files older than an hour and row-less blob files older than a day, and nothing else', async () => {
    freshStore();
    const oldTemporary = leftover(`${randomUUID()}.${randomBytes(6).toString('hex')}.tmp`, 2 * HOUR);
    const youngTemporary = leftover(`${randomUUID()}.${randomBytes(6).toString('hex')}.tmp`, 10 * 60 * 1000);
    const oldOrphan = leftover(randomUUID(), 25 * HOUR);
    const youngOrphan = leftover(randomUUID(), 2 * HOUR);
    const note = new TextEncoder().encode('Discharged home in good condition.');
    const kept = await store.put(note, organization);
    aged(fileOf(kept.id), 30 * 24 * HOUR);
    const unrelated = path.join(dataDir, 'blobs', 'notes.txt');
    writeFileSync(unrelated, 'not a blob');
    aged(unrelated, 30 * 24 * HOUR);

    expect(await sweepBlobs({ db: handle.db, dataDir })).toEqual({ temporaryRemoved: 1, orphansRemoved: 1 });

    expect(existsSync(oldTemporary)).toBe(false);
    expect(existsSync(oldOrphan)).toBe(false);
    expect(existsSync(youngTemporary)).toBe(true);
    expect(existsSync(youngOrphan)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);
    expect(new TextDecoder().decode(await store.get(kept.id))).toBe('Discharged home in good condition.');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is safe when several processes sweep the same folder at once: every leftover removed, every blob with a row kept', async () => {
    freshStore();
    const orphans = Array.from({ length: 20 }, () => leftover(randomUUID(), 48 * HOUR));
    const temporaries = Array.from({ length: 20 }, () => leftover(`${randomUUID()}.${randomBytes(6).toString('hex')}.tmp`, 3 * HOUR));
    const stored = await Promise.all(Array.from({ length: 10 }, (_, i) => store.put(new TextEncoder().encode(`page ${i}`), organization)));
    for (const s of stored) aged(fileOf(s.id), 48 * HOUR);

    const results = await Promise.all([1, 2, 3].map(() => sweepBlobs({ db: handle.db, dataDir })));

    expect(results.reduce((n, r) => n + r.orphansRemoved, 0)).toBeGreaterThanOrEqual(orphans.length);
    for (const file of [...orphans, ...temporaries]) expect(existsSync(file)).toBe(false);
    for (const [i, s] of stored.entries()) expect(new TextDecoder().decode(await store.get(s.id))).toBe(`page ${i}`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs at start-up in the background, and a missing blob folder is no error', async () => {
    freshStore();
    expect(await sweepBlobs({ db: handle.db, dataDir })).toEqual({ temporaryRemoved: 0, orphansRemoved: 0 });
    const oldTemporary = leftover(`${randomUUID()}.${randomBytes(6).toString('hex')}.tmp`, 2 * HOUR);
    const sweeper = startBlobSweep({ db: handle.db, dataDir, logger: quiet });
    try {
      await vi.waitFor(() => expect(existsSync(oldTemporary)).toBe(false), { timeout: 5_000, interval: 20 });
    } finally {
      sweeper.stop();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });
});
