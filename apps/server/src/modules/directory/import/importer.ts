import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseSync } from 'csv-parse/sync';
import type { DatabaseHandle } from '../../../db/client.ts';
import { openImportSession, type ImportSession } from './connection.ts';
import { csvRecords } from './csv-records.ts';
import { IGNORED, mapEndpointRow, mapNpidataRow, recognize, type EndpointRow, type EntryRow, type Layout, type Rejection } from './rows.ts';
import {
  APPLY_ENDPOINTS,
  CLEAR_DIRECT_ADDRESSES,
  CREATE_STAGING,
  DROP_STAGING,
  ENDPOINT_STAGE,
  ENTRY_STAGE,
  SET_DIRECT_ADDRESSES,
  UPSERT_ENTRIES,
  endpointStageCsv,
  entryStageCsv,
} from './staging.ts';

// `npm run directory:import` (cli.ts) and the tests and benchmark call this: NPPES files in, directory rows out, in
// constant memory whatever the file size. Each batch is COPYed into a temporary staging table and upserted by NPI
// in one transaction; endpoint files are staged whole and replace the stored Direct addresses in one transaction.

export interface ImportProgress {
  file: string;
  bytesRead: number;
  totalBytes: number;
  rows: number;
  elapsedMs: number;
}

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void;
  batchSize?: number;
  /** How many rejected lines the summary lists (the rest are counted). */
  rejectionsListed?: number;
}

export interface ListedRejection extends Rejection {
  file: string;
}

export interface DirectoryImportSummary {
  files: { file: string; kind: Layout['kind']; rows: number; bytes: number }[];
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows of deactivated NPIs (stored as inactive, or skipped when the NPI is unknown and the row has no names). */
  deactivated: number;
  skipped: number;
  rejected: number;
  rejections: ListedRejection[];
  /** Null when the run had no endpoint file (the stored Direct addresses are then left as they are). */
  endpoints: { direct: number; ignored: number; added: number; removed: number; entriesChanged: number } | null;
  elapsedMs: number;
}

/** A file that cannot be read or is not an NPPES file: nothing is imported. */
export class DirectoryImportError extends Error {}

const DEFAULT_BATCH = 5_000;

interface InspectedFile {
  file: string;
  name: string;
  bytes: number;
  layout: Layout;
}

export async function importDirectoryFiles(
  handle: Pick<DatabaseHandle, 'driver'>,
  files: readonly string[],
  options: ImportOptions = {},
): Promise<DirectoryImportSummary> {
  const started = performance.now();
  const inspected = await Promise.all(files.map(inspect));
  const totalBytes = inspected.reduce((sum, f) => sum + f.bytes, 0);
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const listed = options.rejectionsListed ?? 20;
  const summary: DirectoryImportSummary = {
    files: [],
    rows: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    deactivated: 0,
    skipped: 0,
    rejected: 0,
    rejections: [],
    endpoints: null,
    elapsedMs: 0,
  };
  let bytesBefore = 0;
  const reject = (file: string, rejection: Rejection) => {
    summary.rejected++;
    if (summary.rejections.length < listed) summary.rejections.push({ file, ...rejection });
  };

  const session = await openImportSession(handle);
  let batches = new BatchLoader();
  try {
    for (const statement of CREATE_STAGING) await session.query(statement);
    // Endpoints first, so that the entries this run inserts take their Direct address from this month's file.
    const ordered = [...inspected.filter((f) => f.layout.kind === 'endpoint'), ...inspected.filter((f) => f.layout.kind === 'npidata')];
    let endpointSeq = 0;
    const endpointTotals = { direct: 0, ignored: 0 };
    let entriesAnalyzed = false;
    for (const [index, file] of ordered.entries()) {
      const isLastEndpointFile = file.layout.kind === 'endpoint' && ordered[index + 1]?.layout.kind !== 'endpoint';
      const progress = (bytesRead: number, rows: number) =>
        options.onProgress?.({ file: file.name, bytesRead: bytesBefore + bytesRead, totalBytes, rows: summary.rows + rows, elapsedMs: performance.now() - started });
      batches = new BatchLoader();
      let rows = 0;
      if (file.layout.kind === 'npidata') {
        const layout = file.layout;
        let batch: EntryRow[] = [];
        const flush = (entries: EntryRow[]) =>
          session.transaction(async (tx) => {
            await tx.copyCsv(ENTRY_STAGE.table, ENTRY_STAGE.columns, entryStageCsv(entries));
            // Statistics once, so that the upsert probes the NPI index instead of scanning the directory.
            if (!entriesAnalyzed) await tx.query(`ANALYZE ${ENTRY_STAGE.table}`);
            entriesAnalyzed = true;
            const [counts] = await tx.query<{ distinct_rows: number; skipped: number; inserted: number; updated: number }>(UPSERT_ENTRIES, [file.name]);
            summary.inserted += counts!.inserted;
            summary.updated += counts!.updated;
            summary.skipped += counts!.skipped;
            // A row superseded by a later one for the same NPI in its batch counts as unchanged.
            summary.unchanged += entries.length - counts!.inserted - counts!.updated - counts!.skipped;
          });
        rows = await readRecords(file, (bytesRead, rowsRead) => progress(bytesRead, rowsRead), async (record, line) => {
          const mapped = mapNpidataRow(record, line, layout);
          if (!('npi' in mapped)) return reject(file.name, mapped);
          if (!mapped.active) summary.deactivated++;
          batch.push(mapped);
          if (batch.length >= batchSize) {
            const full = batch;
            batch = [];
            await batches.add(() => flush(full));
          }
        }, (rejection) => reject(file.name, rejection));
        if (batch.length) await batches.add(() => flush(batch));
      } else {
        const layout = file.layout;
        let batch: (EndpointRow & { seq: number })[] = [];
        const flush = (endpoints: (EndpointRow & { seq: number })[]) =>
          session.copyCsv(ENDPOINT_STAGE.table, ENDPOINT_STAGE.columns, endpointStageCsv(endpoints, file.name));
        rows = await readRecords(file, progress, async (record, line) => {
          const mapped = mapEndpointRow(record, line, layout);
          if (mapped === IGNORED) return void endpointTotals.ignored++;
          if (!('npi' in mapped)) return reject(file.name, mapped);
          endpointTotals.direct++;
          batch.push({ ...mapped, seq: endpointSeq++ });
          if (batch.length >= batchSize) {
            const full = batch;
            batch = [];
            await batches.add(() => flush(full));
          }
        }, (rejection) => reject(file.name, rejection));
        if (batch.length) await batches.add(() => flush(batch));
      }
      await batches.drain();
      if (isLastEndpointFile) {
        // An endpoint file replaces every stored address: one without a single DIRECT row (truncated, or the wrong
        // month's extract) would wipe them all, so it stops the run before anything is applied.
        if (endpointTotals.direct === 0) {
          const [stored] = await session.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM directory_endpoints) AS "any"');
          if (stored?.any) throw new DirectoryImportError(`${file.name}: no DIRECT endpoint rows; the stored Direct addresses are kept and nothing was imported`);
        }
        summary.endpoints = { ...endpointTotals, ...(await applyEndpoints(session)) };
      }
      summary.rows += rows;
      summary.files.push({ file: file.name, kind: file.layout.kind, rows, bytes: file.bytes });
      bytesBefore += file.bytes;
      progress(0, 0);
    }
    for (const statement of DROP_STAGING) await session.query(statement);
    // Fresh statistics for the search plans (PGlite runs no autovacuum).
    if (summary.inserted + summary.updated > 0) await session.query('ANALYZE directory_entries');
  } finally {
    // A failed run may leave a batch loading: it ends before the connection goes back to the pool.
    await batches.drain().catch(() => undefined);
    await session.release();
  }
  summary.elapsedMs = performance.now() - started;
  return summary;
}

async function applyEndpoints(session: ImportSession) {
  await session.query(`ANALYZE ${ENDPOINT_STAGE.table}`);
  const result = await session.transaction(async (tx) => {
    const [changes] = await tx.query<{ added: number; removed: number }>(APPLY_ENDPOINTS);
    const [set] = await tx.query<{ n: number }>(SET_DIRECT_ADDRESSES);
    const [cleared] = await tx.query<{ n: number }>(CLEAR_DIRECT_ADDRESSES);
    await tx.query(`TRUNCATE ${ENDPOINT_STAGE.table}`);
    return { added: changes!.added, removed: changes!.removed, entriesChanged: set!.n + cleared!.n };
  });
  await session.query('ANALYZE directory_endpoints');
  return result;
}

// The next batch is parsed while the previous one loads (PostgreSQL works meanwhile in its own process); never
// more than one waits, so memory stays at two batches.
class BatchLoader {
  private pending: Promise<void> | undefined;

  async add(load: () => Promise<unknown>): Promise<void> {
    await this.drain();
    const next = load().then(() => undefined);
    // Observed now so that a failure is not reported as unhandled before drain() awaits it.
    next.catch(() => undefined);
    this.pending = next;
  }

  async drain(): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    await pending;
  }
}

const HEADER_PROBE_BYTES = 1 << 20;

/** Size and kind of a file, from its header; a DirectoryImportError when it cannot be read or is no NPPES file. */
async function inspect(file: string): Promise<InspectedFile> {
  const name = path.basename(file);
  let bytes: number;
  let head: string;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a file');
    bytes = info.size;
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(HEADER_PROBE_BYTES, bytes));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new DirectoryImportError(`${file}: cannot be read (${(error as Error).message})`);
  }
  const end = head.search(/\r?\n/);
  let header: string[] = [];
  try {
    header = parseSync(end < 0 ? head : head.slice(0, end), { bom: true, relax_quotes: true, relax_column_count: true })[0] ?? [];
  } catch {
    // Unparsable: not recognized below.
  }
  const layout = recognize(header);
  if (!layout) {
    const first = header.slice(0, 3).map((h) => JSON.stringify(h.slice(0, 40))).join(', ');
    throw new DirectoryImportError(`${file}: not an NPPES npidata_pfile or endpoint_pfile (the header starts ${first || 'with nothing'})`);
  }
  return { file, name, bytes, layout };
}

/** Streams a file's data records (header skipped) to onRecord, awaiting it: a slow database slows the reading. */
async function readRecords(
  file: InspectedFile,
  onProgress: (bytesRead: number, rows: number) => void,
  onRecord: (record: string[], line: number) => Promise<void> | void,
  onReject: (rejection: Rejection) => void,
): Promise<number> {
  let bytesRead = 0;
  const input = createReadStream(file.file, { highWaterMark: 1 << 20 });
  input.on('data', (chunk) => (bytesRead += chunk.length));
  let rows = 0;
  let lastReport = 0;
  let header = true;
  let readError: Error | undefined;
  input.on('error', (error) => (readError = error));
  try {
    for await (const { fields, line } of csvRecords(input as AsyncIterable<Buffer>, onReject)) {
      if (header) {
        header = false;
        continue;
      }
      rows++;
      await onRecord(fields, line);
      if (rows - lastReport >= 1000) {
        lastReport = rows;
        onProgress(bytesRead, rows);
      }
    }
  } catch (error) {
    if (!readError || error !== readError) throw error;
    throw new DirectoryImportError(`${file.file}: reading stopped after ${rows} rows (${readError.message}); the rows before were imported`);
  } finally {
    input.destroy();
  }
  return rows;
}
