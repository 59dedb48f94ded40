import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { buildXdsSdDocument } from '../../platform/cda/cda-document.ts';
import { PdfText, type TextStyle } from '../../platform/pdf/text.ts';

// The demo messages' attachments, drawn here with pdf-lib (and one C-CDA from the product's own CDA
// generator): fictional patients, practices and findings only.

export interface DemoPatient {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD */
  birthDate: string;
  gender: 'M' | 'F';
  streetAddress1: string;
  city: string;
  state: string;
  postalCode: string;
  telephone: string;
  /** The medical record number at the practice that sends the document. */
  mrn: string;
}

export const demoPatients = {
  maria: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F', streetAddress1: '2218 SE Alder Street', city: 'Portland', state: 'OR', postalCode: '97214', telephone: '5035550143', mrn: 'LFM-004512' },
  thomas: { firstName: 'Thomas', lastName: 'Nguyen', birthDate: '1971-09-03', gender: 'M', streetAddress1: '907 NE Fremont Street', city: 'Portland', state: 'OR', postalCode: '97212', telephone: '5035550178', mrn: 'LFM-007731' },
  evelyn: { firstName: 'Evelyn', lastName: 'Brooks', birthDate: '1949-01-27', gender: 'F', streetAddress1: '14 Willow Bend Court', city: 'Lake Oswego', state: 'OR', postalCode: '97034', telephone: '5035550119', mrn: 'RVC-210877' },
} as const satisfies Record<string, DemoPatient>;

interface Practice {
  name: string;
  tagline: string;
  address: string;
  phone: string;
  fax: string;
  direct: string;
}

export const lakesidePractice: Practice = {
  name: 'Lakeside Family Medicine',
  tagline: 'Primary care for every age',
  address: '1200 Lakeshore Drive, Suite 100, Portland, OR 97201',
  phone: '(503) 555-0100',
  fax: '(503) 555-0101',
  direct: 'intake@lakeside.direct.example.org',
};

export const riverviewPractice: Practice = {
  name: 'Riverview Cardiology',
  tagline: 'Heart and vascular care',
  address: '45 River Park Way, Suite 300, Portland, OR 97209',
  phone: '(503) 555-0200',
  fax: '(503) 555-0202',
  direct: 'referrals@riverview.direct.example.org',
};

// US Letter portrait.
const PAGE = { width: 612, height: 792 };
const MARGIN = 54;
const CONTENT = PAGE.width - 2 * MARGIN;
const INK = rgb(0.1, 0.1, 0.12);
const GREY = rgb(0.4, 0.4, 0.45);
const RULE = rgb(0.75, 0.75, 0.8);
const LAKESIDE_BLUE = rgb(0.09, 0.36, 0.55);
const RIVERVIEW_RED = rgb(0.62, 0.12, 0.16);

const pad = (n: number) => String(n).padStart(2, '0');
/** MM/DD/YYYY of a YYYY-MM-DD. */
export const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const longDate = (iso: string) =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const ageOn = (birthDate: string, on: string) => {
  const years = Number(on.slice(0, 4)) - Number(birthDate.slice(0, 4));
  return on.slice(5) < birthDate.slice(5) ? years - 1 : years;
};
const sexName = (g: 'M' | 'F') => (g === 'M' ? 'Male' : 'Female');
const fullName = (p: DemoPatient) => `${p.firstName} ${p.lastName}`;

const FONTS = { regular: 'regular', bold: 'bold', italic: 'italic' } as const satisfies Record<string, TextStyle>;

// A page cursor: draws top to bottom and wraps text to the content width.
class Sheet {
  page: PDFPage;
  y = PAGE.height - MARGIN;
  readonly fonts = FONTS;
  // The same embedded Noto fonts as the product's own PDFs (platform/pdf/text.ts).
  readonly typeset: PdfText;

  constructor(readonly pdf: PDFDocument) {
    this.page = pdf.addPage([PAGE.width, PAGE.height]);
    this.typeset = new PdfText(pdf);
  }

  newPage() {
    this.page = this.pdf.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - MARGIN;
  }

  text(text: string, opts: { x?: number; size?: number; font?: TextStyle; color?: ReturnType<typeof rgb>; width?: number; gap?: number } = {}) {
    const { x = MARGIN, size = 10.5, font = this.fonts.regular, color = INK, width = CONTENT - (x - MARGIN), gap = 3 } = opts;
    for (const line of this.typeset.wrap(text, size, width, font)) {
      // Text never runs into the footer: it continues on a new page (the tests check the page counts).
      if (this.y - size < MARGIN + 6) this.newPage();
      this.y -= size;
      this.typeset.draw(this.page, line, { x, y: this.y, size, style: font, color });
      this.y -= gap;
    }
  }

  space(points: number) {
    this.y -= points;
  }

  rule(color = RULE, thickness = 0.75) {
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: PAGE.width - MARGIN, y: this.y }, thickness, color });
  }

  heading(text: string, color = INK) {
    this.space(6);
    this.text(text.toUpperCase(), { font: this.fonts.bold, size: 10, color, gap: 4 });
  }

  // Label: value pairs in two columns.
  fields(pairs: [string, string][], columns = 2) {
    const columnWidth = CONTENT / columns;
    for (let i = 0; i < pairs.length; i += columns) {
      const top = this.y;
      let lowest = top;
      pairs.slice(i, i + columns).forEach(([label, value], c) => {
        this.y = top;
        const x = MARGIN + c * columnWidth;
        this.typeset.draw(this.page, `${label}:`, { x, y: this.y - 9.5, size: 9.5, style: this.fonts.bold, color: GREY });
        const labelWidth = Math.max(this.typeset.width(`${label}:`, 9.5, this.fonts.bold) + 6, 92);
        this.text(value, { x: x + labelWidth, size: 9.5, width: columnWidth - labelWidth - 8 });
        lowest = Math.min(lowest, this.y);
      });
      this.y = lowest - 1;
    }
  }

  bullets(items: string[]) {
    for (const item of items) {
      const top = this.y;
      this.typeset.draw(this.page, '-', { x: MARGIN + 6, y: top - 10.5, size: 10.5, color: INK });
      this.text(item, { x: MARGIN + 18 });
    }
  }

  table(columns: { title: string; width: number; align?: 'right' }[], rows: string[][], flagColumn?: number) {
    const size = 9.5;
    const rowHeight = 15;
    const drawRow = (cells: string[], font: TextStyle, shaded: boolean) => {
      if (shaded) this.page.drawRectangle({ x: MARGIN, y: this.y - rowHeight + 3, width: CONTENT, height: rowHeight, color: rgb(0.95, 0.95, 0.97) });
      let x = MARGIN + 4;
      cells.forEach((cell, i) => {
        const column = columns[i]!;
        const flagged = i === flagColumn && cell !== '';
        const cellFont = flagged ? this.fonts.bold : font;
        const cellX = column.align === 'right' ? x + column.width - 10 - this.typeset.width(cell, size, cellFont) : x;
        this.typeset.draw(this.page, cell, { x: cellX, y: this.y - 8.5, size, style: cellFont, color: flagged ? RIVERVIEW_RED : INK });
        x += column.width;
      });
      this.y -= rowHeight;
    };
    drawRow(
      columns.map((c) => c.title),
      this.fonts.bold,
      false,
    );
    this.space(1);
    this.rule(INK, 0.6);
    this.space(3);
    rows.forEach((row, i) => drawRow(row, this.fonts.regular, i % 2 === 1));
    this.rule();
    this.space(4);
  }

  letterhead(practice: Practice, color: ReturnType<typeof rgb>) {
    this.page.drawRectangle({ x: 0, y: PAGE.height - 10, width: PAGE.width, height: 10, color });
    this.y = PAGE.height - 40;
    this.text(practice.name, { font: this.fonts.bold, size: 18, color, gap: 2 });
    this.text(practice.tagline, { font: this.fonts.italic, size: 9.5, color: GREY, gap: 2 });
    this.text(`${practice.address}  |  Phone ${practice.phone}  |  Fax ${practice.fax}`, { size: 8.5, color: GREY, gap: 1 });
    this.text(`Direct: ${practice.direct}`, { size: 8.5, color: GREY, gap: 6 });
    this.rule(color, 1.5);
    this.space(14);
  }

  // A footer on every page: the practice, patient and "Page n of N".
  footers(left: string) {
    const pages = this.pdf.getPages();
    pages.forEach((page, i) => {
      page.drawLine({ start: { x: MARGIN, y: MARGIN - 8 }, end: { x: PAGE.width - MARGIN, y: MARGIN - 8 }, thickness: 0.5, color: RULE });
      this.typeset.draw(page, left, { x: MARGIN, y: MARGIN - 20, size: 8, color: GREY });
      const right = `Page ${i + 1} of ${pages.length}`;
      this.typeset.draw(page, right, { x: PAGE.width - MARGIN - this.typeset.width(right, 8), y: MARGIN - 20, size: 8, color: GREY });
    });
  }
}

async function newDocument(meta: { title: string; author: string; subject: string; date: string }) {
  const pdf = await PDFDocument.create();
  const created = new Date(`${meta.date}T16:30:00Z`);
  pdf.setTitle(meta.title);
  pdf.setAuthor(meta.author);
  pdf.setSubject(meta.subject);
  pdf.setCreator(meta.author);
  pdf.setCreationDate(created);
  pdf.setModificationDate(created);
  return new Sheet(pdf);
}

function signature(sheet: Sheet, name: string, lines: string[]) {
  sheet.space(10);
  sheet.text('Sincerely,');
  sheet.space(16);
  sheet.text(`/s/ ${name}`, { font: sheet.fonts.italic, size: 13, gap: 4 });
  sheet.text(name, { font: sheet.fonts.bold });
  for (const line of lines) sheet.text(line, { size: 9.5, color: GREY, gap: 2 });
}

/** A one-page referral letter from Lakeside Family Medicine to Riverview Cardiology. */
export async function referralLetterPdf(opts: { date: string; patient?: DemoPatient }): Promise<Uint8Array> {
  const p = opts.patient ?? demoPatients.maria;
  const s = await newDocument({ title: `Referral letter: ${fullName(p)}`, author: 'Laura Lake, MD', subject: 'Cardiology referral', date: opts.date });
  s.letterhead(lakesidePractice, LAKESIDE_BLUE);
  s.text(longDate(opts.date));
  s.space(10);
  s.text('Riverview Cardiology', { font: s.fonts.bold, gap: 2 });
  s.text('Attn: New patient referrals', { gap: 2 });
  s.text(riverviewPractice.address, { gap: 2 });
  s.space(12);
  s.text(`RE: ${fullName(p)}   DOB ${usDate(p.birthDate)}   ${sexName(p.gender)}   MRN ${p.mrn}`, { font: s.fonts.bold });
  s.text('Reason for referral: palpitations and intermittent chest tightness', { font: s.fonts.bold });
  s.space(8);
  s.text('Dear colleague,');
  s.space(4);
  s.text(
    `Thank you for seeing ${p.firstName} ${p.lastName}, a ${ageOn(p.birthDate, opts.date)}-year-old woman I follow for hypertension and ` +
      'hyperlipidemia, for evaluation of palpitations and intermittent chest tightness.',
  );
  s.heading('History', LAKESIDE_BLUE);
  s.text(
    'Over the past six weeks she has noticed episodes of a racing, irregular heartbeat lasting a few minutes, two to three ' +
      'times a week, sometimes with a sense of tightness across the chest. Episodes occur at rest as often as on exertion and ' +
      'resolve on their own. She denies syncope, dyspnea at rest, orthopnea or leg swelling. Her blood pressure has been well ' +
      'controlled (132/78 at today\'s visit, pulse 84 and regular). An office ECG showed sinus rhythm with occasional premature ' +
      'ventricular complexes and no acute ST changes. TSH, electrolytes and a CBC last month were within normal limits.',
  );
  s.heading('Current medications', LAKESIDE_BLUE);
  s.bullets(['Lisinopril 10 mg by mouth once daily', 'Atorvastatin 20 mg by mouth at bedtime', 'Vitamin D3 1,000 IU by mouth once daily']);
  s.text('Allergies: penicillin (rash).', { size: 10 });
  s.heading('Request', LAKESIDE_BLUE);
  s.text(
    'I would appreciate your assessment, including ambulatory rhythm monitoring and stress testing as you see fit. ' +
      'Please send your consult note to our Direct address or fax number above.',
  );
  signature(s, 'Laura Lake, MD', ['Family Medicine', lakesidePractice.name, `Phone ${lakesidePractice.phone}`]);
  s.footers(`${lakesidePractice.name}  -  Referral letter for ${fullName(p)} (DOB ${usDate(p.birthDate)})  -  Confidential patient information`);
  return s.pdf.save();
}

const CBC: [string, string, string, string, string][] = [
  ['White blood cells (WBC)', '6.8', '', 'x10^3/uL', '4.0 - 11.0'],
  ['Red blood cells (RBC)', '4.92', '', 'x10^6/uL', '4.50 - 5.90'],
  ['Hemoglobin', '14.6', '', 'g/dL', '13.5 - 17.5'],
  ['Hematocrit', '43.8', '', '%', '41.0 - 53.0'],
  ['MCV', '89.0', '', 'fL', '80.0 - 100.0'],
  ['MCH', '29.7', '', 'pg', '27.0 - 33.0'],
  ['MCHC', '33.3', '', 'g/dL', '32.0 - 36.0'],
  ['RDW', '13.1', '', '%', '11.5 - 14.5'],
  ['Platelets', '245', '', 'x10^3/uL', '150 - 400'],
  ['Neutrophils', '58', '', '%', '40 - 75'],
  ['Lymphocytes', '31', '', '%', '20 - 45'],
];

const BMP: [string, string, string, string, string][] = [
  ['Sodium', '139', '', 'mmol/L', '136 - 145'],
  ['Potassium', '4.2', '', 'mmol/L', '3.5 - 5.1'],
  ['Chloride', '102', '', 'mmol/L', '98 - 107'],
  ['Carbon dioxide (CO2)', '25', '', 'mmol/L', '22 - 29'],
  ['Anion gap', '12', '', 'mmol/L', '7 - 16'],
  ['Glucose, fasting', '112', 'H', 'mg/dL', '70 - 99'],
  ['Urea nitrogen (BUN)', '18', '', 'mg/dL', '7 - 20'],
  ['Creatinine', '1.02', '', 'mg/dL', '0.74 - 1.35'],
  ['eGFR (CKD-EPI 2021)', '86', '', 'mL/min/1.73m2', '>= 60'],
  ['Calcium', '9.4', '', 'mg/dL', '8.6 - 10.3'],
];

/** A two-page laboratory report (CBC, then basic metabolic panel) from Lakeside's in-office laboratory. */
export async function labReportPdf(opts: { collected: string; reported: string; patient?: DemoPatient }): Promise<Uint8Array> {
  const p = opts.patient ?? demoPatients.thomas;
  const s = await newDocument({ title: `Laboratory report: ${fullName(p)}`, author: 'Lakeside Family Medicine Laboratory', subject: 'CBC and basic metabolic panel', date: opts.reported });
  const columns = [
    { title: 'Test', width: 170 },
    { title: 'Result', width: 60, align: 'right' as const },
    { title: 'Flag', width: 40 },
    { title: 'Units', width: 95 },
    { title: 'Reference range', width: 139 },
  ];
  const header = (panel: string) => {
    s.letterhead(lakesidePractice, LAKESIDE_BLUE);
    s.text('LABORATORY REPORT', { font: s.fonts.bold, size: 14, gap: 8 });
    s.fields([
      ['Patient', `${p.lastName}, ${p.firstName}`],
      ['MRN', p.mrn],
      ['Date of birth', `${usDate(p.birthDate)} (${ageOn(p.birthDate, opts.collected)} y)`],
      ['Sex', sexName(p.gender)],
      ['Ordering provider', 'Laura Lake, MD'],
      ['Accession', `LFM-L-${opts.collected.replaceAll('-', '')}-0417`],
      ['Collected', `${usDate(opts.collected)} 08:12 (fasting)`],
      ['Reported', `${usDate(opts.reported)} 14:40`],
      ['Specimen', 'Whole blood (EDTA); serum'],
      ['Status', 'Final'],
    ]);
    s.space(8);
    s.rule();
    s.space(6);
    s.text(panel, { font: s.fonts.bold, size: 12, color: LAKESIDE_BLUE, gap: 6 });
  };
  const toRows = (rows: typeof CBC) => rows.map((r) => [...r]);

  header('Complete blood count (CBC) with differential');
  s.table(columns, toRows(CBC), 2);
  s.text('All CBC values are within the reference ranges. No abnormal cells reported on the automated differential.', { size: 9.5, color: GREY });

  s.newPage();
  header('Basic metabolic panel (BMP)');
  s.table(columns, toRows(BMP), 2);
  s.text('H = above the reference range, L = below it. Fasting glucose 100 - 125 mg/dL suggests impaired fasting glucose; repeat or HbA1c advised.', { size: 9.5, color: GREY });
  s.space(14);
  s.text('Performed by Lakeside Family Medicine Laboratory (CLIA 38D0000000, demonstration). Laboratory director: Daniel Reyes, MD.', { size: 9, color: GREY });
  s.text(`Electronically verified ${usDate(opts.reported)} 14:40 by K. Morgan, MLS(ASCP).`, { size: 9, color: GREY });
  s.footers(`Laboratory report for ${fullName(p)} (DOB ${usDate(p.birthDate)})  -  Confidential patient information`);
  return s.pdf.save();
}

/** A one-page cardiology consult note from Riverview Cardiology back to Lakeside. */
export async function consultNotePdf(opts: { visitDate: string; patient?: DemoPatient }): Promise<Uint8Array> {
  const p = opts.patient ?? demoPatients.evelyn;
  const s = await newDocument({ title: `Consult note: ${fullName(p)}`, author: 'Rachel Rivers, MD', subject: 'Cardiology consultation', date: opts.visitDate });
  s.letterhead(riverviewPractice, RIVERVIEW_RED);
  s.text('CARDIOLOGY CONSULTATION NOTE', { font: s.fonts.bold, size: 14, gap: 8 });
  s.fields([
    ['Patient', `${p.lastName}, ${p.firstName}`],
    ['MRN', p.mrn],
    ['Date of birth', `${usDate(p.birthDate)} (${ageOn(p.birthDate, opts.visitDate)} y)`],
    ['Sex', sexName(p.gender)],
    ['Visit date', usDate(opts.visitDate)],
    ['Referring', 'Laura Lake, MD (Lakeside)'],
  ]);
  s.space(4);
  s.rule();
  s.heading('Reason for consultation', RIVERVIEW_RED);
  s.text('Irregular heartbeat found at a routine visit; intermittent fatigue and exertional breathlessness for two months.');
  s.heading('Findings', RIVERVIEW_RED);
  s.text(
    'BP 138/82, HR 92 irregularly irregular, SpO2 97% on room air. No murmurs; lungs clear; no edema. ECG: atrial fibrillation ' +
      'with controlled ventricular response, no ischemic changes. Echocardiogram: normal LV size and function, EF 58%, mild ' +
      'left atrial enlargement, no significant valve disease. Creatinine 0.9 mg/dL, weight 68 kg.',
  );
  s.heading('Assessment', RIVERVIEW_RED);
  s.bullets([
    'Paroxysmal atrial fibrillation, newly diagnosed. CHA2DS2-VASc score 4 (age, sex, hypertension).',
    'Hypertension, near goal.',
  ]);
  s.heading('Plan', RIVERVIEW_RED);
  s.bullets([
    'Start apixaban 5 mg twice daily (no dose-reduction criteria met); bleeding precautions reviewed.',
    'Start metoprolol succinate 25 mg once daily for rate control.',
    '14-day ambulatory ECG monitor to assess burden; thyroid function ordered.',
    'Follow-up at Riverview in 6 weeks; please continue primary care management of blood pressure.',
  ]);
  s.space(4);
  s.text(`Thank you for involving us in the care of ${p.firstName} ${p.lastName}.`);
  signature(s, 'Rachel Rivers, MD', ['Cardiology', riverviewPractice.name]);
  s.footers(`${riverviewPractice.name}  -  Consult note for ${fullName(p)} (DOB ${usDate(p.birthDate)})  -  Confidential patient information`);
  return s.pdf.save();
}

/** The consult note as a C-CDA R2.1 unstructured document (XDS-SD), made by the product's CDA generator. */
export function consultNoteCda(opts: {
  pdf: Uint8Array;
  visitDate: string;
  effectiveTime: Date;
  organizationId: string;
  author: { fullName: string; userId: string };
  loincCode: string | null;
  patient?: DemoPatient;
}): string {
  const p = opts.patient ?? demoPatients.evelyn;
  return buildXdsSdDocument({
    title: `Cardiology consultation note: ${fullName(p)}`,
    documentTypeName: 'Consultation Note',
    loincCode: opts.loincCode,
    confidentiality: 'Normal',
    effectiveTime: opts.effectiveTime,
    serviceDate: opts.visitDate,
    patient: { ...p, ids: [{ root: 'Riverview Cardiology MRN', id: p.mrn }] },
    author: opts.author,
    organization: {
      id: opts.organizationId,
      name: riverviewPractice.name,
      telephone: '5035550200',
      address: { streetAddress1: '45 River Park Way', streetAddress2: 'Suite 300', city: 'Portland', state: 'OR', postalCode: '97209', country: 'US' },
    },
    pdf: opts.pdf,
  });
}

/** YYYY-MM-DD of a date in UTC. */
export const isoDay = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
