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
