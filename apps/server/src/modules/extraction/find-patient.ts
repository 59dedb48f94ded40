import type { ExtractedPatient, ExtractionHits } from '../../db/schema/intake.ts';

// Reads a patient's first, middle and last name, birth date and gender from the text of a clinical
// document by its labels ("Patient Name:", "DOB", "Sex", …). Every candidate carries a confidence from
// how specific its label is; two different values for one field with real labels are a conflict.

export type PatientField = keyof ExtractionHits;
export const PATIENT_FIELDS: readonly PatientField[] = ['first', 'middle', 'last', 'dob', 'gender'];

export interface PatientFinding {
  patient: ExtractedPatient;
  confidence: Record<PatientField, number>;
  conflicts: boolean;
  // The fields that had more than one distinct value with a real label.
  conflicting: PatientField[];
}

interface Candidate {
  field: PatientField;
  value: string;
  confidence: number;
}

// A candidate this sure or surer that disagrees with the chosen value makes a conflict.
const CONFLICT_CONFIDENCE = 0.6;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`;
const DATE_FORMS: { re: RegExp; parts: (m: RegExpExecArray) => [string, string, string] }[] = [
  // YYYY-MM-DD (and YYYY/MM/DD)
  { re: /\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b/y, parts: (m) => [m[1]!, m[2]!, m[3]!] },
  // MM/DD/YYYY, M/D/YY, MM-DD-YYYY, MM.DD.YYYY
  { re: /\b(\d{1,2})\s?[/.-]\s?(\d{1,2})\s?[/.-]\s?(\d{4}|\d{2})\b/y, parts: (m) => [m[3]!, m[1]!, m[2]!] },
  // April 12, 1958 / Apr. 12 1958
  { re: new RegExp(String.raw`\b${MONTH}\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`, 'iy'), parts: (m) => [m[3]!, m[1]!, m[2]!] },
  // 12 April 1958
  { re: new RegExp(String.raw`\b(\d{1,2})\s+${MONTH}\.?,?\s+(\d{4})\b`, 'iy'), parts: (m) => [m[3]!, m[2]!, m[1]!] },
  // 19580412 (HL7 and C-CDA style)
  { re: /\b((?:19|20)\d{2})(\d{2})(\d{2})\b/y, parts: (m) => [m[1]!, m[2]!, m[3]!] },
];

const monthNumber = (month: string) => (/^\d+$/.test(month) ? Number(month) : MONTHS.indexOf(month.slice(0, 3).toLowerCase()) + 1);

// A birth date as YYYY-MM-DD, or null when it is no real date or not in the past. Two-digit years are the
// latest year not after today (a birth date is never in the future).
export function parseBirthDate(y: string, m: string, d: string, today: Date): string | null {
  let year = Number(y);
  if (y.length === 2) {
    const thisYear = today.getUTCFullYear();
    year = 2000 + year > thisYear ? 1900 + year : 2000 + year;
  }
  const month = monthNumber(m);
  const day = Number(d);
  if (year < 1880 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getTime() > today.getTime()) return null;
  return date.toISOString().slice(0, 10);
}

// The first date starting within a few characters of `from` (labels are often followed by junk like "(mm/dd/yyyy)").
function dateAt(text: string, from: number, today: Date, reach = 16): string | null {
  for (let at = from; at <= Math.min(from + reach, text.length - 1); at++) {
    if (text[at] === '\n') return null;
    for (const form of DATE_FORMS) {
      form.re.lastIndex = at;
      const m = form.re.exec(text);
      if (!m) continue;
      const date = parseBirthDate(...form.parts(m), today);
      if (date) return date;
    }
  }
  return null;
}

// Words that are labels or document furniture, never part of a patient's name.
const NOT_A_NAME = new Set(
  'patient name first last middle given family surname date birth dob sex gender male female age id mrn number no address phone account report physician provider doctor unknown the of and for to see attached'.split(' '),
);
const HONORIFIC = /^(?:mr|mrs|ms|miss|mx|dr)\.?$/i;
const SUFFIX = /^(?:jr|sr|ii|iii|iv|md|do|rn|np|pa|phd)\.?,?$/i;
const NAME_TOKEN = /^\p{L}[\p{L}'’-]*\.?$/u;

// Where a name value ends: a wide gap (a column), a line end, or the next label.
const NEXT_LABEL =
  /\s{2,}|\t|\n|\s(?=(?:DOB|D\.O\.B|Sex|Gender|Age|MRN|SSN)\b)|\s(?=(?:Date of Birth|Birth ?Date|Birthdate|Medical Record|MR|Patient ID|Pt ID|ID|Acct|Account|Phone|Tel|Address|DOS|Date of Service|Admit|Visit|Encounter|Room|Provider|Physician|Attending|Referring|Insurance|Race)\s*(?:[:#]|No\b))/i;

function titleCase(token: string): string {
  if (token.length < 2 || token !== token.toUpperCase()) return token;
  return token.toLowerCase().replace(/(^|['’-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

const cleanToken = (token: string) => titleCase(token.replace(/[.,]+$/, ''));

// "LAST, FIRST M", "First M. Last", "First Last": null unless it reads as a person's name.
export function parseName(raw: string): { first: string; middle: string | null; last: string } | null {
  const value = raw.split(NEXT_LABEL)[0]!.trim().replace(/[;:]+$/, '');
  if (!value) return null;
  const tokensOf = (s: string) => s.split(/\s+/).filter((t) => t && !HONORIFIC.test(t) && !SUFFIX.test(t));
  let first: string[];
  let last: string[];
  let middle: string[];
  const comma = value.indexOf(',');
  if (comma > 0) {
    last = tokensOf(value.slice(0, comma));
    const rest = tokensOf(value.slice(comma + 1).replace(/,/g, ' '));
    first = rest.slice(0, 1);
    middle = rest.slice(1);
  } else {
    const tokens = tokensOf(value);
    if (tokens.length < 2) return null;
    first = tokens.slice(0, 1);
    last = tokens.slice(-1);
    middle = tokens.slice(1, -1);
  }
  const all = [...first, ...middle, ...last];
  if (first.length === 0 || last.length === 0 || all.length > 5) return null;
  if (!all.every((t) => NAME_TOKEN.test(t) && !NOT_A_NAME.has(t.replace(/\.$/, '').toLowerCase()))) return null;
  // A first or last name is more than an initial.
  if (first[0]!.replace(/\.$/, '').length < 2 || last.join('').replace(/\./g, '').length < 2) return null;
  return { first: cleanToken(first[0]!), middle: middle.length ? middle.map(cleanToken).join(' ') : null, last: last.map(cleanToken).join(' ') };
}

const GENDERS: Record<string, 'M' | 'F' | 'UN'> = {
  m: 'M', male: 'M', man: 'M', boy: 'M', gentleman: 'M',
  f: 'F', female: 'F', woman: 'F', girl: 'F', lady: 'F',
  u: 'UN', un: 'UN', unk: 'UN', unknown: 'UN', undifferentiated: 'UN', other: 'UN',
};

interface LabelRule {
  re: RegExp;
  read: (text: string, end: number, today: Date) => Candidate[];
}

const nameCandidates = (confidence: number) => (text: string, end: number) => {
  const name = parseName(text.slice(end, end + 120));
  if (!name) return [];
  const out: Candidate[] = [
    { field: 'first', value: name.first, confidence },
    { field: 'last', value: name.last, confidence },
  ];
  if (name.middle) out.push({ field: 'middle', value: name.middle, confidence });
  return out;
};

const singleName = (field: PatientField, confidence: number) => (text: string, end: number) => {
  const value = text.slice(end, end + 60).split(NEXT_LABEL)[0]!.trim();
  const tokens = value.split(/\s+/).filter(Boolean);
  const shaped = field === 'middle' ? tokens.length === 1 : tokens.length >= 1 && tokens.length <= 2;
  if (!shaped || !tokens.every((t) => NAME_TOKEN.test(t) && !NOT_A_NAME.has(t.replace(/\.$/, '').toLowerCase()))) return [];
  return [{ field, value: tokens.map(cleanToken).join(' '), confidence }];
};

const birthDate = (sameLine: number, nextLine: number) => (text: string, end: number, today: Date) => {
  const date = dateAt(text, end, today);
  if (date) return [{ field: 'dob' as const, value: date, confidence: sameLine }];
  // Column layouts put the value under its label: look at the start of the next line.
  const newline = text.indexOf('\n', end);
  if (nextLine === 0 || newline < 0 || newline - end > 60) return [];
  const below = dateAt(text, newline + 1, today, 40);
  return below ? [{ field: 'dob' as const, value: below, confidence: nextLine }] : [];
};

const gender = (confidence: number) => (text: string, end: number) => {
  const m = /^\s*(male|female|man|woman|unknown|undifferentiated|other|unk|un|m|f|u)\b/i.exec(text.slice(end, end + 24));
  return m ? [{ field: 'gender' as const, value: GENDERS[m[1]!.toLowerCase()]!, confidence }] : [];
};

const RULES: LabelRule[] = [
  { re: /\b(?:Patient(?:'s)?|Pt\.?)\s+(?:Full\s+|Legal\s+)?Name\s*[:-]?\s*/gi, read: nameCandidates(0.95) },
  { re: /\b(?:Patient|Pt\.?)\s*:\s*/gi, read: nameCandidates(0.9) },
  // A bare "Name:" only at the start of a line or a column, so "Physician Name:" is not read as the patient.
  { re: /(?:^|\n|\s{2,})Name\s*:\s*/gi, read: nameCandidates(0.75) },
  { re: /(?:^|\n|\s{2,})RE\s*:\s*/gi, read: nameCandidates(0.55) },
  { re: /\b(?:Patient\s+)?(?:First|Given)\s+Name\s*:\s*/gi, read: singleName('first', 0.9) },
  { re: /\b(?:Patient\s+)?(?:Middle\s+(?:Name|Initial)|M\.?I\.?)\s*:\s*/gi, read: singleName('middle', 0.9) },
  { re: /\b(?:Patient\s+)?(?:(?:Last|Family)\s+Name|Surname)\s*:\s*/gi, read: singleName('last', 0.9) },
  {
    re: /\b(?:DOB|D\.O\.B\.?|Date\s+of\s+Birth|Birth\s*Date|Birthdate)(?:\s*\/\s*(?:Age|Sex|Gender))?\s*[:-]?\s*/gi,
    read: birthDate(0.95, 0.5),
  },
  { re: /\bBorn(?:\s+on)?\s*:?\s*/gi, read: birthDate(0.8, 0) },
  { re: /\b(?:Administrative\s+)?(?:Sex|Gender)(?:\s*\/\s*(?:Sex|Gender))?\s*:\s*/gi, read: gender(0.95) },
  { re: /\b(?:Sex|Gender)[ \t]+(?=\S)/gi, read: gender(0.75) },
  // Narrative: "a 56-year-old white male".
  {
    re: /\b\d{1,3}[- ](?:years?|yrs?)[- ]old\s+(?:[a-z]+\s+){0,2}?(?=(?:male|female|man|woman|gentleman|lady|boy|girl)\b)/gi,
    read: gender(0.6),
  },
];

// Two values of a field are the same person's when equal, or when one is the initial of the other.
function compatible(a: string, b: string): boolean {
  const x = a.toLowerCase().replace(/\./g, '');
  const y = b.toLowerCase().replace(/\./g, '');
  if (x === y) return true;
  return (x.length === 1 && y.startsWith(x)) || (y.length === 1 && x.startsWith(y));
}

export function findPatient(text: string, today: Date = new Date()): PatientFinding {
  const candidates: Candidate[] = [];
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(text); m; m = rule.re.exec(text)) {
      candidates.push(...rule.read(text, m.index + m[0].length, today));
      if (m[0].length === 0) rule.re.lastIndex++;
    }
  }
  const patient: ExtractedPatient = { firstName: null, middleName: null, lastName: null, birthDate: null, gender: null };
  const confidence = { first: 0, middle: 0, last: 0, dob: 0, gender: 0 };
  const conflicting: PatientField[] = [];
  for (const field of PATIENT_FIELDS) {
    // Groups of compatible values: each scored by its surest candidate, then by how often it is seen.
    const groups: { value: string; best: number; count: number }[] = [];
    for (const c of candidates.filter((x) => x.field === field)) {
      const group = groups.find((g) => compatible(g.value, c.value));
      if (!group) {
        groups.push({ value: c.value, best: c.confidence, count: 1 });
        continue;
      }
      group.best = Math.max(group.best, c.confidence);
      group.count++;
      // The full name wins over its initial.
      if (c.value.replace(/\./g, '').length > group.value.replace(/\./g, '').length) group.value = c.value;
    }
    groups.sort((a, b) => b.best - a.best || b.count - a.count);
    const [chosen, rival] = groups;
    if (!chosen) continue;
    const conflict = !!rival && rival.best >= CONFLICT_CONFIDENCE;
    if (conflict) conflicting.push(field);
    // Seen more than once raises the confidence a little; a conflict lowers it.
    confidence[field] = Math.round(Math.max(0, Math.min(1, chosen.best + 0.02 * (chosen.count - 1)) - (conflict ? 0.3 : 0)) * 100) / 100;
    const value = chosen.value;
    if (field === 'first') patient.firstName = value;
    else if (field === 'middle') patient.middleName = value;
    else if (field === 'last') patient.lastName = value;
    else if (field === 'dob') patient.birthDate = value;
    else patient.gender = value as 'M' | 'F' | 'UN';
  }
  return { patient, confidence, conflicts: conflicting.length > 0, conflicting };
}
