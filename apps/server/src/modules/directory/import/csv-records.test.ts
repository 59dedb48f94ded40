import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvRecords, type CsvProblem } from './csv-records.ts';
import { csvLine } from './nppes-format.ts';

// The importer's reader against csv-parse, which decides every record it cannot split on "," by itself.

async function read(chunks: (string | Buffer)[]) {
  const problems: CsvProblem[] = [];
  const records = [];
  for await (const record of csvRecords(
    (async function* () {
      yield* chunks;
    })(),
    (p) => problems.push(p),
  ))
    records.push(record);
  return { records, problems };
}

// Quotes only where CSV needs them, as other writers do.
const minimalLine = (fields: string[]) => fields.map((f) => (/[",\r\n]/.test(f) || f === '' ? `"${f.replaceAll('"', '""')}"` : f)).join(',');

const field = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('', '"', '""', ',', '","', '\n', '\r\n', 'a "quoted" word', 'line one\nline two', 'Nguyễn', "O'Connor", ' padded '),
);

describe('reading NPPES CSV records', () => {
  it('reads what csv-parse reads, from any fields, however the bytes are cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(field, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (rows, minimal, crlf, cuts) => {
          const text = rows.map((r) => (minimal ? minimalLine(r) : csvLine(r))).join(crlf ? '\r\n' : '\n') + (crlf ? '\r\n' : '\n');
          const bytes = Buffer.from(text, 'utf8');
          // Cut anywhere, inside a multi-byte character too.
          const positions = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...positions, bytes.length].slice(1).map((end, i, all) => bytes.subarray(i === 0 ? 0 : all[i - 1], end));
          const { records, problems } = await read(chunks);
          expect(problems).toEqual([]);
          expect(records.map((r) => r.fields)).toEqual(parse(text, { relax_column_count: true }));
          // Each record starts on the line after the line breaks of the records before it.
          let line = 1;
          for (const [i, record] of records.entries()) {
            expect(record.line).toBe(line);
            line += 1 + rows[i]!.join('').split('\n').length - 1;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('skips a byte order mark and blank lines, and reads a last line without a line break', async () => {
    const { records } = await read(['\ufeff"NPI","Name"\n\n"1","A"\r\n', '2,B']);
    expect(records).toEqual([
      { fields: ['NPI', 'Name'], line: 1 },
      { fields: ['1', 'A'], line: 3 },
      { fields: ['2', 'B'], line: 4 },
    ]);
  });

  it('keeps a stray quote inside an unquoted field as text', async () => {
    const { records, problems } = await read(['a,b"c,d\n"e","f"\n']);
    expect(problems).toEqual([]);
    expect(records.map((r) => r.fields)).toEqual([
      ['a', 'b"c', 'd'],
      ['e', 'f'],
    ]);
  });

  it('refuses a record whose quote never closes, on its own line, and reads the lines after it', async () => {
    const lines = ['"1","ok"', '2,"broken', ...Array.from({ length: 60 }, (_, i) => `${i + 3},fine`)];
    const { records, problems } = await read([lines.join('\n')]);
    expect(problems).toEqual([{ line: 2, reason: expect.stringContaining('not closed') as string }]);
    expect(records.map((r) => r.line)).toEqual([1, ...Array.from({ length: 60 }, (_, i) => i + 3)]);
  });

  it('refuses a quote left open at the end of the file', async () => {
    const { records, problems } = await read(['"1","ok"\n"2","open\n']);
    expect(records.map((r) => r.fields)).toEqual([['1', 'ok']]);
    expect(problems).toEqual([{ line: 2, reason: expect.stringContaining('not closed at the end of the file') as string }]);
  });

  it('keeps text after a closing quote, as csv-parse relaxed does', async () => {
    const { records, problems } = await read(['"1","a"x,"b"\n"2","c"\n']);
    expect(problems).toEqual([]);
    expect(records.map((r) => r.fields)).toEqual([
      ['1', '"a"x', 'b'],
      ['2', 'c'],
    ]);
  });

  it('refuses a quote that only the next record would close', async () => {
    const { records, problems } = await read(['"1","ok"\n"2","broken\n"3","fine"\n"4","multi\nline"\n']);
    expect(problems).toEqual([{ line: 2, reason: 'unreadable CSV: a quoted field is not closed' }]);
    expect(records).toEqual([
      { fields: ['1', 'ok'], line: 1 },
      { fields: ['3', 'fine'], line: 3 },
      { fields: ['4', 'multi\nline'], line: 4 },
    ]);
  });
});
