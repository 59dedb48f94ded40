import { CROSSWALK_COLUMNS, CROSSWALK_MAX_LISTED_ERRORS } from '@clinicrelay/contracts/regions.ts';
import { csvRecords } from '../directory/import/csv-records.ts';

// Runs in a file worker (platform/workers): a crosswalk of every US ZIP code is ~40,000 lines, and a hostile file can
// be 20 MB; neither is parsed on the API's event loop. Returns the rows or every error with its line number.

/** zipCode, HSA code, HSA name, HRR code, HRR name. */
export type CrosswalkRow = [string, string, string, string, string];
export type CrosswalkParse = { rows: CrosswalkRow[]; errors: string[]; errorCount: number };

type Column = (typeof CROSSWALK_COLUMNS)[number];
const NAME_MAX = 100;
const NUMBER = /^\d{1,10}$/;
const STATE = /^[A-Za-z]{2}$/;

// The Atlas names its ZIP column by year (zipcode19); any other column name is taken as it is, case ignored.
const columnOf = (header: string): string => {
  const name = header.trim().toLowerCase();
  return /^zipcode\d*$/.test(name) ? 'zipcode' : name;
};

async function* chunksOf(bytes: Uint8Array): AsyncGenerator<Buffer> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < buffer.length; i += 1024 * 1024) yield buffer.subarray(i, i + 1024 * 1024);
}

export async function readCrosswalk(bytes: Uint8Array): Promise<CrosswalkParse> {
  const errors: string[] = [];
  let errorCount = 0;
  const fail = (line: number, message: string) => {
    errorCount++;
    if (errors.length < CROSSWALK_MAX_LISTED_ERRORS) errors.push(`Line ${line}: ${message}`);
  };
  const rows: CrosswalkRow[] = [];
  let index: Record<Column, number> | undefined;
  let width = 0;
  // The first line that named each ZIP code, HSA and HRR, and what it said: the file must say one thing of each.
  const zipLines = new Map<string, number>();
  const hsas = new Map<string, { line: number; name: string; hrr: string }>();
  const hrrs = new Map<string, { line: number; name: string }>();

  for await (const record of csvRecords(chunksOf(bytes), (problem) => fail(problem.line, problem.reason))) {
    const fields = record.fields.map((f) => f.trim());
    if (fields.every((f) => f === '')) continue;
    if (!index) {
      const columns = fields.map(columnOf);
      const missing = CROSSWALK_COLUMNS.filter((c) => !columns.includes(c));
      if (missing.length) {
        fail(record.line, `the header must name the columns ${CROSSWALK_COLUMNS.join(', ')}; missing: ${missing.join(', ')}.`);
        break;
      }
      index = Object.fromEntries(CROSSWALK_COLUMNS.map((c) => [c, columns.indexOf(c)])) as Record<Column, number>;
      width = fields.length;
      continue;
    }
    if (fields.length !== width) {
      fail(record.line, `expected ${width} columns, found ${fields.length}.`);
      continue;
    }
    const at = index;
    const value = (c: Column) => fields[at[c]]!;
    const problems: string[] = [];
    const zip = value('zipcode');
    if (!/^\d{3,5}$/.test(zip)) problems.push(`zipcode "${clip(zip)}" is not a ZIP code.`);
    for (const c of ['hsanum', 'hrrnum'] as const) if (!NUMBER.test(value(c))) problems.push(`${c} "${clip(value(c))}" is not a number.`);
    for (const c of ['hsacity', 'hrrcity'] as const) {
      if (value(c) === '') problems.push(`${c} is required.`);
      else if (value(c).length > NAME_MAX) problems.push(`${c} must be at most ${NAME_MAX} characters.`);
    }
    for (const c of ['hsastate', 'hrrstate'] as const) if (!STATE.test(value(c))) problems.push(`${c} "${clip(value(c))}" is not a two-letter state code.`);
    if (problems.length) {
      for (const p of problems) fail(record.line, p);
      continue;
    }
    const zipCode = zip.padStart(5, '0');
    const hsaCode = String(Number(value('hsanum')));
    const hrrCode = String(Number(value('hrrnum')));
    const hsaName = `${value('hsacity')}, ${value('hsastate').toUpperCase()}`;
    const hrrName = `${value('hrrcity')}, ${value('hrrstate').toUpperCase()}`;
    const firstZip = zipLines.get(zipCode);
    if (firstZip !== undefined) {
      fail(record.line, `ZIP code ${zipCode} is already on line ${firstZip}.`);
      continue;
    }
    zipLines.set(zipCode, record.line);
    const hsa = hsas.get(hsaCode);
    if (!hsa) hsas.set(hsaCode, { line: record.line, name: hsaName, hrr: hrrCode });
    else if (hsa.name !== hsaName) fail(record.line, `HSA ${hsaCode} is "${hsa.name}" on line ${hsa.line}, not "${clip(hsaName)}".`);
    else if (hsa.hrr !== hrrCode) fail(record.line, `HSA ${hsaCode} is in HRR ${hsa.hrr} on line ${hsa.line}, not HRR ${hrrCode}.`);
    const hrr = hrrs.get(hrrCode);
    if (!hrr) hrrs.set(hrrCode, { line: record.line, name: hrrName });
    else if (hrr.name !== hrrName) fail(record.line, `HRR ${hrrCode} is "${hrr.name}" on line ${hrr.line}, not "${clip(hrrName)}".`);
    rows.push([zipCode, hsaCode, hsaName, hrrCode, hrrName]);
  }
  if (!index && errorCount === 0) fail(1, 'the file is empty.');
  return errorCount ? { rows: [], errors, errorCount } : { rows, errors, errorCount };
}

const clip = (value: string) => (value.length > 40 ? `${value.slice(0, 40)}…` : value);
