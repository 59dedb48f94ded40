import type { ExtractedPatient } from '../../../db/schema/intake.ts';
import type { Row } from './layouts.ts';
import { wrap } from './layouts.ts';
import { clinician, guardian, person, seededRng, truthOf, unaccent, type Other, type Person, type Rng } from './people.ts';
import { rowsAsLines, scannedPdf, textPdfPages } from './render.ts';

// Layout families drawn at random (issue 28 §4): each family is one way an outside writer might print a
// patient — its label words, where values sit (beside, below, in a table, in prose), how names and dates are
// written, which other people and dates share the page, what header and footer every page repeats. The
// extractor's rules were not written from these families: the bench scores each one held out (its
// confidence threshold chosen on the others), so the figure measures letters, not layouts.

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export type Structure = 'inline' | 'two-column' | 'table' | 'above' | 'stacked' | 'banner' | 'prose';
const STRUCTURES: Structure[] = ['inline', 'two-column', 'table', 'above', 'stacked', 'banner', 'prose'];

const PATIENT_LABELS = ['Patient', 'Pt', 'Name', 'Patient Name', 'Re', 'Regarding', 'Client', 'Member', 'Resident', 'Student', 'Child', 'Client Name', 'Pt Name', 'Patient Full Name', 'Member Name', 'Name of Patient', 'Individual', 'Participant'];
const CHILD_LABELS = new Set(['Student', 'Child']);
const DOB_LABELS = ['DOB', 'D.O.B.', 'Date of Birth', 'Birthdate', 'Born', 'Birth Date', 'DoB', 'Date of birth'];
const SEX_LABELS = ['Sex', 'Gender', 'M/F', 'Sex (M/F)', 'Legal Sex', 'Gender Identity'];
type GenderMode = 'label' | 'title' | 'pronoun' | 'none';
type NameStyle = 'First Last' | 'First M. Last' | 'Last, First M' | 'LAST, FIRST M' | 'FIRST LAST' | 'Last, First M.';
const NAME_STYLES: NameStyle[] = ['First Last', 'First M. Last', 'Last, First M', 'LAST, FIRST M', 'FIRST LAST', 'Last, First M.'];
type DateStyle = 'mm/dd/yyyy' | 'm/d/yyyy' | 'mm-dd-yyyy' | 'yyyy-mm-dd' | 'd Month yyyy' | 'Month d, yyyy' | 'Mon d, yyyy' | 'mm.dd.yyyy';
const DATE_STYLES: DateStyle[] = ['mm/dd/yyyy', 'm/d/yyyy', 'mm-dd-yyyy', 'yyyy-mm-dd', 'd Month yyyy', 'Month d, yyyy', 'Mon d, yyyy', 'mm.dd.yyyy'];
type GenderValues = 'M/F' | 'Male/Female' | 'MALE/FEMALE' | 'm/f' | 'Man/Woman';
const GENDER_VALUES: GenderValues[] = ['M/F', 'Male/Female', 'MALE/FEMALE', 'm/f', 'Man/Woman'];
type Distractor = 'referring' | 'clinician' | 'guardian' | 'emergency' | 'interpreter' | 'pcp' | 'cc';
const DISTRACTORS: Distractor[] = ['referring', 'clinician', 'guardian', 'emergency', 'interpreter', 'pcp', 'cc'];

export interface Family {
  id: string;
  structure: Structure;
  patientLabel: string;
  upperLabels: boolean;
  // What follows a label: ':' or ' -', or nothing and a column gap.
  separator: ':' | ' -' | '';
  nameStyle: NameStyle;
  showMiddle: boolean;
  showSuffix: boolean;
  dobLabel: string;
  dateStyle: DateStyle;
  genderMode: GenderMode;
  sexLabel: string;
  genderValues: GenderValues;
  // The patient's name and birth date repeated in a header on every page, and a footer.
  header: boolean;
  footer: boolean;
  pages: 1 | 2;
  distractors: Distractor[];
  // Distractor names printed in the patient's name style (so shape alone cannot tell them apart).
  distractorsInPatientStyle: boolean;
  // Age in the prose ("a 47-year-old woman").
  age: boolean;
  child: boolean;
}

export function drawFamily(rng: Rng, index: number): Family {
  const structure = STRUCTURES[index % STRUCTURES.length]!;
  const patientLabel = rng.pick(PATIENT_LABELS);
  const distractors = DISTRACTORS.filter(() => rng.chance(0.45));
  return {
    id: `family-${String(index + 1).padStart(2, '0')}-${structure}`,
    structure,
    patientLabel,
    upperLabels: rng.chance(0.3),
    separator: structure === 'above' || structure === 'stacked' ? '' : rng.pick([':', ':', ':', ' -', '']),
    nameStyle: rng.pick(NAME_STYLES),
    showMiddle: rng.chance(0.6),
    showSuffix: rng.chance(0.5),
    dobLabel: rng.pick(DOB_LABELS),
    dateStyle: rng.pick(DATE_STYLES),
    genderMode: structure === 'prose' ? rng.pick<GenderMode>(['title', 'pronoun', 'none']) : rng.pick<GenderMode>(['label', 'label', 'label', 'title', 'pronoun', 'none']),
    sexLabel: rng.pick(SEX_LABELS),
    genderValues: rng.pick(GENDER_VALUES),
    header: rng.chance(0.4),
    footer: rng.chance(0.5),
    pages: rng.chance(0.35) ? 2 : 1,
    distractors: distractors.length ? distractors : [rng.pick(DISTRACTORS)],
    distractorsInPatientStyle: rng.chance(0.5),
    age: rng.chance(0.5),
    child: CHILD_LABELS.has(patientLabel) || rng.chance(0.1),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
export function dateAs(isoDate: string, style: DateStyle): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  switch (style) {
    case 'mm/dd/yyyy':
      return `${pad(m)}/${pad(d)}/${y}`;
    case 'm/d/yyyy':
      return `${m}/${d}/${y}`;
    case 'mm-dd-yyyy':
      return `${pad(m)}-${pad(d)}-${y}`;
    case 'mm.dd.yyyy':
      return `${pad(m)}.${pad(d)}.${y}`;
    case 'yyyy-mm-dd':
      return isoDate;
    case 'd Month yyyy':
      return `${d} ${MONTHS[m - 1]} ${y}`;
    case 'Month d, yyyy':
      return `${MONTHS[m - 1]} ${d}, ${y}`;
    case 'Mon d, yyyy':
      return `${MONTHS[m - 1]!.slice(0, 3)} ${d}, ${y}`;
  }
}

const middleOf = (p: Person, f: Family, dotted: boolean) => (f.showMiddle && p.middle ? (p.middle.length === 1 && dotted ? `${p.middle}.` : p.middle) : '');
const joined = (...parts: string[]) => parts.filter(Boolean).join(' ');
export function nameIn(p: Person, f: Family): string {
  const suffix = f.showSuffix && p.suffix ? p.suffix : '';
  switch (f.nameStyle) {
    case 'First Last':
      return joined(p.first, middleOf(p, f, false), p.last, suffix);
    case 'First M. Last':
      return joined(p.first, middleOf(p, f, true), p.last, suffix ? `${suffix}` : '');
    case 'FIRST LAST':
      return joined(p.first, middleOf(p, f, false), p.last, suffix).toUpperCase();
    case 'Last, First M':
      return `${joined(p.last, suffix)}, ${joined(p.first, middleOf(p, f, false))}`;
    case 'Last, First M.':
      return `${joined(p.last, suffix)}, ${joined(p.first, middleOf(p, f, true))}`;
    case 'LAST, FIRST M':
      return `${joined(p.last, suffix)}, ${joined(p.first, middleOf(p, f, false))}`.toUpperCase();
  }
}

const otherIn = (o: Other, f: Family, credential: boolean) => {
  const plain = `${o.first} ${o.last}`;
  const shaped = !f.distractorsInPatientStyle
    ? plain
    : f.nameStyle.startsWith('Last') || f.nameStyle.startsWith('LAST')
      ? `${o.last}, ${o.first}`
      : plain;
  const cased = f.distractorsInPatientStyle && f.nameStyle === f.nameStyle.toUpperCase() ? shaped.toUpperCase() : shaped;
  return credential && o.credential ? `${cased}, ${o.credential}` : cased;
};

const genderWord = (g: 'M' | 'F', v: GenderValues) => {
  const [m, w] = v.split('/') as [string, string];
  return g === 'M' ? m : w;
};

const CLINICS = ['Harbor View Pediatrics', 'Oakridge Behavioral Health', 'Pine Street Physical Therapy', 'Sunrise Senior Living', 'Tri-County Dermatology', 'Westgate Allergy & Asthma', 'Northside Community Clinic', 'Elm Grove Speech Therapy', 'Riverbend Rheumatology'];
const REASONS = ['ongoing low back pain', 'a new heart murmur', 'poorly controlled asthma', 'memory concerns reported by family', 'a persistent rash on both forearms', 'delayed speech for age', 'elevated liver enzymes', 'recurrent ear infections'];
const RELATIONS = ['Mother', 'Father', 'Spouse', 'Daughter', 'Son', 'Sister', 'Friend'];
const phone = (rng: Rng) => `(${rng.int(201, 989)}) ${rng.int(200, 999)}-${String(rng.int(0, 9999)).padStart(4, '0')}`;

// The letter's date: every age in it is counted to this day.
const LETTER_YEAR = 2025;

interface Drawn {
  pages: Row[][];
  truth: ExtractedPatient;
}

const at = (x: number, text: string, bold = false) => ({ x, text, bold });
const line = (...cells: { x: number; text: string; bold?: boolean }[]): Row => ({ cells });

export function familyDocument(f: Family, p: Person, rng: Rng): Drawn {
  const label = (word: string) => {
    const shown = f.upperLabels ? word.toUpperCase() : word;
    return f.separator === '' ? shown : `${shown}${f.separator}`;
  };
  // A label and its value in one cell, or (no separator) two cells a column gap apart.
  const pair = (x: number, word: string, value: string, width = 110) => (f.separator === '' ? [at(x, label(word)), at(x + width, value)] : [at(x, `${label(word)} ${value}`)]);
  const name = nameIn(p, f);
  const dobIso = p.birthDate;
  const dob = dateAs(dobIso, f.dateStyle);
  const letterDate = `${LETTER_YEAR}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
  const age = LETTER_YEAR - Number(dobIso.slice(0, 4)) - (letterDate.slice(5) < dobIso.slice(5) ? 1 : 0);
  const noun = p.gender === 'F' ? (age < 18 ? 'girl' : 'woman') : age < 18 ? 'boy' : 'man';
  const title = p.gender === 'F' ? rng.pick(['Ms.', 'Mrs.', 'Miss']) : 'Mr.';
  const they = p.gender === 'F' ? 'She' : 'He';
  const their = p.gender === 'F' ? 'her' : 'his';
  const genderShown = f.genderMode === 'label' || f.genderMode === 'title' || f.genderMode === 'pronoun';
  const genderValue = genderWord(p.gender, f.genderValues);
  const visit = dateAs(letterDate, rng.pick(DATE_STYLES));
  const signed = dateAs(`${LETTER_YEAR}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`, f.dateStyle);
  const writer = clinician(rng);
  const body: Row[] = [];
  const clinic = rng.pick(CLINICS);
  body.push(line(at(54, clinic, true)), line(at(54, `${rng.int(10, 990)} ${rng.pick(['Harbor', 'Market', 'Lincoln', 'Maple'])} Ave, Suite ${rng.int(1, 30)}   Tel ${phone(rng)}`)));
  body.push({ ...line(at(54, rng.pick(['Referral', 'Letter of Referral', 'Request for Consultation', 'Progress Note', 'Evaluation Summary', 'Transfer of Care']), true)), gap: 24 });
  body.push(line(...pair(54, rng.pick(['Date', 'Visit Date', 'Date of Service', 'Letter Date']), visit)));

  // The patient block, in the family's structure.
  const sexCells = (x: number) => (f.genderMode === 'label' ? pair(x, f.sexLabel, genderValue, 80) : []);
  switch (f.structure) {
    case 'inline':
      body.push(line(...pair(54, f.patientLabel, name)));
      body.push(line(...pair(54, f.dobLabel, dob)));
      if (f.genderMode === 'label') body.push(line(...pair(54, f.sexLabel, genderValue)));
      break;
    case 'two-column':
      body.push(line(...pair(54, f.patientLabel, name), ...pair(340, 'MRN', String(rng.int(100000, 999999)), 60)));
      body.push(line(...pair(54, f.dobLabel, dob), ...sexCells(340)));
      break;
    case 'table': {
      const edges = [54, 170, 330, 420, 558];
      const cells = (a: string, b: string, c: string, d: string): Row => ({ cells: [at(58, a), at(174, b), at(334, c), at(424, d)].filter((c) => c.text), boxes: edges, gap: 18 });
      const labelOf = (word: string) => (f.upperLabels ? word.toUpperCase() : word);
      body.push(cells(labelOf(f.patientLabel), name, labelOf('Chart #'), String(rng.int(10000, 99999))));
      body.push(cells(labelOf(f.dobLabel), dob, f.genderMode === 'label' ? labelOf(f.sexLabel) : labelOf('Phone'), f.genderMode === 'label' ? genderValue : phone(rng)));
      break;
    }
    case 'above': {
      const labelOf = (word: string) => (f.upperLabels ? word.toUpperCase() : word);
      body.push({ cells: [{ x: 54, text: labelOf(f.patientLabel), size: 8 }, { x: 330, text: labelOf(f.dobLabel), size: 8 }, ...(f.genderMode === 'label' ? [{ x: 470, text: labelOf(f.sexLabel), size: 8 }] : [])], gap: 20 });
      body.push({ cells: [at(54, name), at(330, dob), ...(f.genderMode === 'label' ? [at(470, genderValue)] : [])], gap: 13 });
      break;
    }
    case 'stacked': {
      const labelOf = (word: string) => (f.upperLabels ? word.toUpperCase() : word);
      body.push({ cells: [{ x: 54, text: labelOf(f.patientLabel), bold: true }], gap: 20 }, line(at(54, name)));
      body.push({ cells: [{ x: 54, text: labelOf(f.dobLabel), bold: true }], gap: 20 }, line(at(54, dob)));
      if (f.genderMode === 'label') body.push({ cells: [{ x: 54, text: labelOf(f.sexLabel), bold: true }], gap: 20 }, line(at(54, genderValue)));
      break;
    }
    case 'banner':
      body.push({ cells: [{ x: 54, text: name, bold: true }], gap: 22 });
      body.push(line(...pair(54, f.dobLabel, dob), ...sexCells(260)));
      break;
    case 'prose':
      break;
  }

  // Other people on the page.
  const others: Row[] = [];
  const referrer = clinician(rng);
  for (const d of f.distractors) {
    switch (d) {
      case 'referring':
        others.push(line(...pair(54, rng.pick(['Referring Provider', 'Referred by', 'Referring Physician', 'Ordering Clinician']), otherIn(referrer, f, true))));
        break;
      case 'clinician':
        others.push(line(...pair(54, rng.pick(['Treating Clinician', 'Provider', 'Therapist', 'Attending']), otherIn(clinician(rng), f, rng.chance(0.5)))));
        break;
      case 'pcp':
        others.push(line(...pair(54, rng.pick(['PCP', 'Primary Care', 'Primary Physician']), otherIn(clinician(rng), f, true))));
        break;
      case 'guardian': {
        const g = guardian(rng, p);
        others.push(line(...pair(54, rng.pick(['Parent/Guardian', 'Guardian', 'Mother', 'Father', 'Responsible Party', 'Parent']), otherIn(g, f, false))));
        break;
      }
      case 'emergency': {
        const e = rng.chance(0.5) ? guardian(rng, p) : clinician(rng);
        others.push(line(...pair(54, rng.pick(['Emergency Contact', 'In case of emergency', 'Next of Kin']), `${otherIn({ ...e, credential: '' }, f, false)} (${rng.pick(RELATIONS)}) ${phone(rng)}`)));
        break;
      }
      case 'interpreter':
        others.push(line(...pair(54, rng.pick(['Interpreter', 'Interpreter Used', 'Translator']), `${otherIn({ ...clinician(rng), credential: '' }, f, false)}, ${rng.pick(['Spanish', 'Vietnamese', 'Somali', 'Russian'])}`)));
        break;
      case 'cc':
        others.push(line(at(54, `cc: ${otherIn(clinician(rng), f, true)}`)));
        break;
    }
  }
  body.push({ cells: [], gap: 8 }, ...others, { cells: [], gap: 8 });

  // The narrative: a prose family names the patient only here.
  const sentences: string[] = [];
  const ageWords = f.age ? `a ${age}-year-old ${f.genderMode === 'none' ? rng.pick(['patient', 'individual']) : noun}` : '';
  const spokenName = `${p.first} ${f.showMiddle && p.middle ? `${p.middle.length === 1 ? `${p.middle}.` : p.middle} ` : ''}${p.last}`;
  if (f.structure === 'prose') {
    const called = f.genderMode === 'title' ? `${title} ${spokenName}` : spokenName;
    const born = rng.pick([`born ${dob}`, `date of birth ${dob}`, `(DOB ${dob})`, `born on ${dob}`]);
    sentences.push(
      rng.pick([
        `Thank you for seeing ${called}, ${[ageWords, born].filter(Boolean).join(' ')}, who is referred for ${rng.pick(REASONS)}.`,
        `I am writing to refer ${called}, ${[ageWords, born].filter(Boolean).join(' ')}, for ${rng.pick(REASONS)}.`,
        `${called}, ${[ageWords, born].filter(Boolean).join(' ')}, was seen in our office on ${visit} for ${rng.pick(REASONS)}.`,
      ]),
    );
  } else {
    sentences.push(`Thank you for seeing ${f.genderMode === 'title' ? `${title} ${p.last}` : 'this patient'}${ageWords ? `, ${ageWords},` : ''} for ${rng.pick(REASONS)}.`);
  }
  if (f.genderMode === 'pronoun') sentences.push(`${they} reports symptoms for several months and ${their} sleep has been affected. ${they} was last seen here on ${visit}.`);
  else if (f.genderMode === 'title' && f.structure === 'prose') sentences.push(`${title} ${p.last} was last seen here on ${visit}.`);
  else sentences.push(`The patient was last seen here on ${visit}.`);
  if (f.distractors.includes('guardian')) sentences.push(`History was obtained from the ${rng.pick(['parent', 'family', 'caregiver'])}, who accompanied the patient.`);
  sentences.push(`Please contact Dr. ${referrer.last} at ${phone(rng)} with any questions.`);
  for (const text of wrap(sentences.join(' '))) body.push(line(at(54, text)));
  body.push({ cells: [], gap: 10 }, line(at(54, 'Sincerely,')), line(at(54, `${writer.first} ${writer.last}, ${writer.credential}`)), line(at(54, `Signed ${signed}`)));

  // Headers and footers on every page; a second page continues the letter.
  const headerRow = (n: number): Row[] =>
    f.header ? [{ cells: [{ x: 54, text: name, size: 8 }, { x: 260, text: `${f.dobLabel}: ${dob}`, size: 8 }, { x: 470, text: `Page ${n} of ${f.pages}`, size: 8 }], gap: 0 }] : [];
  const footerRow = (n: number): Row[] =>
    f.footer ? [{ cells: [{ x: 54, text: rng.pick([`Confidential: ${clinic}`, `Printed ${visit}`, `Fax ${phone(rng)}`]), size: 8 }, { x: 470, text: `${n}/${f.pages}`, size: 8 }], gap: 30 }] : [];
  const pages: Row[][] = [];
  if (f.pages === 1) pages.push([...headerRow(1), ...body, ...footerRow(1)]);
  else {
    const cut = Math.max(6, body.length - 6);
    pages.push([...headerRow(1), ...body.slice(0, cut), ...footerRow(1)]);
    pages.push([...headerRow(2), ...body.slice(cut), ...wrap(`${they} will follow up in ${rng.int(2, 8)} weeks.`).map((t) => line(at(54, f.genderMode === 'pronoun' ? t : 'Follow-up as needed.'))), ...footerRow(2)]);
  }
  const truth = truthOf({ ...p, middle: f.showMiddle ? p.middle : null }, { gender: genderShown });
  return { pages, truth };
}

export interface FamilyDocument {
  id: string;
  family: string;
  kind: 'text' | 'scanned';
  truth: ExtractedPatient;
  lines: string[];
  pdf: Uint8Array;
}

export interface FamilyCorpusOptions {
  seed?: number;
  families?: number;
  perFamily?: number;
  // Scanned (OCR) documents, one per family in turn: the slow part, kept small.
  scanned?: number;
}

export const FAMILY_SEED = 28_04;

export async function generateFamilyCorpus(options: FamilyCorpusOptions = {}): Promise<{ families: Family[]; docs: FamilyDocument[] }> {
  const { seed = FAMILY_SEED, families: count = 42, perFamily = 6, scanned = 0 } = options;
  const rng = seededRng(seed);
  const families = Array.from({ length: count }, (_, i) => drawFamily(rng, i));
  const docs: FamilyDocument[] = [];
  for (const f of families) {
    for (let n = 1; n <= perFamily; n++) {
      const p = person(rng, { child: f.child });
      const drawn = familyDocument(f, p, rng);
      docs.push({ id: `${f.id}-${n}`, family: f.id, kind: 'text', truth: drawn.truth, lines: drawn.pages.flatMap(rowsAsLines), pdf: await textPdfPages(drawn.pages) });
    }
  }
  for (let n = 0; n < scanned; n++) {
    const f = families[n % families.length]!;
    const p = person(rng, { child: f.child, ascii: true });
    const drawn = familyDocument(f, p, rng);
    const lines = rowsAsLines(drawn.pages[0]!).map(unaccent);
    docs.push({ id: `scan-${f.id}-${n + 1}`, family: f.id, kind: 'scanned', truth: drawn.truth, lines, pdf: await scannedPdf(lines, { skewDegrees: Math.round((rng.next() * 4 - 2) * 10) / 10, rng }) });
  }
  return { families, docs };
}
