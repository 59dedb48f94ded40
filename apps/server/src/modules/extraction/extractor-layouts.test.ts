import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractPatient } from './extractor.ts';
import { findPatient } from './find-patient.ts';

// The layouts real letters and forms use (issue 15 §2), each drawn with pdf-lib at real x/y positions,
// so the extractor reads them the way it reads a clinic's PDF: pdfjs text items with their positions.

const today = new Date('2026-03-01T00:00:00Z');

interface Text {
  text: string;
  x: number;
  y: number;
  size?: number;
}

// One page per list of text runs; a string is a line of its own, stacked from the top like a letter.
async function pdfOf(...pages: (Text | string)[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const runs of pages) {
    const page = pdf.addPage([612, 792]);
    let line = 0;
    for (const run of runs) {
      const { text, x, y, size } = typeof run === 'string' ? { text: run, x: 54, y: 740 - line++ * 16, size: 10 } : run;
      page.drawText(text, { x, y, size: size ?? 10, font });
    }
  }
  return pdf.save();
}

const run = async (bytes: Uint8Array) => extractPatient(bytes, { ocr: null, today });
const patient = (firstName: string | null, middleName: string | null, lastName: string | null, birthDate: string | null, gender: 'M' | 'F' | 'UN' | null) => ({
  firstName,
  middleName,
  lastName,
  birthDate,
  gender,
});

describe('patient extraction: layouts of real letters and forms', () => {
  it('reads "RE: Jane Q. Public, DOB 3/14/1961" as First M. Last (a comma before DOB is no "Last, First")', async () => {
    const result = await run(
      await pdfOf([
        'Lakeside Family Medicine',
        '123 Main Street, Springfield, IL 62701',
        'March 2, 2026',
        'Dear Dr. Carter,',
        'RE: Jane Q. Public, DOB 3/14/1961',
        'Thank you for seeing Ms. Public, a 64-year-old woman with exertional chest pain.',
      ]),
    );
    expect(result.patient).toEqual(patient('Jane', 'Q', 'Public', '1961-03-14', 'F'));
    // The gender comes from words ("Ms.", "woman"), not a label: lower confidence, flagged in the measures.
    expect(result.inferredFields).toEqual(['gender']);
    expect(result.confidence.gender).toBeLessThanOrEqual(0.6);
    expect(result).toMatchObject({ perfectMatch: true, confidenceIsVeryHigh: false, conflicts: false });
  });

  it('reads "Re: Hernández, Luis Alberto — D.O.B." with its em dash and accents', async () => {
    const result = await run(await pdfOf(['Riverview Orthopedics', 'Re: Hernández, Luis Alberto — D.O.B. 02/28/1955', 'Sex: Male', 'Mr. Hernández was seen for knee pain.']));
    expect(result.patient).toEqual(patient('Luis', 'Alberto', 'Hernández', '1955-02-28', 'M'));
    expect(result.inferredFields).toEqual([]);
  });

  it('reads "Name (Last, First, MI): Nakamura, Kenji, T" and a "[X] Male" checkbox', async () => {
    const result = await run(
      await pdfOf([
        'NEW PATIENT REGISTRATION',
        { text: 'Name (Last, First, MI): Nakamura, Kenji, T', x: 54, y: 700 },
        { text: 'Date of Birth: 09/22/1980', x: 54, y: 684 },
        { text: 'Sex:', x: 54, y: 668 },
        { text: '[X] Male', x: 90, y: 668 },
        { text: '[ ] Female', x: 150, y: 668 },
      ]),
    );
    expect(result.patient).toEqual(patient('Kenji', 'T', 'Nakamura', '1980-09-22', 'M'));
    expect(result.confidence.gender).toBeGreaterThanOrEqual(0.8);
  });

  it('reads "M [ ]  F [X]" as F and leaves an ambiguous "M [X] F" empty', () => {
    expect(findPatient('Sex:  M [ ]  F [X]', today).patient.gender).toBe('F');
    expect(findPatient('Sex: M [X] F', today).patient.gender).toBeNull();
  });

  it('reads a lab table by row and column: the header row, the values in the row below (drawn first)', async () => {
    const columns = [54, 220, 300, 350, 440];
    const header = ['Patient Name', 'DOB', 'Sex', 'MRN', 'Collected'];
    const values = ['PUBLIC, JANE Q', '03/14/1961', 'F', '00412', '02/20/2026'];
    // The values are drawn before the header: the content order alone puts them above it.
    const result = await run(
      await pdfOf([
        { text: 'Summit Diagnostics Laboratory', x: 54, y: 740, size: 14 },
        { text: 'LABORATORY REPORT', x: 54, y: 720 },
        ...values.map((text, i) => ({ text, x: columns[i]!, y: 684 })),
        ...header.map((text, i) => ({ text, x: columns[i]!, y: 700 })),
        { text: 'Ordering Physician: Gregory House, MD', x: 54, y: 660 },
        { text: 'Test', x: 54, y: 630 },
        { text: 'Result', x: 220, y: 630 },
        { text: 'Hemoglobin A1c', x: 54, y: 614 },
        { text: '6.1 %', x: 220, y: 614 },
      ]),
    );
    expect(result.patient).toEqual(patient('Jane', 'Q', 'Public', '1961-03-14', 'F'));
    expect(result).toMatchObject({ perfectMatch: true, conflicts: false });
  });

  it('reads a claim form: labels above values, a row of "MM DD YY" hints and date boxes "04 15 72", not the insured\'s', async () => {
    const result = await run(
      await pdfOf([
        { text: 'HEALTH INSURANCE CLAIM FORM', x: 40, y: 750, size: 12 },
        { text: "2. PATIENT'S NAME (Last Name, First Name, Middle Initial)", x: 40, y: 700, size: 7 },
        { text: "3. PATIENT'S BIRTH DATE", x: 300, y: 700, size: 7 },
        { text: 'SEX', x: 420, y: 700, size: 7 },
        { text: 'MM', x: 305, y: 691, size: 6 },
        { text: 'DD', x: 330, y: 691, size: 6 },
        { text: 'YY', x: 355, y: 691, size: 6 },
        { text: 'DOE, JOHN, A', x: 40, y: 678 },
        { text: '04', x: 305, y: 678 },
        { text: '15', x: 330, y: 678 },
        { text: '72', x: 355, y: 678 },
        { text: 'M [X]', x: 420, y: 678 },
        { text: 'F [ ]', x: 460, y: 678 },
        { text: "11a. INSURED'S DATE OF BIRTH", x: 40, y: 620, size: 7 },
        { text: '06 01 70', x: 40, y: 606 },
        { text: "INSURED'S SEX: M [ ] F [X]", x: 300, y: 606 },
      ]),
    );
    expect(result.patient).toEqual(patient('John', 'A', 'Doe', '1972-04-15', 'M'));
    expect(result).toMatchObject({ conflicts: false, inferredFields: [] });
  });

  it('reads a narrative "Mr. Robert Lee Johnson (born 5 June 1948)", flagged as words not labels', async () => {
    const result = await run(
      await pdfOf([
        'Westbrook Neurology',
        'April 3, 2026',
        'Dear Dr. Patel,',
        'Thank you for referring Mr. Robert Lee Johnson (born 5 June 1948). I saw him today for his tremor.',
        'Sincerely,',
        'Anna Lindqvist, MD',
      ]),
    );
    expect(result.patient).toEqual(patient('Robert', 'Lee', 'Johnson', '1948-06-05', 'M'));
    expect(result.inferredFields).toEqual(expect.arrayContaining(['first', 'last', 'gender']));
    expect(result.confidenceIsVeryHigh).toBe(false);
  });

  it('reads a day-first "14.03.1961" only in a document that is clearly not from the US', async () => {
    const uk = ["St Mary's Hospital, Praed Street, London W2 1NY, United Kingdom", 'NHS Number: 943 476 5919', 'Patient: Amelia Clarke', 'Date of Birth: 14.03.1961'];
    expect((await run(await pdfOf(uk))).patient).toMatchObject({ firstName: 'Amelia', lastName: 'Clarke', birthDate: '1961-03-14' });
    // An ambiguous date is read day-first there too.
    expect(findPatient([...uk.slice(0, 3), 'Date of Birth: 03.04.1961'].join('\n'), today).patient.birthDate).toBe('1961-04-03');
    // Without a sign of the country, or in a US document, a day-first date is left empty rather than guessed.
    expect((await run(await pdfOf(['Patient: Amelia Clarke', 'Date of Birth: 14.03.1961']))).patient).toMatchObject({ lastName: 'Clarke', birthDate: null });
    expect(findPatient('Boston, MA 02115\nPatient: Amelia Clarke\nDate of Birth: 14.03.1961', today).patient.birthDate).toBeNull();
  });

  it('reads an unlabelled patient heading: a name line at the top followed by DOB and MRN lines', async () => {
    const result = await run(await pdfOf(['Sunrise Pediatrics', 'OFFICE VISIT', 'JOHNSON, EMILY R', 'DOB: 02/03/2015     MRN: 448812', 'Sex: F', 'Chief complaint: cough for three days.']));
    expect(result.patient).toEqual(patient('Emily', 'R', 'Johnson', '2015-02-03', 'F'));
    // A letterhead or a physician's line above the DOB is no patient.
    expect(findPatient('Riverview Cardiology Associates\nDOB: 02/03/2015', today).patient).toMatchObject({ firstName: null, lastName: null });
    expect(findPatient('Dr. Gregory House\nDOB: 02/03/2015', today).patient).toMatchObject({ firstName: null, lastName: null });
  });

  it("prefers the fields under \"Patient\" over a care-team member's on an ONC test sheet", async () => {
    const result = await run(
      await pdfOf([
        'ONC 170.315(b)(1) Transitions of Care - Test Data',
        'Patient',
        'First Name: Alice',
        'Last Name: Newman',
        'Date of Birth: 05/01/1970',
        'Sex: Female',
        'Care Team Member',
        'First Name: Albert',
        'Last Name: Davis',
        'Sex: Male',
        'Provider First Name: Henry',
      ]),
    );
    expect(result.patient).toEqual(patient('Alice', null, 'Newman', '1970-05-01', 'F'));
    expect(result).toMatchObject({ conflicts: false, conflictingFields: [] });
  });

  it('reports a conflict in the measures and fills nothing for that field when two labelled values disagree', async () => {
    const result = await run(await pdfOf(['Patient Name: Maria Alvarez', 'DOB: 04/12/1958', 'Sex: F'], ['Patient Name: Maria Alverez', 'DOB: 04/12/1958']));
    expect(result.patient).toEqual(patient('Maria', null, null, '1958-04-12', 'F'));
    expect(result).toMatchObject({ conflicts: true, conflictingFields: ['last'], perfectMatch: false, confidenceIsVeryHigh: false });
    expect(result.hits).toMatchObject({ first: true, last: false });
    expect(result.confidence.last).toBe(0);
    // Two narrative names that disagree are a conflict too, never a pick.
    expect(findPatient('I saw Mr. John Smith with Mr. Paul Jones today.', today)).toMatchObject({ conflicts: true, patient: { firstName: null, lastName: null } });
  });

  it('takes the gender from words only when no labelled field says it', () => {
    const labelled = findPatient('Patient: Dana Reyes\nSex: F\nHistory: her husband, a 64-year-old male, drove her in.', today);
    expect(labelled).toMatchObject({ patient: { gender: 'F' }, conflicts: false, inferred: [] });
    expect(labelled.confidence.gender).toBeGreaterThanOrEqual(0.9);
    const words = findPatient('Patient: Dana Reyes\nMs. Reyes is a 52-year-old woman with asthma.', today);
    expect(words).toMatchObject({ patient: { gender: 'F' }, inferred: ['gender'] });
    expect(words.confidence.gender).toBeLessThan(0.9);
  });

  it('reads headings in columns, skips a clinician\'s "Name:" and keeps a surname particle', () => {
    const columns = findPatient('PATIENT  REFERRING PROVIDER\nPatient: Malik Okonkwo  Name: Robert Goldberg, NP\nDOB: Jul 8, 1992  NPI: 1577844978\nSex: MALE  Phone: (377) 328-8506', today);
    expect(columns).toMatchObject({ patient: patient('Malik', null, 'Okonkwo', '1992-07-08', 'M'), conflicts: false });
    const fax = findPatient('TO  FROM\nName: Dr. Michael Kim  Name: Michael Okafor, DO\nPATIENT INFORMATION\nPatient Name: MacLeod, Aaliyah S\nDate of Birth: 3/19/1980', today);
    expect(fax).toMatchObject({ patient: patient('Aaliyah', 'S', 'MacLeod', '1980-03-19', null), conflicts: false });
    expect(findPatient('Patient: Maria Van Buren  DOB: 10/21/58', today).patient).toMatchObject({ firstName: 'Maria', middleName: null, lastName: 'Van Buren' });
  });
});
