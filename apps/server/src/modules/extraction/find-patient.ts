import type { ExtractedPatient, ExtractionHits } from '../../db/schema/intake.ts';

// Reads a patient's first, middle and last name, birth date and gender from the text of a clinical
// document by its labels ("Patient Name:", "DOB", "Sex", …). Every candidate carries a confidence from
// how specific its label is; two different values for one field with real labels are a conflict, and a
// conflicting field is left empty (never a guessed value). Fields under another person's heading or label
// ("Care Team Member", "Insured's Name", "Provider First Name") are not the patient's and are dropped.
// Words in the narrative ("Mr.", "a 64-year-old male", "Mr. Robert Lee Johnson") are weak evidence: used
// only when no label gives the field, and at a confidence below "very high".

export type PatientField = keyof ExtractionHits;
export const PATIENT_FIELDS: readonly PatientField[] = ['first', 'middle', 'last', 'dob', 'gender'];

// Under these confidences a field is left empty: an empty field is better than a wrong one. Chosen on the
// family corpus (bench/extraction-families.ts prints the thresholds each held-out fold chooses) so that at most
// 1 % of returned values are wrong; a name read only after a verb in a sentence (0.5) is never returned.
export const MIN_CONFIDENCE: Record<PatientField, number> = { first: 0.55, middle: 0.55, last: 0.55, dob: 0.5, gender: 0.55 };

export interface PatientFinding {
  patient: ExtractedPatient;
  confidence: Record<PatientField, number>;
  conflicts: boolean;
  // The fields that had more than one distinct value with a real label (each left empty).
  conflicting: PatientField[];
  // The fields read from words rather than a label (lower confidence).
  inferred: PatientField[];
  // More than one person who could be the patient is named (a family member, another patient): check the details.
  severalPeople: boolean;
}

interface Candidate {
  field: PatientField;
  value: string;
  confidence: number;
  // Read from narrative words, not a label: only used when no label gives the field.
  weak?: boolean;
  // Read from a sentence, not a label (even when sure enough to count as one): reported as inferred.
  words?: boolean;
  // The whole name this value was read with ("first last", lower case): whose value it is.
  person?: string;
}

// Where a document's numeric dates put the day: 'dmy' only when the document is clearly not from the US.
export type DateOrder = 'mdy' | 'dmy';

// A candidate this sure or surer that disagrees with the chosen value makes a conflict.
const CONFLICT_CONFIDENCE = 0.6;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`;
const numeric = (m: RegExpExecArray, order: DateOrder): [string, string, string] => (order === 'dmy' ? [m[3]!, m[2]!, m[1]!] : [m[3]!, m[1]!, m[2]!]);
const DATE_FORMS: { re: RegExp; parts: (m: RegExpExecArray, order: DateOrder) => [string, string, string] }[] = [
  // YYYY-MM-DD (and YYYY/MM/DD)
  { re: /\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b/y, parts: (m) => [m[1]!, m[2]!, m[3]!] },
  // MM/DD/YYYY, M/D/YY, MM-DD-YYYY, MM.DD.YYYY (DD.MM.YYYY in a document from outside the US)
  { re: /\b(\d{1,2})\s?[/.-]\s?(\d{1,2})\s?[/.-]\s?(\d{4}|\d{2})\b/y, parts: numeric },
  // Date boxes of claim forms: "04 15 72", "04 | 15 | 1972"
  { re: /\b(\d{2})(?:[ \t]+|[ \t]*\|[ \t]*)(\d{2})(?:[ \t]+|[ \t]*\|[ \t]*)(\d{4}|\d{2})\b/y, parts: numeric },
  // April 12, 1958 / Apr. 12 1958 / Sep 12. 1944 (OCR reads a comma as a full stop)
  { re: new RegExp(String.raw`\b${MONTH}\.?\s+(\d{1,2})(?:st|nd|rd|th)?[,.]?\s+(\d{4})\b`, 'iy'), parts: (m) => [m[3]!, m[1]!, m[2]!] },
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
// A numeric date that is no real date in the document's order is not read the other way round: empty, not a guess.
function dateAt(text: string, from: number, ctx: Context, reach = 16): string | null {
  for (let at = from; at <= Math.min(from + reach, text.length - 1); at++) {
    if (text[at] === '\n') return null;
    for (const form of DATE_FORMS) {
      form.re.lastIndex = at;
      const m = form.re.exec(text);
      if (!m) continue;
      const date = parseBirthDate(...form.parts(m, ctx.order), ctx.today);
      if (date) return date;
    }
  }
  return null;
}

// Clearly from outside the US: a non-US country, phone prefix, NHS number or UK postcode, and nothing American.
const NON_US =
  /\b(?:NHS\s+(?:No|Number)|Post\s?code|United Kingdom|England|Scotland|Wales|Ireland|Deutschland|Germany|France|Australia|New Zealand|Netherlands|Belgium|Switzerland|Austria|Italy|Spain|Sweden|Norway|Denmark|Geburtsdatum|Date de naissance)\b|\+(?:44|49|33|61|64|31|32|41|43|39|34|46|47|45|353)[\s(]?\d|\b[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}\b/;
const US = /\b(?:USA|United States)\b|\bU\.S\.|\b(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC|PR)\s+\d{5}(?:-\d{4})?\b|\(\d{3}\)\s?\d{3}-\d{4}|\+1[\s-]\d{3}/;
export const dateOrderOf = (text: string): DateOrder => (NON_US.test(text) && !US.test(text) ? 'dmy' : 'mdy');

interface Context {
  today: Date;
  order: DateOrder;
}

// Words that are labels or document furniture, never part of a patient's name.
const NOT_A_NAME = new Set(
  [
    'patient name first last middle given family surname date birth dob sex gender male female age id mrn number no address phone account report physician provider doctor unknown the of and for to see attached',
    // Letterheads and titles, so a clinic's name or a document's title is never read as a person's.
    'clinic hospital medical medicine health healthcare associates group center centre practice pediatrics cardiology laboratory lab radiology imaging services department note letter summary referral consultation consult discharge results progress history visit information demographics care team member sheet test form claim insurance specimen order requisition page fax cover dear sincerely regards',
  ].join(' ').split(' '),
);
const PARTICLE = /^(?:van|von|der|den|de|del|della|di|da|la|le|du|dos|das|ter|ten|bin|ibn|al|st\.?)$/i;
const HONORIFIC = /^(?:mr|mrs|ms|miss|mx|dr)\.?$/i;
const SUFFIX = /^(?:jr|sr|ii|iii|iv|md|do|rn|np|pa|phd)\.?,?$/i;
const NAME_TOKEN = /^\p{L}[\p{L}'’-]*\.?$/u;

// Where a name value ends: a wide gap (a column), a line end, a dash ("Hernández, Luis — D.O.B."), or the next label.
const NEXT_LABEL =
  /\s{2,}|\t|\n|\s*[—–]\s*|\s-\s|\s*\(|\s(?=[A-Za-z.]+\s*#)|\s(?=(?:DOB|D\.O\.B|Sex|Gender|Age|MRN|SSN)\b)|\s(?=(?:Date of Birth|Birth ?Date|Birthdate|Medical Record|MR|Patient ID|Pt ID|ID|Acct|Account|Phone|Tel|Address|DOS|Date of Service|Admit|Visit|Encounter|Room|Provider|Physician|Attending|Referring|Insurance|Race)\s*(?:[:#]|No\b))/i;

function titleCase(token: string): string {
  if (token.length < 2 || token !== token.toUpperCase()) return token;
  return token.toLowerCase().replace(/(^|['’-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

const cleanToken = (token: string) => titleCase(token.replace(/[.,]+$/, ''));

// "LAST, FIRST M", "First M. Last", "First Last": null unless it reads as a person's name.
export function parseName(raw: string): { first: string; middle: string | null; last: string } | null {
  // "Jane Q. Public, DOB 3/14/1961": a comma before the next label ends the value, it is no "Last, First".
  const value = raw.split(NEXT_LABEL)[0]!.trim().replace(/[;:,]+$/, '').trim();
  if (!value) return null;
  const tokensOf = (s: string) => s.split(/\s+/).filter((t) => t && !HONORIFIC.test(t) && !SUFFIX.test(t));
  let first: string[];
  let last: string[];
  let middle: string[];
  // "SCHAFER. JOAQUIN": a surname's comma that OCR read as a full stop (an initial or "Mr." is no surname).
  const surnameStop = /^(\p{L}[\p{L}'’-]{2,})\.\s+(?=\p{L})/u.exec(value);
  const comma = surnameStop && !HONORIFIC.test(surnameStop[1]!) && !SUFFIX.test(surnameStop[1]!) && !PARTICLE.test(surnameStop[1]!) ? surnameStop[1]!.length : value.indexOf(',');
  if (comma > 0) {
    last = tokensOf(value.slice(0, comma));
    const rest = tokensOf(value.slice(comma + 1).replace(/,/g, ' '));
    first = rest.slice(0, 1);
    middle = rest.slice(1);
  } else {
    const tokens = tokensOf(value);
    // "de la Cruz Beatriz Lee", "DE LA CRUZ BEATRIZ": a surname first whose comma was lost (OCR); where it ends is a
    // guess, so no name. A first name may be "Van" or "De", but not "de", nor "De La".
    if (tokens.length < 2 || (PARTICLE.test(tokens[0]!) && (/^\p{Ll}/u.test(tokens[0]!) || PARTICLE.test(tokens[1]!)))) return null;
    // A lone letter after the surname ("Hiroshi Van Buren I") is a mark OCR read, not a name: an initial comes before it.
    while (tokens.length > 2 && /^\p{L}$/u.test(tokens.at(-1)!)) tokens.pop();
    first = tokens.slice(0, 1);
    last = tokens.slice(-1);
    middle = tokens.slice(1, -1);
    // "Maria Van Buren", "Ana de la Cruz": a surname's particles belong to the last name.
    while (middle.length && PARTICLE.test(middle.at(-1)!)) last = [middle.pop()!, ...last];
  }
  const all = [...first, ...middle, ...last];
  if (first.length === 0 || last.length === 0 || all.length > 5) return null;
  if (!all.every((t) => NAME_TOKEN.test(t) && !NOT_A_NAME.has(t.replace(/\.$/, '').toLowerCase()))) return null;
  // Names are printed capitalized: a lowercase word (OCR noise like "oo", a sentence) is no name, bar a particle.
  if (!all.every((t) => /^\p{Lu}/u.test(t) || PARTICLE.test(t))) return null;
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
  read: (text: string, end: number, ctx: Context) => Candidate[];
  // The label names the patient itself ("Patient Name:"), so no heading can make it someone else's.
  ownsContext?: boolean;
  weak?: boolean;
}

// "Dr. Michael Kim", "Michael Okafor, DO": a clinician, never the patient.
const CLINICIAN = /^\s*(?:Dr|Doctor)\b|,?\s(?:MD|DO|NP|PA-C|PA|RN|PhD|DDS|DPM|OD|FNP|APRN)\b\.?\s*,?\s*$/;
const nameCandidates = (confidence: number) => (text: string, end: number) => {
  if (CLINICIAN.test(text.slice(end, end + 120).split(NEXT_LABEL)[0]!)) return [];
  const name = parseName(text.slice(end, end + 120));
  if (!name) return [];
  const person = personKey(name);
  const out: Candidate[] = [
    { field: 'first', value: name.first, confidence, person },
    { field: 'last', value: name.last, confidence, person },
  ];
  if (name.middle) out.push({ field: 'middle', value: name.middle, confidence, person });
  return out;
};

const singleName = (field: PatientField, confidence: number) => (text: string, end: number) => {
  const value = text.slice(end, end + 60).split(NEXT_LABEL)[0]!.trim();
  const tokens = value.split(/\s+/).filter(Boolean);
  const shaped = field === 'middle' ? tokens.length === 1 : tokens.length >= 1 && tokens.length <= 2;
  if (!shaped || !tokens.every((t) => NAME_TOKEN.test(t) && !NOT_A_NAME.has(t.replace(/\.$/, '').toLowerCase()))) return [];
  return [{ field, value: tokens.map(cleanToken).join(' '), confidence }];
};

const birthDate = (sameLine: number, nextLine: number) => (text: string, end: number, ctx: Context) => {
  const date = dateAt(text, end, ctx);
  if (date) return [{ field: 'dob' as const, value: date, confidence: sameLine }];
  // Column layouts put the value under its label: look at the start of the next line.
  const newline = text.indexOf('\n', end);
  if (nextLine === 0 || newline < 0 || newline - end > 60) return [];
  // Not a date after another label ("Admission Date: 07/28/2026" under a DOB that could not be read).
  if (/^[^\d\n]*:/.test(text.slice(newline + 1, newline + 41))) return [];
  const below = dateAt(text, newline + 1, ctx, 40);
  return below ? [{ field: 'dob' as const, value: below, confidence: nextLine }] : [];
};

const gender = (confidence: number) => (text: string, end: number) => {
  // "Sex: M [ ] F [X]" is a checkbox row, read by checkboxGender, not as "M".
  const m = /^\s*(male|female|man|woman|unknown|undifferentiated|other|unk|un|m|f|u)\b(?![ \t]*(?:\[|[☒☐☑■□]))/i.exec(text.slice(end, end + 24));
  return m ? [{ field: 'gender' as const, value: GENDERS[m[1]!.toLowerCase()]!, confidence }] : [];
};

// The capitalized words after "Mr." in a sentence, First … Last: "Mr. Robert Lee Johnson (born …" or "Ms. Ana Ruiz returns".
const narrativeName = (text: string, end: number) => {
  // A sentence ends at a period after a word, not after an initial ("Robert L. Johnson").
  const words = text.slice(end, end + 80).split(/[,;()\n]|(?<=\p{L}{2})\.(?:\s|$)/u)[0]!.split(/\s+/).filter(Boolean);
  const stop = words.findIndex((w) => !/^\p{Lu}/u.test(w));
  const capitalized = stop < 0 ? words : words.slice(0, stop);
  return capitalized.length >= 2 ? nameCandidates(0.5)(capitalized.join(' '), 0) : [];
};

// "Name (Last, First, MI):" — the order a form asks for; "(First, Last)" is read as First … Last.
const ORDER_HINT = String.raw`(?:\s*\([^)\n]{0,48}\))?`;
const nameWithHint = (confidence: number) => (text: string, end: number) => {
  const hint = /\(([^)\n]*)\)\s*[:-]?\s*$/.exec(text.slice(Math.max(0, end - 60), end))?.[1];
  if (hint && /^\s*first/i.test(hint)) {
    const raw = text.slice(end, end + 120).split(NEXT_LABEL)[0]!.replace(/,/g, ' ');
    return nameCandidates(confidence)(raw, 0);
  }
  return nameCandidates(confidence)(text, end);
};

// Checkboxes: "[X] Male  [ ] Female" (box before) or "M [X]  F [ ]" (box after); the layout with more
// boxes wins, and a tie ("M [X] F") is not read.
const BOX = String.raw`(?:\[\s*[xX✓✔*]?\s*\]|[☒☐☑■□])`;
const BOX_BEFORE = new RegExp(String.raw`(?:${BOX}\s*(?:Male|Female|M|F)\b[ \t]*)+`, 'gi');
const BOX_AFTER = new RegExp(String.raw`(?:\b(?:Male|Female|M|F)[ \t]*${BOX}[ \t]*)+`, 'gi');
const checked = (box: string) => /[xX✓✔*☒☑■]/.test(box);
function checkboxGender(text: string): { at: number; value: 'M' | 'F' }[] {
  const read = (re: RegExp, boxFirst: boolean) =>
    [...text.matchAll(re)].map((m) => {
      const items = [...m[0].matchAll(new RegExp(boxFirst ? String.raw`(${BOX})\s*(Male|Female|M|F)` : String.raw`(Male|Female|M|F)[ \t]*(${BOX})`, 'gi'))].map((i) =>
        boxFirst ? { box: i[1]!, word: i[2]! } : { box: i[2]!, word: i[1]! },
      );
      const at = m.index ?? 0;
      return { at, end: at + m[0].length, items };
    });
  const before = read(BOX_BEFORE, true);
  const after = read(BOX_AFTER, false);
  const out: { at: number; value: 'M' | 'F' }[] = [];
  for (const group of [...before, ...after]) {
    const other = (before.includes(group) ? after : before).find((o) => o.at < group.end && group.at < o.end);
    if (other && other.items.length >= group.items.length) continue;
    const ticked = group.items.filter((i) => checked(i.box));
    if (ticked.length !== 1) continue;
    out.push({ at: group.at, value: GENDERS[ticked[0]!.word.toLowerCase()] as 'M' | 'F' });
  }
  return out;
}

const RULES: LabelRule[] = [
  { re: new RegExp(String.raw`\b(?:Patient(?:['’]s)?|Pt\.?)\s+(?:Full\s+|Legal\s+)?Name${ORDER_HINT}\s*[:-]?\s*`, 'gi'), read: nameWithHint(0.95), ownsContext: true },
  // School and camp forms name the patient as the child, student or camper; prior authorizations as the member.
  { re: new RegExp(String.raw`\b(?:Child|Student|Camper|Member|Client|Resident)(?:['’]s)?\s+(?:Full\s+|Legal\s+)?Name${ORDER_HINT}\s*:\s*`, 'gi'), read: nameWithHint(0.85) },
  { re: /\b(?:Patient|Pt\.?)\s*:\s*/gi, read: nameCandidates(0.9), ownsContext: true },
  // A bare "Name:" only at the start of a line or a column, so "Physician Name:" is not read as the patient.
  { re: new RegExp(String.raw`(?:^|\n|\s{2,}|\d\.\s)Name${ORDER_HINT}\s*:\s*`, 'gi'), read: nameWithHint(0.75) },
  { re: /(?:^|\n|\s{2,})RE\s*:\s*/gi, read: nameCandidates(0.55) },
  // Narrative: "Mr. Robert Lee Johnson (born 5 June 1948)": First … Last up to a comma or bracket.
  { re: /\b(?:Mr|Mrs|Ms|Miss|Mx)\.?\s+(?=\p{Lu}[\p{L}'’-]*\.?\s+\p{Lu})/gu, read: narrativeName, weak: true },
  { re: /\b(?:Patient\s+)?(?:First|Given)\s+Name\s*:\s*/gi, read: singleName('first', 0.9) },
  { re: /\b(?:Patient\s+)?(?:Middle\s+(?:Name|Initial)|M\.?I\.?)\s*:\s*/gi, read: singleName('middle', 0.9) },
  { re: /\b(?:Patient\s+)?(?:(?:Last|Family)\s+Name|Surname)\s*:\s*/gi, read: singleName('last', 0.9) },
  {
    // "DCB" and "D0B": OCR's reading of a DOB label.
    re: /\b(?:DOB|DCB|D0B|D\.O\.B\.?|Date\s+of\s+Birth|Birth\s*Date|Birthdate)(?:\s*\/\s*(?:Age|Sex|Gender))?\s*[:-]?\s*/gi,
    read: birthDate(0.95, 0.5),
  },
  { re: /\bBorn(?:\s+on)?\s*:?\s*/gi, read: birthDate(0.8, 0) },
  { re: /\b(?:Administrative\s+|Legal\s+)?(?:Sex|Gender)(?:\s*\/\s*(?:Sex|Gender)|\s+Identity)?(?:\s*\(M\/F\))?\s*:\s*/gi, read: gender(0.95) },
  { re: /\b(?:Sex|Gender)[ \t]+(?=\S)/gi, read: gender(0.75) },
  // Narrative: "a 56-year-old white male", "is a pleasant woman".
  {
    re: /\b\d{1,3}[- ](?:years?|yrs?)[- ]old\s+(?:[a-z]+\s+){0,2}?(?=(?:male|female|man|woman|gentleman|lady|boy|girl)\b)/gi,
    read: gender(0.6),
    weak: true,
  },
  { re: /\b(?:is|was)\s+an?\s+(?:[a-z]+\s+){0,2}?(?=(?:man|woman|gentleman|lady|boy|girl)\b)/gi, read: gender(0.55), weak: true },
];

// Headings and labels of other people: a field under "Care Team Member" or labelled "Insured's Name" is not the patient's.
const OTHER_PERSON =
  /\b(?:care\s*team|provider|physician|doctor|clinician|author|referr(?:ing|ed\s+by)|attending|ordering|pcp|nurse|guarantor|insured|subscriber|policy\s*holder|responsible\s+party|emergency|next\s+of\s+kin|guardian|parent|mother|father|spouse|caregiver|prescriber|pharmacist|contact\s+person|signed|signature)\b/i;
const PATIENT_WORD = /\b(?:patient|pt|demographics|student|camper|child)\b/i;
// A letterhead ("Lakeside Physician Group") is no section heading.
const ORGANIZATION = /\b(?:clinic|hospital|medical|health|associates|group|center|centre|practice|llc|inc|pc|university|institute)\b/i;

type Owner = 'patient' | 'other' | 'none';

// Whose field a label at `at` is: the words before it on its line or column ("Provider First Name:"),
// else the nearest heading above it (a short line without a value).
function ownerAt(text: string, at: number): Owner {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  // The last few words before the label in its column ("Insured's", "Provider").
  const before = text.slice(lineStart, at).split(/\s{2,}|\t/).pop()!.split(/\s+/).slice(-4).join(' ');
  if (OTHER_PERSON.test(before)) return 'other';
  if (PATIENT_WORD.test(before)) return 'patient';
  return headingOwner(text, lineStart, at - lineStart);
}

const ownerOfHeading = (heading: string): Owner =>
  OTHER_PERSON.test(heading) || /^(?:to|from|sender|recipient|attn|attention)\b/i.test(heading) ? 'other' : PATIENT_WORD.test(heading) ? 'patient' : 'none';

// The nearest heading above a line (a short line without a value), up to a page break; `column` is the
// label's place in its line, for headings printed in columns.
function headingOwner(text: string, lineStart: number, column = 0): Owner {
  const lines = text.slice(Math.max(0, lineStart - 1200), Math.max(0, lineStart - 1)).split('\n').reverse().slice(0, 15);
  for (const raw of lines) {
    if (raw === '\f') return 'none';
    const line = raw.trim();
    if (!line || line.length > 60 || /\d/.test(line) || /:\s*\S/.test(line) || ORGANIZATION.test(line)) continue;
    // A heading in columns ("PATIENT    REFERRING PROVIDER", "TO    FROM"): the cell above the label's column.
    const cells = [...raw.matchAll(/\S+(?: \S+)*/g)];
    // "REFERRED BY   Michael Reyes, MD" is a label and its value, no heading.
    if (cells.slice(1).some((c) => c[0].includes(',') || parseName(c[0]))) continue;
    const cell = cells.filter((c) => (c.index ?? 0) <= column).at(-1)?.[0] ?? cells[0]![0];
    const whose = ownerOfHeading(cells.length > 1 ? cell : line);
    if (whose !== 'none') return whose;
  }
  return 'none';
}

// An unlabelled heading: a line that is only a name, followed by a DOB or MRN line ("JOHNSON, EMILY R" /
// "DOB: 02/03/2015  MRN: 4411"), near the top of a page.
const FOLLOWS_HEADING = /^\s*(?:DOB|D\.O\.B|Date\s+of\s+Birth|Birth\s*Date|Born|MRN|Medical\s+Record|Patient\s+ID|Age|Sex|Gender)\b/i;
function headingNames(text: string): (Candidate & { at: number })[] {
  const out: (Candidate & { at: number })[] = [];
  let at = 0;
  for (const page of text.split('\f')) {
    const lines = page.split('\n');
    let offset = at;
    const starts = lines.map((l) => ((offset += l.length + 1), offset - l.length - 1));
    const filled = lines.map((l, i) => ({ line: l, i })).filter((l) => l.line.trim());
    for (let k = 0; k < Math.min(filled.length - 1, 12); k++) {
      const { line, i } = filled[k]!;
      const cell = line.trim().split(/\s{2,}|\t/)[0]!;
      // A physician's line ("Dr. John Carter", "John Carter, MD") is not the patient's heading.
      // The next line, or the rest of this one (a page header "NAME   DOB: …"), says whose heading it is.
      const rest = line.trim().slice(cell.length).trim();
      if (/[:\d]/.test(cell) || /^(?:dr|doctor)\b|,\s*(?:md|do|np|pa|rn|phd)\b/i.test(cell) || !(FOLLOWS_HEADING.test(filled[k + 1]!.line) || (rest && FOLLOWS_HEADING.test(rest)))) continue;
      const name = parseName(cell);
      if (!name) continue;
      const c = { at: starts[i]!, confidence: 0.7, person: personKey(name) };
      out.push({ ...c, field: 'first', value: name.first }, { ...c, field: 'last', value: name.last });
      if (name.middle) out.push({ ...c, field: 'middle', value: name.middle });
    }
    at += page.length + 1;
  }
  return out;
}

const personKey = (name: { first: string; last: string }) => `${name.first}\t${name.last}`.toLowerCase();
const personOf = (key: string) => {
  const [first = '', last = ''] = key.split('\t');
  return { first, last };
};
// Two whole names are one person's when the last names are equal and the first names compatible ("J" and "John").
const samePerson = (a: { first: string; last: string }, b: { first: string; last: string }) =>
  a.last.toLowerCase() === b.last.toLowerCase() && compatible(a.first, b.first);

// Two values of a field are the same person's when equal, or when one is the initial of the other.
function compatible(a: string, b: string): boolean {
  const x = a.toLowerCase().replace(/\./g, '');
  const y = b.toLowerCase().replace(/\./g, '');
  if (x === y) return true;
  return (x.length === 1 && y.startsWith(x)) || (y.length === 1 && x.startsWith(y));
}

// ---- Cue-scored candidates (issue 28 §4): labels read by what their words say, not by a list of layouts ----

// What a label's words say: whom it is about and which field it asks for. A label is a few words before a
// colon, a dash or a column gap; its value follows it in the cell, in the next cell, or on the next line.
const PATIENT_CUE = /\b(?:patient|pt|client|member|resident|student|child|camper|individual|participant|consumer|beneficiary|enrollee|infant|youth|applicant|re|regarding|subject)\b/i;
const NAME_CUE = /\bname\b/i;
const DOB_CUE = /\b(?:dob|d\.\s?o\.\s?b\.?|date\s+of\s+birth|birth\s*date|birthdate|born|birthday)(?=\W|$)/i;
const SEX_CUE = /(?:\b(?:sex|gender)\b|^m\s*\/\s*f$)/i;
// Words that make a label someone else's, or a date other than the birth date.
const OTHER_CUE =
  /\b(?:interpreter|translator|therapist|teacher|kin|emergency|contact|relationship|relation|cc|dictated|reviewed|witness|manager|worker|counselor|coordinator|primary|treating|dr|visit|service|letter|printed|signed|chart|mrn|phone|fax|tel|email|address|insurance|employer|school|pharmacy|facility|agency|practice|clinic|attn|to|from|by|party)\b/i;
const LABEL_TEXT = /^[\p{L}][\p{L} .'’/()#&-]{0,40}$/u;
const isLabelWords = (label: string) => LABEL_TEXT.test(label) && label.split(/\s+/).length <= 6;

// The label's kind and how sure a value after it is the patient's (0: not a patient label).
function labelKind(label: string): { field: 'name' | 'dob' | 'gender'; confidence: number } | null {
  const words = label.replace(/[:.]+$/, '').trim();
  if (!isLabelWords(words) || OTHER_PERSON.test(words) || OTHER_CUE.test(words.replace(/\b(?:date\s+of\s+birth|birth\s*date)\b/i, ''))) return null;
  if (DOB_CUE.test(words)) return { field: 'dob', confidence: 0.9 };
  if (SEX_CUE.test(words)) return { field: 'gender', confidence: 0.9 };
  if (PATIENT_CUE.test(words)) return { field: 'name', confidence: NAME_CUE.test(words) || /\bpatient\b/i.test(words) ? 0.9 : /\b(?:re|regarding)\b/i.test(words) ? 0.8 : 0.85 };
  if (/^name$/i.test(words)) return { field: 'name', confidence: 0.7 };
  return null;
}

// A label with no value of its own, alone in its cell: "Client", "DATE OF BIRTH", "Sex (M/F)".
export const isCueLabel = (cell: string) => labelKind(cell.replace(/\s*[:-]$/, '')) !== null;

function readValue(kind: 'name' | 'dob' | 'gender', value: string, confidence: number, ctx: Context): Candidate[] {
  if (kind === 'dob') {
    const date = dateAt(value, 0, ctx, 4);
    return date ? [{ field: 'dob', value: date, confidence }] : [];
  }
  if (kind === 'gender') return gender(confidence)(value, 0);
  return nameCandidates(confidence)(value, 0);
}

// Every "label: value", "label - value", "label  value" and label-over-value pair whose label's words name a
// patient field, wherever it is on the page.
function cueCandidates(text: string, ctx: Context): (Candidate & { at: number })[] {
  const out: (Candidate & { at: number })[] = [];
  const lines = text.split('\n');
  let offset = 0;
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]!;
    const cells = [...line.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ text: m[0], at: offset + (m.index ?? 0) }));
    cells.forEach((cell, i) => {
      const inCell = /^([^:]{1,44}?)\s*(?::|\s[-–—])\s*(.*)$/.exec(cell.text);
      const label = inCell ? inCell[1]! : cell.text;
      const kind = labelKind(label);
      if (!kind) return;
      // The value: after the separator, else the next cell, else (a stacked form) the next line when it is only a value.
      let value = inCell?.[2]?.trim() ?? '';
      let confidence = kind.confidence;
      if (!value) value = cells[i + 1]?.text ?? '';
      if (!value && i === cells.length - 1) {
        const next = (lines[l + 1] ?? '').trim();
        const nextCell = next.split(/\s{2,}/)[0] ?? '';
        if (nextCell && !/:/.test(nextCell) && !isCueLabel(nextCell)) value = nextCell;
        confidence -= 0.05;
      }
      if (!value || isCueLabel(value)) return;
      for (const c of readValue(kind.field, value, confidence, ctx)) out.push({ ...c, at: cell.at });
    });
    offset += line.length + 1;
  }
  return out;
}

// Run-in prose: "Thank you for seeing Ms. Ana Ruiz, a 47-year-old woman born 3 March 1978", "I am writing to
// refer Mei Washington, born on 10/26/1940", "Jon Ames (DOB 1/2/1990) was seen". A name right after a verb
// of referral, or right before an age or a birth date, is the patient's.
// Its words on one line: a line break before it is no part of it ("…, PA-C" / "Jean-Luc Løvås, a 33-year-old").
const PROSE_NAME = String.raw`(\p{Lu}[\p{L}'’-]*\.?(?:[ \t]+(?:\p{Lu}[\p{L}'’-]*\.?|van|von|de|del|della|di|da|la|le|du|der|den|ter|bin|al)){1,4})`;
const PROSE_AFTER_VERB = new RegExp(String.raw`\b(?:seeing|see|saw|refer|referring|referred|evaluate|evaluating|evaluated|regarding|concerning|examined|treating)\s+(?:(?:Mr|Mrs|Ms|Miss|Mx)\.?\s+)?${PROSE_NAME}`, 'gu');
const PROSE_BEFORE_FACTS = new RegExp(
  String.raw`(?<=^|[\s(])(?:(?:Mr|Mrs|Ms|Miss|Mx)\.?[ \t]+)?${PROSE_NAME}(?:,\s*\(?\s*|[ \t]*\(\s*)(?:(?:is\s+|was\s+)?an?\s+\d{1,3}[- ](?:years?|yrs?|months?)[- ]old|born\b|DOB\b|D\.O\.B\.|date of birth\b)`,
  'gmu',
);
function proseNames(text: string): (Candidate & { at: number })[] {
  const out: (Candidate & { at: number })[] = [];
  const flat = text;
  // A name before an age or a birth date is surer than one after a verb ("I saw Mr. Smith with Mr. Jones"): only
  // the first outweighs a narrative's other names.
  for (const [re, confidence, weak] of [
    [PROSE_BEFORE_FACTS, 0.8, false],
    [PROSE_AFTER_VERB, 0.5, true],
  ] as const) {
    re.lastIndex = 0;
    for (const m of flat.matchAll(re)) {
      const before = flat.slice(Math.max(0, (m.index ?? 0) - 12), (m.index ?? 0) + m[0].indexOf(m[1]!));
      // "Dr. Bianchi", "Mr. Lee's mother": a clinician or a relative is not the patient.
      if (/\b(?:Dr|Doctor)\.?\s*$/.test(before)) continue;
      for (const c of nameCandidates(confidence)(m[1]!.replace(/\.$/, ''), 0)) out.push({ ...c, weak, words: true, at: (m.index ?? 0) + m[0].indexOf(m[1]!) });
    }
  }
  return out;
}

// The pronouns of a letter's narrative: all "she/her" or all "he/his", several times, is the patient's gender.
function pronounGender(text: string): Candidate[] {
  const she = (text.match(/\b(?:she|her|hers|herself)\b/gi) ?? []).length;
  const he = (text.match(/\b(?:he|him|his|himself)\b/gi) ?? []).length;
  if ((she && he) || she + he < 2) return [];
  return [{ field: 'gender', value: she ? 'F' : 'M', confidence: Math.min(0.6, 0.5 + 0.03 * (she + he)), weak: true }];
}

export function findPatient(text: string, today: Date = new Date(), minConfidence: Record<PatientField, number> = MIN_CONFIDENCE): PatientFinding {
  const ctx: Context = { today, order: dateOrderOf(text) };
  const candidates: Candidate[] = [];
  const take = (found: Candidate[], at: number, rule: { ownsContext?: boolean; weak?: boolean; byHeading?: boolean }) => {
    // A sentence ("Thank you for referring Mr. …") has no label to own: narrative words are judged by the heading above only.
    const owner = rule.ownsContext ? 'patient' : rule.weak || rule.byHeading ? headingOwner(text, text.lastIndexOf('\n', at - 1) + 1) : ownerAt(text, at);
    // Another person's field is never the patient's; one near "Patient" is a little surer.
    if (owner === 'other') return;
    for (const c of found) candidates.push({ ...c, confidence: Math.min(1, c.confidence + (owner === 'patient' && !rule.ownsContext ? 0.03 : 0)), weak: rule.weak || c.weak });
  };
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(text); m; m = rule.re.exec(text)) {
      // The label starts after the line break or column gap the pattern may begin with.
      const labelAt = m.index + (/^\s*/.exec(m[0])?.[0].length ?? 0);
      take(rule.read(text, m.index + m[0].length, ctx), labelAt, rule);
      if (m[0].length === 0) rule.re.lastIndex++;
    }
  }
  for (const box of checkboxGender(text)) take([{ field: 'gender', value: box.value, confidence: 0.85 }], box.at, {});
  for (const heading of headingNames(text)) take([heading], heading.at, {});
  for (const cue of cueCandidates(text, ctx)) take([cue], cue.at, {});
  // A name in a sentence has no label to own it: only the heading above can make it someone else's.
  for (const prose of proseNames(text)) take([prose], prose.at, { byHeading: true, weak: prose.weak });
  take(pronounGender(text), 0, { ownsContext: true });
  const patient: ExtractedPatient = { firstName: null, middleName: null, lastName: null, birthDate: null, gender: null };
  const confidence = { first: 0, middle: 0, last: 0, dob: 0, gender: 0 };
  const conflicting: PatientField[] = [];
  const inferred: PatientField[] = [];
  const choose = (field: PatientField, pool: Candidate[]): string | null => {
    // Words in the narrative count only when no label gives the field.
    const all = pool.filter((x) => x.field === field);
    const labelled = all.filter((x) => !x.weak);
    const usable = labelled.length ? labelled : all;
    // Groups of compatible values: each scored by its surest candidate, then by how often it is seen.
    const groups: { value: string; best: number; count: number; labelled: boolean }[] = [];
    for (const c of usable) {
      const group = groups.find((g) => compatible(g.value, c.value));
      if (!group) {
        groups.push({ value: c.value, best: c.confidence, count: 1, labelled: !c.weak && !c.words });
        continue;
      }
      group.best = Math.max(group.best, c.confidence);
      group.count++;
      group.labelled ||= !c.weak && !c.words;
      // The full name wins over its initial.
      if (c.value.replace(/\./g, '').length > group.value.replace(/\./g, '').length) group.value = c.value;
    }
    groups.sort((a, b) => b.best - a.best || b.count - a.count);
    const [chosen, rival] = groups;
    if (!chosen) return null;
    // A rival as sure as the chosen value (two narrative names) or sure in itself is a conflict: the field stays empty.
    if (rival && (rival.best >= CONFLICT_CONFIDENCE || rival.best >= chosen.best)) {
      conflicting.push(field);
      return null;
    }
    if (!chosen.labelled) inferred.push(field);
    // Seen more than once raises the confidence a little.
    confidence[field] = Math.round(Math.min(labelled.length ? 1 : 0.6, chosen.best + 0.02 * (chosen.count - 1)) * 100) / 100;
    return chosen.value;
  };
  // The patient's first and last name first; every other field read with a whole name must be that person's.
  patient.firstName = choose('first', candidates);
  patient.lastName = choose('last', candidates);
  const chosenPerson = patient.firstName && patient.lastName ? { first: patient.firstName, last: patient.lastName } : null;
  const theirs = (c: Candidate) => !c.person || (chosenPerson !== null && samePerson(personOf(c.person), chosenPerson));
  patient.middleName = choose('middle', candidates.filter(theirs));
  // "Mr." / "Ms." before the patient's own last name gives the gender in words.
  const lastNames = patient.lastName ? [patient.lastName] : [...new Set(candidates.filter((c) => c.field === 'last' && !c.weak).map((c) => c.value))];
  for (const m of text.matchAll(/\b(Mr|Mrs|Ms|Miss)\.?\s+((?:\p{L}[\p{L}'’.-]*\s+){0,3}\p{L}[\p{L}'’-]*)/gu)) {
    const words = ` ${m[2]!.split(/\s+/).join(' ').toLowerCase()} `;
    const names = lastNames.length ? lastNames : candidates.filter((c) => c.field === 'last').map((c) => c.value);
    // A surname of several words ("Van Buren") is looked for whole.
    if (!names.some((n) => words.includes(` ${n.toLowerCase()} `) || words.includes(` ${n.toLowerCase()}'`))) continue;
    candidates.push({ field: 'gender', value: m[1]!.toLowerCase() === 'mr' ? 'M' : 'F', confidence: 0.55, weak: true });
  }
  patient.birthDate = choose('dob', candidates);
  patient.gender = choose('gender', candidates) as ExtractedPatient['gender'];
  // The people named as possibly the patient (not under another person's label or heading), one per whole name.
  const people: { first: string; last: string }[] = [];
  for (const c of candidates) {
    if (!c.person) continue;
    const person = personOf(c.person);
    if (!people.some((p) => samePerson(p, person))) people.push(person);
  }
  // Below its threshold a field is left empty, its confidence 0 (nothing returned, nothing to trust).
  const keys: Record<PatientField, keyof ExtractedPatient> = { first: 'firstName', middle: 'middleName', last: 'lastName', dob: 'birthDate', gender: 'gender' };
  for (const field of PATIENT_FIELDS) {
    if (patient[keys[field]] === null || confidence[field] >= minConfidence[field]) continue;
    patient[keys[field]] = null;
    confidence[field] = 0;
  }
  const order = (fields: PatientField[]) => PATIENT_FIELDS.filter((f) => fields.includes(f));
  return { patient, confidence, conflicts: conflicting.length > 0, conflicting: order(conflicting), inferred: order(inferred), severalPeople: people.length > 1 };
}
