import type { ExtractedPatient } from '../../../db/schema/intake.ts';
import {
  clinician,
  dateStyleFor,
  genderAs,
  guardian,
  nameAs,
  otherName,
  truthOf,
  usDate,
  type GenderStyle,
  type NameStyle,
  type Person,
  type Rng,
} from './people.ts';

// The corpus's document layouts, each the way a kind of clinical paper prints a patient. None is one of the
// layouts issue 15 lists as failing (RE: lines, "Name (Last, First, MI)", checkboxes, lab header rows with
// the values below, date boxes, narrative-only names, day-first dates, unlabelled headings, ONC sheets):
// those are the extractor's own tests. Positions are real: a row is drawn at its cells' x (points, Letter).

export interface Cell {
  x: number;
  text: string;
  size?: number;
  bold?: boolean;
}

export interface Row {
  cells: Cell[];
  // Space above the row in points (15 by default).
  gap?: number;
  // A horizontal rule under the row.
  rule?: boolean;
  // Cell borders: the x of each vertical edge; a box from each edge to the next around the row.
  boxes?: number[];
  // How far the boxes reach above the baseline (12 by default; more to hold a label printed above the value).
  boxReach?: number;
}

export interface Layout {
  rows: Row[];
  truth: ExtractedPatient;
}

export type LayoutName =
  | 'epic-referral'
  | 'athena-referral'
  | 'ecw-referral'
  | 'consult-note'
  | 'discharge-summary'
  | 'lab-report'
  | 'imaging-report'
  | 'fax-cover'
  | 'prior-authorization'
  | 'school-form'
  | 'camp-form'
  | 'prescription';

const row = (...cells: (Cell | [number, string])[]): Row => ({ cells: cells.map((c) => (Array.isArray(c) ? { x: c[0], text: c[1] } : c)) });
const heading = (text: string, size = 14): Row => ({ cells: [{ x: 54, text, size, bold: true }], gap: 22, rule: true });
const labelled = (x: number, label: string, value: string): [number, string] => [x, `${label} ${value}`];
const spacer: Row = { cells: [], gap: 10 };

// Greedy word wrap at a column count (the bench's fixture letters use it too).
export function wrap(text: string, columns = 95): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > columns) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}
const paragraph = (text: string, x = 54): Row[] => wrap(text).map((line) => row([x, line]));

const CLINICS = ['Riverside Family Medicine', 'Lakeview Pediatrics', 'North Hills Cardiology Associates', 'Cedar Valley Orthopedics', 'Summit Internal Medicine', 'Bayside Women’s Health'];
const REASONS = ['evaluation of chest pain on exertion', 'persistent right knee pain after a fall', 'follow-up of newly diagnosed type 2 diabetes', 'recurrent migraines unresponsive to first-line therapy', 'abnormal thyroid function tests', 'shortness of breath and lower extremity edema'];
const clinic = (rng: Rng) => rng.pick(CLINICS).replace('’', "'");
const serviceDate = (rng: Rng) => `${String(rng.int(1, 12)).padStart(2, '0')}/${String(rng.int(1, 28)).padStart(2, '0')}/2026`;
const mrn = (rng: Rng) => String(rng.int(1_000_000, 9_999_999));
const phone = (rng: Rng) => `(${rng.int(201, 989)}) ${rng.int(200, 999)}-${String(rng.int(0, 9999)).padStart(4, '0')}`;
const pickName = (rng: Rng, styles: NameStyle[]) => rng.pick(styles);
const pickGender = (rng: Rng, styles: GenderStyle[] = ['M/F', 'Male/Female', 'MALE/FEMALE']) => rng.pick(styles);

// Epic-like: the clinic, a bold patient banner "LAST, FIRST M" with DOB, legal sex and MRN stacked under it,
// then the referral with the referring and referred-to providers.
function epicReferral(p: Person, rng: Rng): Layout {
  const from = clinician(rng);
  const to = clinician(rng);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['mm/dd/yyyy', 'm/d/yyyy']));
  return {
    truth: truthOf(p),
    rows: [
      row({ x: 54, text: clinic(rng), size: 12, bold: true }, [400, `Printed ${serviceDate(rng)}`]),
      heading('Outgoing Referral'),
      row({ x: 54, text: `Patient Name: ${nameAs(p, 'LAST, FIRST M')}`, bold: true }),
      row(labelled(54, 'DOB:', dob), labelled(220, 'MRN:', mrn(rng)), labelled(380, 'Legal Sex:', genderAs(p.gender, 'Male/Female'))),
      row(labelled(54, 'Phone:', phone(rng)), labelled(220, 'PCP:', otherName(from))),
      spacer,
      row({ x: 54, text: 'Referral Information', bold: true }),
      row(labelled(54, 'Referring Provider:', otherName(from)), labelled(330, 'Referred To:', otherName(to))),
      row(labelled(54, 'Specialty:', rng.pick(['Cardiology', 'Orthopedics', 'Endocrinology', 'Neurology'])), labelled(330, 'Priority:', 'Routine')),
      row(labelled(54, 'Diagnosis:', rng.pick(['R07.9 Chest pain, unspecified', 'M25.561 Pain in right knee', 'E11.9 Type 2 diabetes mellitus']))),
      spacer,
      ...paragraph(`Reason for referral: ${rng.pick(REASONS)}. Please see the attached notes and call our office with any questions.`),
      spacer,
      row([54, `Electronically signed by ${otherName(from)}`]),
    ],
  };
}

// athenaOne-like: two columns, the patient on the left and the provider block on the right, whose own
// "Name:" line is a decoy beside the patient's.
function athenaReferral(p: Person, rng: Rng): Layout {
  const from = clinician(rng);
  const style = pickName(rng, ['First M Last', 'First M. Last']);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['mm/dd/yyyy', 'mm/dd/yy', 'mon d, yyyy']));
  return {
    truth: truthOf(p),
    rows: [
      row({ x: 54, text: clinic(rng), size: 13, bold: true }),
      row([54, `${rng.int(10, 990)} Main Street, Suite ${rng.int(100, 400)}`], [330, `Fax ${phone(rng)}`]),
      heading('Referral Letter'),
      row({ x: 54, text: 'PATIENT', bold: true }, { x: 330, text: 'REFERRING PROVIDER', bold: true }),
      row(labelled(54, 'Patient:', nameAs(p, style)), labelled(330, 'Name:', otherName(from))),
      row(labelled(54, 'DOB:', dob), labelled(330, 'NPI:', String(rng.int(1_000_000_000, 1_999_999_999)))),
      row(labelled(54, 'Sex:', genderAs(p.gender, pickGender(rng))), labelled(330, 'Phone:', phone(rng))),
      row(labelled(54, 'Patient ID:', mrn(rng)), labelled(330, 'Date:', serviceDate(rng))),
      spacer,
      row([54, `Dear Colleague,`]),
      ...paragraph(`I am referring the above patient to you for ${rng.pick(REASONS)}. Current medications and recent results are enclosed. Thank you for seeing this patient.`),
      spacer,
      row([54, 'Sincerely,']),
      row([54, otherName(from)]),
    ],
  };
}

// eClinicalWorks-like: a bordered table of label and value cells, two pairs a row.
function ecwReferral(p: Person, rng: Rng): Layout {
  const edges = [54, 150, 320, 400, 558];
  const to = clinician(rng);
  const style = pickName(rng, ['Last, First M', 'LAST, FIRST M']);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['mm/dd/yyyy', 'mm-dd-yyyy']));
  const table = (a: string, b: string, c: string, d: string): Row => ({ ...row([58, a], [154, b], [324, c], [404, d]), boxes: edges, gap: 18 });
  return {
    truth: truthOf(p),
    rows: [
      row({ x: 54, text: clinic(rng), size: 12, bold: true }),
      heading('Referral Form', 13),
      table('Patient Name', nameAs(p, style), 'Account No', mrn(rng)),
      table('DOB', dob, 'Sex', genderAs(p.gender, pickGender(rng, ['M/F', 'Male/Female']))),
      table('Phone', phone(rng), 'Insurance', rng.pick(['Aetna PPO', 'BCBS', 'Medicare', 'UnitedHealthcare'])),
      table('Referred To', otherName(to), 'Speciality', rng.pick(['Dermatology', 'Gastroenterology', 'Pulmonology'])),
      spacer,
      ...paragraph(`Reason: ${rng.pick(REASONS)}. Authorization requested for one consultation and follow-up visits as needed.`),
    ],
  };
}

// A consult note: the header lines, then the narrative (which names the consultant and mentions the patient by title).
function consultNote(p: Person, rng: Rng): Layout {
  const consultant = clinician(rng);
  const referrer = clinician(rng);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['month d, yyyy', 'mm/dd/yyyy']));
  return {
    truth: truthOf(p),
    rows: [
      row({ x: 54, text: clinic(rng), size: 12, bold: true }),
      heading('CONSULTATION NOTE'),
      row(labelled(54, 'Patient:', nameAs(p, 'First M Last'))),
      row(labelled(54, 'Date of Birth:', dob)),
      row(labelled(54, 'Gender:', genderAs(p.gender, 'Male/Female'))),
      row(labelled(54, 'Consulting Physician:', otherName(consultant)), labelled(360, 'Date:', serviceDate(rng))),
      row(labelled(54, 'Requesting Physician:', otherName(referrer))),
      spacer,
      row({ x: 54, text: 'HISTORY OF PRESENT ILLNESS', bold: true }),
      ...paragraph(
        `${p.gender === 'M' ? 'Mr.' : 'Ms.'} ${p.last} is seen at the request of Dr. ${referrer.last} for ${rng.pick(REASONS)}. Symptoms began several weeks ago and have been gradually worsening.`,
      ),
      spacer,
      row({ x: 54, text: 'ASSESSMENT AND PLAN', bold: true }),
      ...paragraph('Will obtain further testing and follow up in two weeks. Findings were discussed with the patient, who agrees with the plan.'),
    ],
  };
}

// A hospital discharge summary: "Name:" and a stack of dates (admission and discharge dates are decoys for the DOB).
function dischargeSummary(p: Person, rng: Rng): Layout {
  const attending = clinician(rng);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['mm/dd/yyyy', 'm/d/yyyy', 'mm/dd/yy']));
  return {
    truth: truthOf(p),
    rows: [
      row({ x: 54, text: `${rng.pick(['Mercy General Hospital', 'St. Luke’s Medical Center', 'University Hospital'])}`.replace('’', "'"), size: 13, bold: true }),
      heading('DISCHARGE SUMMARY'),
      row(labelled(54, 'Name:', nameAs(p, pickName(rng, ['LAST, FIRST M', 'Last, First M']))), labelled(360, 'MRN:', mrn(rng))),
      row(labelled(54, 'DOB:', dob), labelled(200, 'Sex:', genderAs(p.gender, 'M/F')), labelled(360, 'Room:', `${rng.int(2, 9)}${rng.int(10, 40)}`)),
      row(labelled(54, 'Admission Date:', serviceDate(rng)), labelled(360, 'Discharge Date:', serviceDate(rng))),
      row(labelled(54, 'Attending:', otherName(attending))),
      spacer,
      row({ x: 54, text: 'DISCHARGE DIAGNOSES', bold: true }),
      row([54, `1. ${rng.pick(['Community-acquired pneumonia', 'Acute exacerbation of COPD', 'Cellulitis of left lower leg'])}`]),
      row([54, '2. Hypertension']),
      spacer,
      row({ x: 54, text: 'HOSPITAL COURSE', bold: true }),
      ...paragraph('The patient was admitted, treated with intravenous antibiotics and improved steadily. Discharged home in stable condition with follow-up with the primary care physician in one week.'),
    ],
  };
}

// A reference-lab requisition result: a two-column block of label/value pairs on one line each, then results.
function labReport(p: Person, rng: Rng): Layout {
  const ordering = clinician(rng);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['mm/dd/yyyy', 'mm-dd-yyyy']));
  const result = (test: string, value: string, range: string, units: string): Row => row([54, test], [260, value], [340, range], [460, units]);
  return {
    truth: truthOf(p),
    rows: [
      row({ x: 54, text: rng.pick(['Quantum Diagnostics Laboratory', 'Pacific Reference Labs', 'Midwest Clinical Laboratories']), size: 13, bold: true }),
      heading('LABORATORY REPORT', 12),
      row(labelled(54, 'Patient Name:', nameAs(p, pickName(rng, ['LAST, FIRST M', 'Last, First M']))), labelled(330, 'Specimen ID:', `${rng.pick(['QD', 'PR', 'MW'])}${rng.int(100000, 999999)}`)),
      row(labelled(54, 'DOB:', dob), labelled(330, 'Collected:', `${serviceDate(rng)} 08:${rng.int(10, 59)}`)),
      row(labelled(54, 'Gender:', genderAs(p.gender, pickGender(rng, ['M/F', 'Male/Female']))), labelled(330, 'Reported:', serviceDate(rng))),
      row(labelled(54, 'Ordering Physician:', otherName(ordering)), labelled(330, 'Account:', mrn(rng))),
      { ...row({ x: 54, text: 'TEST', bold: true }, { x: 260, text: 'RESULT', bold: true }, { x: 340, text: 'REFERENCE RANGE', bold: true }, { x: 460, text: 'UNITS', bold: true }), gap: 24, rule: true },
      result('Glucose', String(rng.int(70, 180)), '65-99', 'mg/dL'),
      result('Hemoglobin A1c', `${rng.int(5, 9)}.${rng.int(0, 9)}`, '<5.7', '%'),
      result('Creatinine', `0.${rng.int(6, 9)}${rng.int(0, 9)}`, '0.60-1.35', 'mg/dL'),
      result('TSH', `${rng.int(0, 6)}.${rng.int(10, 99)}`, '0.40-4.50', 'mIU/L'),
      spacer,
      row([54, 'Results reviewed and released by the laboratory director.']),
    ],
  };
}

// A radiology report: patient and exam on one line separated by a wide gap, the radiologist a decoy.
function imagingReport(p: Person, rng: Rng): Layout {
  const radiologist = clinician(rng);
  const referrer = clinician(rng);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['mm/dd/yyyy', 'mon d, yyyy', 'm/d/yyyy']));
  return {
    truth: truthOf(p),
    rows: [
      row({ x: 54, text: rng.pick(['Valley Imaging Center', 'Advanced Radiology Partners']), size: 13, bold: true }),
      heading('RADIOLOGY REPORT'),
      row(labelled(54, 'Patient Name:', nameAs(p, pickName(rng, ['First M Last', 'LAST, FIRST M']))), labelled(340, 'Exam Date:', serviceDate(rng))),
      row(labelled(54, 'DOB:', dob), labelled(200, 'Sex:', genderAs(p.gender, pickGender(rng, ['M/F', 'MALE/FEMALE']))), labelled(340, 'Accession:', `A${rng.int(1000000, 9999999)}`)),
      row(labelled(54, 'Referring Physician:', otherName(referrer)), labelled(340, 'MRN:', mrn(rng))),
      spacer,
      row(labelled(54, 'EXAM:', rng.pick(['XR CHEST 2 VIEWS', 'MRI KNEE RIGHT WITHOUT CONTRAST', 'CT HEAD WITHOUT CONTRAST']))),
      row({ x: 54, text: 'FINDINGS:', bold: true }),
      ...paragraph('No acute abnormality. Alignment is normal. No fracture or dislocation. Soft tissues are unremarkable.'),
      row({ x: 54, text: 'IMPRESSION:', bold: true }),
      row([54, 'No acute findings.']),
      spacer,
      row([54, `Dictated by: ${otherName(radiologist)}`]),
    ],
  };
}

// A fax cover sheet: To/From people with "Name" labels, the patient under a "Patient Information" block; no sex.
function faxCover(p: Person, rng: Rng): Layout {
  const to = clinician(rng);
  const from = clinician(rng);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['mm/dd/yyyy', 'm/d/yyyy']));
  return {
    truth: truthOf(p, { gender: false }),
    rows: [
      row({ x: 54, text: 'FAX', size: 28, bold: true }, [400, clinic(rng)]),
      { ...row([54, `Date: ${serviceDate(rng)}`], [330, `Pages (including cover): ${rng.int(2, 9)}`]), gap: 30, rule: true },
      row({ x: 54, text: 'TO', bold: true }, { x: 330, text: 'FROM', bold: true }),
      row(labelled(54, 'Name:', `Dr. ${otherName(to, false)}`), labelled(330, 'Name:', otherName(from))),
      row(labelled(54, 'Fax:', phone(rng)), labelled(330, 'Fax:', phone(rng))),
      row(labelled(54, 'Phone:', phone(rng)), labelled(330, 'Phone:', phone(rng))),
      spacer,
      row({ x: 54, text: 'PATIENT INFORMATION', bold: true }),
      row(labelled(54, 'Patient Name:', nameAs(p, pickName(rng, ['First M Last', 'Last, First M'])))),
      row(labelled(54, 'Date of Birth:', dob)),
      spacer,
      ...paragraph('CONFIDENTIALITY NOTICE: This facsimile contains protected health information. If you received it in error, notify the sender and destroy all copies.'),
    ],
  };
}

// The cover sheet a fax service puts before a document: who it goes to and comes from, no patient (the
// document after it names the patient). Clinicians' names under "Name:" labels must not be read as the patient's.
export function coverSheet(rng: Rng): string[] {
  const to = clinician(rng);
  const from = clinician(rng);
  return [
    `FAX TRANSMITTAL            ${clinic(rng)}`,
    `Date: ${serviceDate(rng)}           Pages (including cover): ${rng.int(2, 6)}`,
    '',
    'TO                                          FROM',
    `Name: Dr. ${otherName(to, false)}             Name: ${otherName(from)}`,
    `Fax: ${phone(rng)}                       Phone: ${phone(rng)}`,
    '',
    'Re: Records requested for continuity of care',
    'The pages that follow contain protected health information.',
    'If you received this fax in error, call the sender and destroy it.',
  ];
}

// A prior-authorization request: labels above values in boxes, the member above the prescriber.
function priorAuthorization(p: Person, rng: Rng): Layout {
  const prescriber = clinician(rng);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['mm/dd/yyyy']));
  const labels = (...cells: [number, string][]): Row => ({ cells: cells.map(([x, text]) => ({ x, text, size: 7 })), gap: 20 });
  const values = (edges: number[], ...cells: [number, string][]): Row => ({ ...row(...cells), gap: 12, boxes: edges, boxReach: 22 });
  const style = pickName(rng, ['First M Last', 'FIRST M LAST']);
  // The member's name is in one box: the form asks for it whole.
  return {
    truth: truthOf(p),
    rows: [
      row({ x: 54, text: rng.pick(['Prescription Drug Prior Authorization Request Form', 'Medical Prior Authorization Request']), size: 12, bold: true }),
      row([54, `Plan: ${rng.pick(['Blue Horizon Health Plan', 'Keystone Medicaid', 'Evergreen Advantage'])}   Fax completed form to ${phone(rng)}`]),
      { cells: [{ x: 54, text: 'SECTION A - MEMBER INFORMATION', bold: true }], gap: 24 },
      labels([58, 'Member Name'], [330, 'Member ID']),
      values([54, 326, 558], [58, nameAs(p, style)], [334, `${rng.pick(['XJH', 'MCD', 'EVG'])}${rng.int(10000000, 99999999)}`]),
      labels([58, 'Date of Birth'], [200, 'Sex'], [330, 'Phone']),
      values([54, 196, 326, 558], [58, dob], [204, genderAs(p.gender, 'Male/Female')], [334, phone(rng)]),
      { cells: [{ x: 54, text: 'SECTION B - PRESCRIBER INFORMATION', bold: true }], gap: 24 },
      labels([58, 'Prescriber Name'], [330, 'NPI']),
      values([54, 326, 558], [58, otherName(prescriber)], [334, String(rng.int(1_000_000_000, 1_999_999_999))]),
      { cells: [{ x: 54, text: 'SECTION C - MEDICATION', bold: true }], gap: 24 },
      labels([58, 'Drug Name and Strength'], [330, 'Quantity / Days Supply']),
      values([54, 326, 558], [58, rng.pick(['Adalimumab 40 mg/0.4 mL', 'Semaglutide 1 mg/0.75 mL', 'Apixaban 5 mg'])], [334, '30 / 30']),
    ],
  };
}

// A school health form: the student above the parent (who shares the surname), labels above values.
function schoolForm(p: Person, rng: Rng): Layout {
  const parent = guardian(rng, p);
  const doctor = clinician(rng);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['mm/dd/yyyy', 'm/d/yyyy']));
  const labels = (...cells: [number, string][]): Row => ({ cells: cells.map(([x, text]) => ({ x, text, size: 8, bold: true })), gap: 20 });
  const values = (...cells: [number, string][]): Row => ({ ...row(...cells), gap: 13 });
  return {
    truth: truthOf(p),
    rows: [
      row({ x: 54, text: 'STUDENT HEALTH EXAMINATION FORM', size: 13, bold: true }),
      row([54, `${rng.pick(['Maple Grove', 'Hillcrest', 'Jefferson'])} Unified School District   School Year 2026-2027`]),
      labels([54, 'Student Name'], [330, 'Date of Birth'], [450, 'Sex']),
      values([54, nameAs(p, pickName(rng, ['First M Last', 'Last, First M']))], [330, dob], [450, genderAs(p.gender, 'M/F')]),
      labels([54, 'Parent/Guardian Name'], [330, 'Phone']),
      values([54, otherName(parent, false)], [330, phone(rng)]),
      labels([54, 'Grade'], [330, 'Teacher']),
      values([54, String(rng.int(1, 12))], [330, `${rng.pick(['Mrs.', 'Mr.', 'Ms.'])} ${clinician(rng).last}`]),
      spacer,
      row({ x: 54, text: 'HEALTH CARE PROVIDER', bold: true }),
      row(labelled(54, 'Examined by:', otherName(doctor)), labelled(330, 'Exam date:', serviceDate(rng))),
      row([54, 'Immunizations up to date: Yes']),
      ...paragraph('The student named above may participate in all school activities including physical education without restriction.'),
    ],
  };
}

// A summer camp health form: "Camper's Name:" inline, then the parent and emergency contact with "Name:" labels.
function campForm(p: Person, rng: Rng): Layout {
  const parent = guardian(rng, p);
  const contact = guardian(rng, p);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['mm/dd/yyyy', 'month d, yyyy']));
  return {
    truth: truthOf(p),
    rows: [
      row({ x: 54, text: `${rng.pick(['Camp Whispering Pines', 'Lake Tahoma Day Camp', 'Blue Ridge Adventure Camp'])} - Camper Health History`, size: 12, bold: true }),
      heading('CAMPER INFORMATION', 11),
      row(labelled(54, "Camper's Name:", nameAs(p, 'First M Last'))),
      row(labelled(54, 'Birthdate:', dob), labelled(250, 'Gender:', genderAs(p.gender, 'Male/Female')), labelled(400, 'Age:', String(2026 - Number(p.birthDate.slice(0, 4))))),
      row(labelled(54, 'Session:', rng.pick(['July 6-17', 'June 22-July 3', 'August 3-14']))),
      heading('PARENT / GUARDIAN', 11),
      row(labelled(54, 'Name:', otherName(parent, false)), labelled(330, 'Relationship:', rng.pick(['Mother', 'Father', 'Guardian']))),
      row(labelled(54, 'Cell Phone:', phone(rng))),
      heading('EMERGENCY CONTACT (other than parent)', 11),
      row(labelled(54, 'Name:', otherName(contact, false)), labelled(330, 'Phone:', phone(rng))),
      spacer,
      row([54, `Allergies: ${rng.pick(['None known', 'Peanuts', 'Penicillin', 'Bee stings'])}`]),
      row([54, `Medications: ${rng.pick(['None', 'Albuterol inhaler as needed', 'Cetirizine 10 mg daily'])}`]),
    ],
  };
}

// A printed prescription: prescriber block first (the decoy), then the patient, DOB on the same line.
function prescription(p: Person, rng: Rng): Layout {
  const prescriber = clinician(rng);
  const dob = usDate(p.birthDate, dateStyleFor(rng, p, ['mm/dd/yyyy', 'mm/dd/yy']));
  return {
    truth: truthOf(p),
    rows: [
      row({ x: 54, text: otherName(prescriber), size: 13, bold: true }),
      row([54, clinic(rng)]),
      row([54, `DEA: ${rng.pick(['AB', 'BK', 'FM'])}${rng.int(1000000, 9999999)}   NPI: ${rng.int(1_000_000_000, 1_999_999_999)}`]),
      { ...row([54, `Date: ${serviceDate(rng)}`]), gap: 24, rule: true },
      row(labelled(54, 'Patient:', nameAs(p, pickName(rng, ['First M Last', 'First M. Last']))), labelled(360, 'DOB:', dob)),
      row(labelled(54, 'Sex:', genderAs(p.gender, pickGender(rng))), labelled(360, 'Phone:', phone(rng))),
      row([54, `Address: ${rng.int(10, 9999)} ${rng.pick(['Oak', 'Elm', 'Pine', 'Cedar'])} St, ${rng.pick(['Springfield', 'Fairview', 'Madison'])}`]),
      { cells: [{ x: 54, text: 'Rx', size: 22, bold: true }], gap: 34 },
      row([80, rng.pick(['Amoxicillin 500 mg capsule', 'Lisinopril 10 mg tablet', 'Metformin 500 mg tablet'])]),
      row([80, 'Sig: Take 1 by mouth twice daily']),
      row([80, `Disp: #${rng.int(20, 90)}   Refills: ${rng.int(0, 5)}`]),
      spacer,
      row([54, 'Substitution permitted']),
      row([54, `Signature: ${otherName(prescriber)}`]),
    ],
  };
}

export const LAYOUTS: Record<LayoutName, (p: Person, rng: Rng) => Layout> = {
  'epic-referral': epicReferral,
  'athena-referral': athenaReferral,
  'ecw-referral': ecwReferral,
  'consult-note': consultNote,
  'discharge-summary': dischargeSummary,
  'lab-report': labReport,
  'imaging-report': imagingReport,
  'fax-cover': faxCover,
  'prior-authorization': priorAuthorization,
  'school-form': schoolForm,
  'camp-form': campForm,
  prescription,
};

export const CHILD_LAYOUTS: readonly LayoutName[] = ['school-form', 'camp-form'];
