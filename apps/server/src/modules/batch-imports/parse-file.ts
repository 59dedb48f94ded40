import { parse } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import { importColumns, normalizeHeader, type ImportColumnKey, type ImportRowValues } from '@clinicrelay/contracts/batch-imports.ts';

// Loaded by the file workers only (worker-pool.ts): an untrusted spreadsheet is unzipped and parsed off the API's
// event loop, within the pool's memory and time limits.

export type ImportFileKind = 'csv' | 'xlsx';

export interface ParsedRow {
  // As a spreadsheet numbers it: the header is row 1.
  rowNumber: number;
  values: ImportRowValues;
}

export type ParsedImportFile = { rows: ParsedRow[] } | { refusal: 'unreadable' | 'noRows' | 'tooManyRows' } | { refusal: 'missingColumns'; columns: string[] };

// Longer than any field of the organization form: the row's validation says so; the rest is never kept.
const CELL_MAX = 1000;
const COLUMNS_MAX = 200;
// PostgreSQL stores neither NUL nor half a surrogate pair (jsonb refuses them): such characters become U+FFFD.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const clean = (value: string) => value.slice(0, CELL_MAX).replace(UNSTORABLE, '\uFFFD').trim();

const byHeader = new Map<string, ImportColumnKey>(importColumns.flatMap((c) => [c.header, ...c.aliases].map((name) => [normalizeHeader(name), c.key] as const)));

function toRows(table: { rowNumber: number; cells: string[] }[], maxRows: number): ParsedImportFile {
  const [header, ...body] = table;
  if (!header) return { refusal: 'noRows' };
  // Each column's index in the file; an unknown header is ignored, the first of two same columns wins.
  const index = new Map<ImportColumnKey, number>();
  header.cells.slice(0, COLUMNS_MAX).forEach((cell, i) => {
    const key = byHeader.get(normalizeHeader(cell));
    if (key && !index.has(key)) index.set(key, i);
  });
  const missing = importColumns.filter((c) => c.required && !index.has(c.key)).map((c) => c.header);
  if (missing.length > 0) return { refusal: 'missingColumns', columns: missing };
  const rows: ParsedRow[] = [];
  for (const line of body) {
    // A blank line (or a row of empty cells) is no organization.
    if (line.cells.every((cell) => cell.trim() === '')) continue;
    if (rows.length >= maxRows) return { refusal: 'tooManyRows' };
    const values: ImportRowValues = {};
    for (const [key, i] of index) values[key] = clean(line.cells[i] ?? '');
    rows.push({ rowNumber: line.rowNumber, values });
  }
  return rows.length === 0 ? { refusal: 'noRows' } : { rows };
}

function csvTable(bytes: Uint8Array): { rowNumber: number; cells: string[] }[] {
  const records: string[][] = parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { bom: true, relax_column_count: true, skip_empty_lines: false, max_record_size: 64 * 1024 });
  return records.map((cells, i) => ({ rowNumber: i + 1, cells }));
}

// A cell as the sheet shows it: rich text joined, a formula's result, a hyperlink's text, a date as MM/DD/YYYY.
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return `${String(value.getUTCMonth() + 1).padStart(2, '0')}/${String(value.getUTCDate()).padStart(2, '0')}/${value.getUTCFullYear()}`;
  if (typeof value !== 'object') return String(value);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('text' in value && typeof value.text === 'string') return value.text;
  if ('result' in value) return cellText(value.result);
  return '';
}

async function xlsxTable(bytes: Uint8Array, maxRows: number): Promise<{ rowNumber: number; cells: string[] }[]> {
  // Loaded for a spreadsheet only: exceljs is large, and a CSV file's worker need not wait for it.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const table: { rowNumber: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    // One row past the limit is enough to refuse the file.
    if (table.length > maxRows + 1) return;
    const cells: string[] = [];
    for (let c = 1; c <= Math.min(row.cellCount, COLUMNS_MAX); c++) cells.push(cellText(row.getCell(c).value));
    table.push({ rowNumber, cells });
  });
  return table;
}

/** Runs in a file worker: the file's rows keyed by column, or why the whole file is refused. */
export async function parseImportFile(bytes: Uint8Array, kind: ImportFileKind, maxRows: number): Promise<ParsedImportFile> {
  let table: { rowNumber: number; cells: string[] }[];
  try {
    table = kind === 'csv' ? csvTable(bytes) : await xlsxTable(bytes, maxRows);
  } catch {
    return { refusal: 'unreadable' };
  }
  return toRows(table, maxRows);
}
