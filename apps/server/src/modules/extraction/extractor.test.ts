import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, itWithFixtures } from '../../test/shared-fixtures.ts';
import { extractPatient } from './extractor.ts';
import { findPatient, parseBirthDate, parseName } from './find-patient.ts';
import { tesseractOcr, terminateOcr, type OcrEngine } from './ocr.ts';
import { scannedPdf } from './scanned-page.ts';

const today = new Date('2026-03-01T00:00:00Z');

// A text PDF: each page a list of lines, drawn as a clinic's system prints them (some in two columns).
async function textPdf(pages: (string | [string, string])[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([612, 792]);
    lines.forEach((line, i) => {
      const y = 740 - i * 16;
      const [left, right] = typeof line === 'string' ? [line, null] : line;
      page.drawText(left, { x: 54, y, size: 10, font });
      if (right) page.drawText(right, { x: 330, y, size: 10, font });
    });
  }
  return pdf.save();
}

const run = async (bytes: Uint8Array, ocr: OcrEngine | null = null) => extractPatient(bytes, { ocr, today });

afterAll(() => terminateOcr());

describe('patient extraction: label patterns', () => {
  it('reads "Patient Name: LAST, FIRST M" with DOB and Sex in columns', async () => {
    const pdf = await textPdf([
      [
        'Riverview Cardiology Associates',
        'CONSULTATION NOTE',
        ['Patient Name: ALVAREZ, MARIA E', 'MRN: 0048213'],
        ['DOB: 04/12/1958', 'Sex: F'],
        'Referring Physician Name: John Carter, MD',
        'History: 67-year-old woman with exertional chest pain.',
      ],
    ]);
    const result = await run(pdf);
    expect(result.patient).toEqual({ firstName: 'Maria', middleName: 'E', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' });
    expect(result).toMatchObject({ noText: false, error: false, noMatch: false, conflicts: false, perfectMatch: true, confidenceIsVeryHigh: true });
    expect(result.hits).toEqual({ first: true, middle: true, last: true, dob: true, gender: true });
    expect(result.ocrPages).toEqual([]);
  });

  it('reads "Patient: First M. Last" on one line with "Date of Birth" as a month name and "Gender: Male"', async () => {
    const pdf = await textPdf([['Lakeside Family Medicine — Referral', 'Patient: John Q. Public  Date of Birth: April 7, 1961  Gender: Male', 'Reason: knee pain.']]);
    expect((await run(pdf)).patient).toEqual({ firstName: 'John', middleName: 'Q', lastName: 'Public', birthDate: '1961-04-07', gender: 'M' });
  });

  it('reads separate First/Last Name fields, an ISO birth date and no middle name', async () => {
    const pdf = await textPdf([[['First Name: Aiko', 'Last Name: Tanaka-Smith'], ['Birth Date: 1990-11-03', 'Sex: Female'], 'Insurance: Acme Health']]);
    const result = await run(pdf);
    expect(result.patient).toEqual({ firstName: 'Aiko', middleName: null, lastName: 'Tanaka-Smith', birthDate: '1990-11-03', gender: 'F' });
    expect(result).toMatchObject({ perfectMatch: false, conflicts: false, noMatch: false });
    expect(result.hits).toEqual({ first: true, middle: false, last: true, dob: true, gender: true });
  });

  it('reads a bare "Name:" at the start of a line and a two-digit year, but not "Physician Name:"', async () => {
    const pdf = await textPdf([['Physician Name: Gregory House', 'Name: Chen, Wei', 'DOB 3/9/47', 'Sex M']]);
    expect((await run(pdf)).patient).toEqual({ firstName: 'Wei', middleName: null, lastName: 'Chen', birthDate: '1947-03-09', gender: 'M' });
  });

  it('agrees with itself across pages, and flags two different birth dates as a conflict', async () => {
    const same = await textPdf([['Patient: Maria Alvarez', 'DOB: 04/12/1958'], ['Patient: ALVAREZ, MARIA', 'DOB: 1958-04-12']]);
    expect(await run(same)).toMatchObject({ conflicts: false, patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12' } });
    const different = await textPdf([['Patient: Maria Alvarez', 'DOB: 04/12/1958'], ['Patient: Maria Alvarez', 'DOB: 04/21/1958']]);
    const result = await run(different);
    expect(result.conflicts).toBe(true);
    expect(result.perfectMatch).toBe(false);
    expect(result.confidence.dob).toBeLessThan(0.9);
  });

  it('reports noMatch for a document without patient labels and noText for an empty page', async () => {
    expect(await run(await textPdf([['Minutes of the quality committee meeting.', 'Attendance was good.']]))).toMatchObject({ noMatch: true, noText: false, perfectMatch: false });
    expect(await run(await textPdf([[]]))).toMatchObject({ noText: true, noMatch: false, error: false });
  });

  it('reports error for bytes that are not a PDF', async () => {
    expect(await run(new TextEncoder().encode('%PDF-1.7 not really'))).toMatchObject({ error: true, patient: { firstName: null } });
  });

  it('parses names, dates and labels on their own', () => {
    expect(parseName('Levin, Henry L.')).toEqual({ first: 'Henry', middle: 'L', last: 'Levin' });
    expect(parseName("Mr. Patrick O'BRIEN Jr.")).toEqual({ first: 'Patrick', middle: null, last: "O'Brien" });
    expect(parseName('See attached')).toBeNull();
    expect(parseBirthDate('58', '4', '12', today)).toBe('1958-04-12');
    expect(parseBirthDate('2030', '1', '1', today)).toBeNull();
    expect(parseBirthDate('1958', '2', '30', today)).toBeNull();
    expect(findPatient('a 56-year-old white male presented', today).patient.gender).toBe('M');
    expect(findPatient('Patient DOB: 12 March 1975', today).patient.birthDate).toBe('1975-03-12');
  });

  itWithFixtures('reads what ud-sample.pdf really says: the name from its text layer, the gender from its narrative, no birth date', async () => {
    const result = await run(fixture('pdf/ud-sample.pdf'));
    expect(result.patient).toEqual({ firstName: 'Henry', middleName: 'L', lastName: 'Levin', birthDate: null, gender: 'M' });
    expect(result.hits).toEqual({ first: true, middle: true, last: true, dob: false, gender: true });
    // The narrative ("a 56-year-old white male") is weaker evidence than a label.
    expect(result.confidence.gender).toBeLessThan(result.confidence.last);
    expect(result).toMatchObject({ perfectMatch: false, confidenceIsVeryHigh: false, noMatch: false });
  });
});

describe('patient extraction: scanned pages (OCR, offline)', () => {
  it('reads a page that is only a JPEG image with tesseract', { timeout: 60_000 }, async () => {
    const pdf = await scannedPdf(['Lakeside Family Medicine          Fax 555-0100', 'REFERRAL', 'Patient Name: ALVAREZ, MARIA E', 'DOB: 04/12/1958     Sex: F', 'Reason for referral: chest pain on exertion.']);
    const result = await run(pdf, tesseractOcr);
    expect(result.ocrPages).toEqual([1]);
    expect(result.patient).toEqual({ firstName: 'Maria', middleName: 'E', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' });
    expect(result.perfectMatch).toBe(true);
  });

  it('leaves a scan unread without OCR, and OCRs only the first pages', { timeout: 60_000 }, async () => {
    const scan = await scannedPdf(['Patient Name: ALVAREZ, MARIA E']);
    expect(await run(scan, null)).toMatchObject({ noText: true, ocrPages: [] });
    const calls: number[] = [];
    const counting: OcrEngine = { recognize: async () => (calls.push(1), { text: '', lines: [] }) };
    const pdf = await PDFDocument.create();
    const source = await PDFDocument.load(scan);
    for (let i = 0; i < 5; i++) pdf.addPage((await pdf.copyPages(source, [0]))[0]);
    await extractPatient(await pdf.save(), { ocr: counting, today });
    expect(calls).toHaveLength(3);
  });
});
