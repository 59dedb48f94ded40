import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

// CSV files the product exports (reports, address exports): RFC 4180 quoting, CRLF lines, and no formula injection.

const pad = (n: number) => String(n).padStart(2, '0');

/** One cell; a cell a spreadsheet would run as a formula (= + - @, tab, CR) starts with ' instead. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: a header row and the rows, each line ended by CRLF. */
export const csvFile = (header: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): string =>
  [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');

/** back-office-a §3: export file names are prefixed by brand and timestamp YYYY-MM-DD_HH-mm-ss (UTC). */
export const exportFileName = (brand: string, now: Date, name?: string): string =>
  `${brand.replace(/[^\w-]/g, '')}${name ? `_${name}` : ''}_${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())}_${pad(now.getUTCHours())}-${pad(now.getUTCMinutes())}-${pad(now.getUTCSeconds())}.csv`;

export type CsvRow = readonly (string | number | boolean | null | undefined)[];
const line = (row: CsvRow) => `${row.map((v) => csvCell(typeof v === 'boolean' ? (v ? 'Yes' : 'No') : v)).join(',')}\r\n`;

/**
 * A CSV file as a stream of text chunks, one per batch: the header goes out at once, and each batch is asked for only
 * when the previous chunk was taken, so a report of millions of rows holds one batch in memory whatever its size.
 */
export async function* csvChunks<T>(header: readonly string[], batches: AsyncIterable<readonly T[]>, toRow: (row: T) => CsvRow): AsyncGenerator<string> {
  yield line(header);
  for await (const batch of batches) {
    if (batch.length > 0) yield batch.map((r) => line(toRow(r))).join('');
  }
}

const FIRST_BATCH = 100;

/**
 * Keyset pages: fetch(after, limit) returns up to `limit` rows ordered by the key, after the given key (null: from
 * the start). Each page is one short indexed query, on PGlite as on PostgreSQL, and nothing is held between them.
 */
export async function* keysetBatches<T, K>(fetch: (after: K | null, limit: number) => Promise<T[]>, keyOf: (row: T) => K, batchSize = 2000, maxRows = Infinity): AsyncGenerator<T[]> {
  let after: K | null = null;
  let left = maxRows;
  // A short first page: the answer starts as soon as the first rows are read, not a whole page later.
  let size = Math.min(FIRST_BATCH, batchSize);
  while (left > 0) {
    const limit = Math.min(size, left);
    const rows = await fetch(after, limit);
    if (rows.length === 0) return;
    yield rows;
    left -= rows.length;
    if (rows.length < limit) return;
    after = keyOf(rows[rows.length - 1]!);
    size = batchSize;
  }
}

/** A CSV file made as it is sent: its name and its text chunks (csvChunks). */
export interface CsvReport {
  fileName: string;
  chunks: AsyncIterable<string>;
}

/**
 * Sends a report as it is read. The header and the first batch are read before the answer starts, so a report that
 * cannot be made fails with an error status rather than a cut file; the rest streams with back-pressure: a page is
 * read only when the client has taken the one before.
 */
export async function sendCsv(reply: FastifyReply, report: CsvReport) {
  const iterator = report.chunks[Symbol.asyncIterator]();
  const head: string[] = [];
  for (let i = 0; i < 2; i++) {
    const next = await iterator.next();
    if (next.done) break;
    head.push(next.value);
  }
  async function* body() {
    yield head.join('');
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  const stream = Readable.from(body(), { objectMode: false });
  // A client that goes away stops the reading at the next page.
  stream.on('close', () => void iterator.return?.(undefined));
  return reply
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="${report.fileName}"`)
    .type('text/csv; charset=utf-8')
    .send(stream);
}
