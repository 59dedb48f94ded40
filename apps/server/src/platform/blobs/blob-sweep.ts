import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { blobs } from '../../db/schema/blobs.ts';
import { serializeError } from '../errors.ts';
import { blobRoot } from './blob-store.ts';

// A write in progress never takes an hour; a transaction that wrote a blob file has committed its row or
// rolled back long before a day has passed. Younger files may still be on their way to a row.
export const TEMPORARY_MAX_AGE_MS = 60 * 60 * 1000;
export const ORPHAN_MAX_AGE_MS = 24 * 60 * 60 * 1000;
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

const BLOB_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TEMPORARY_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[0-9a-f]+\.tmp$/;
const ROW_CHECK_BATCH = 500;

export interface SweepResult {
  temporaryRemoved: number;
  orphansRemoved: number;
}

export interface SweepLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

// Removes what a killed process leaves behind in DATA_DIR/blobs: temporary files older than an hour, and
// blob files older than a day that no row points to. Safe beside running writers and other sweepers (on
// one PostgreSQL): a file is deleted only when the database says it has no row, and a vanished file is fine.
export async function sweepBlobs(opts: { db: Database; dataDir: string; now?: Date }): Promise<SweepResult> {
  const now = (opts.now ?? new Date()).getTime();
  const result: SweepResult = { temporaryRemoved: 0, orphansRemoved: 0 };
  const root = blobRoot(opts.dataDir);
  const folders = await readdir(root, { withFileTypes: true }).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  });
  for (const folder of folders) {
    if (!folder.isDirectory() || !/^[0-9a-f]{2}$/.test(folder.name)) continue;
    const dir = path.join(root, folder.name);
    const oldBlobFiles: string[] = [];
    for (const name of await readdir(dir)) {
      const isTemporary = TEMPORARY_FILE.test(name);
      if (!isTemporary && !BLOB_FILE.test(name)) continue;
      const info = await stat(path.join(dir, name)).catch(() => undefined);
      if (!info?.isFile()) continue;
      const age = now - info.mtimeMs;
      if (isTemporary && age > TEMPORARY_MAX_AGE_MS) {
        await rm(path.join(dir, name), { force: true });
        result.temporaryRemoved++;
      } else if (!isTemporary && age > ORPHAN_MAX_AGE_MS) {
        oldBlobFiles.push(name);
      }
    }
    for (let i = 0; i < oldBlobFiles.length; i += ROW_CHECK_BATCH) {
      const batch = oldBlobFiles.slice(i, i + ROW_CHECK_BATCH);
      const rows = await opts.db.select({ id: blobs.id }).from(blobs).where(inArray(blobs.id, batch));
      const withRow = new Set(rows.map((r) => r.id));
      for (const id of batch) {
        if (withRow.has(id)) continue;
        await rm(path.join(dir, id), { force: true });
        result.orphansRemoved++;
      }
    }
  }
  return result;
}

// Sweeps now and then every hour, in the background (the timer does not keep the process alive).
export function startBlobSweep(opts: { db: Database; dataDir: string; logger: SweepLogger; intervalMs?: number }): { stop(): void } {
  let running: Promise<void> | undefined;
  const sweep = () => {
    // An hour-long sweep (a huge folder) is not started twice over itself.
    running ??= sweepBlobs(opts)
      .then((result) => {
        if (result.temporaryRemoved + result.orphansRemoved > 0) opts.logger.info({ ...result }, 'removed leftover blob files');
      })
      .catch((error: unknown) => opts.logger.warn({ err: serializeError(error) }, 'blob sweep failed; will try again'))
      .finally(() => (running = undefined));
  };
  sweep();
  const timer = setInterval(sweep, opts.intervalMs ?? SWEEP_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
