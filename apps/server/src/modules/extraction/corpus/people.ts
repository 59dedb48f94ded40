import type { ExtractedPatient } from '../../../db/schema/intake.ts';

// The people of the extraction corpus: a seeded random source, patients with varied names (accents,
// hyphens, apostrophes, particles, suffixes, middle initials) and the other people a document names
// (physicians, care team, guardians) who must not be taken for the patient.

export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

// mulberry32: small, fast and the same on every platform, so a seed always gives the same corpus.
export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

// All names stay inside Windows-1252, what the PDF standard fonts can draw.
const FEMALE = ['Maria', 'Zoë', 'Renée', 'Aaliyah', 'Siobhan', 'Mary-Kate', 'Chloé', 'Inés', 'Priya', 'Mei', 'Fatima', 'Dorothy', 'Yolanda', 'Brianna', 'Ngozi', 'Keiko', 'Anne-Marie', 'Beatriz', 'Margaret', 'Soledad'];
const MALE = ['José', 'François', 'Jean-Luc', 'DeShawn', 'Thomas', 'Raúl', 'Björn', 'Kwame', 'Hiroshi', 'Liam', 'Mohammed', 'Dmitri', 'Ethan', 'Óscar', 'Terrence', 'Joaquín', 'Patrick', 'Wei', 'Santiago', 'Malik'];
const MIDDLE = ['Ann', 'Lee', 'Marie', 'James', 'Elizabeth', 'Louise', 'Alexander', 'Grace', 'Ray', 'Jo'];
const INITIALS = ['A', 'B', 'C', 'D', 'E', 'J', 'K', 'L', 'M', 'P', 'Q', 'R', 'S', 'T', 'W'];
const LAST = [
  "O'Brien", 'García-López', 'Müller', 'Nakashima', "D'Angelo", 'Smith-Jones', 'Peña', 'McAllister', 'Okonkwo', 'Kowalski',
  'Nguyen', 'Fitzgerald', 'Schäfer', 'Ibáñez', "O'Neil", 'Dubois', 'Abernathy', 'Castañeda', 'Washington', 'Løvås',
  'Thompson', 'Rossi', 'Haddad', 'Zhang', 'Van Buren', 'de la Cruz', 'Bergström', 'Achebe', 'MacLeod', 'Yamamoto',
];
const SUFFIXES = ['Jr.', 'Sr.', 'III', 'II'];
const CLINICIAN_FIRST = ['Sarah', 'David', 'Anita', 'Robert', 'Helen', 'Michael', 'Laura', 'Samuel', 'Grace', 'Victor'];
const CLINICIAN_LAST = ['Kim', 'Patel', 'Goldberg', 'Okafor', 'Lindqvist', 'Harrington', 'Moreau', 'Bianchi', 'Reyes', 'Chen'];

export interface Person {
  first: string;
  // A full middle name or a single-letter initial; null when the person has none.
  middle: string | null;
  last: string;
  suffix: string | null;
  birthDate: string; // YYYY-MM-DD
  gender: 'M' | 'F';
}

export interface Other {
  first: string;
  last: string;
  credential: string;
}

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

// Image documents are typed with a font drawn without its composite (accented) glyphs: their people are unaccented.
export const unaccent = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').replace(/ø/g, 'o').replace(/Ø/g, 'O');

export function person(rng: Rng, options: { child?: boolean; ascii?: boolean } = {}): Person {
  const gender = rng.chance(0.5) ? 'F' : 'M';
  const first = rng.pick(gender === 'F' ? FEMALE : MALE);
  const middleKind = rng.next();
  const middle = middleKind < 0.4 ? null : middleKind < 0.7 ? rng.pick(INITIALS) : rng.pick(MIDDLE);
  const last = rng.pick(LAST);
  const suffix = gender === 'M' && !options.child && rng.chance(0.15) ? rng.pick(SUFFIXES) : null;
  const year = options.child ? rng.int(2009, 2019) : rng.int(1934, 2004);
  const month = rng.int(1, 12);
  const day = rng.int(1, 28);
  const p: Person = { first, middle, last, suffix, birthDate: iso(year, month, day), gender };
  return options.ascii ? { ...p, first: unaccent(p.first), middle: p.middle && unaccent(p.middle), last: unaccent(p.last) } : p;
}

export const clinician = (rng: Rng): Other => ({ first: rng.pick(CLINICIAN_FIRST), last: rng.pick(CLINICIAN_LAST), credential: rng.pick(['MD', 'DO', 'NP', 'PA-C']) });

// A parent: the child's last name, another first name (the decoy that shares the patient's surname).
export const guardian = (rng: Rng, child: Person): Other => ({ first: rng.pick(child.gender === 'F' ? MALE : FEMALE), last: child.last, credential: '' });

// What a correct extraction returns: the legal name without suffix, the middle name or initial as printed.
export const truthOf = (p: Person, options: { gender?: boolean; birthDate?: boolean } = {}): ExtractedPatient => ({
  firstName: p.first,
  middleName: p.middle,
  lastName: p.last,
  birthDate: options.birthDate === false ? null : p.birthDate,
  gender: options.gender === false ? null : p.gender,
});

// ---- How documents print names, dates and genders ----

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export type DateStyle = 'mm/dd/yyyy' | 'm/d/yyyy' | 'mm-dd-yyyy' | 'mm/dd/yy' | 'month d, yyyy' | 'mon d, yyyy' | 'mon. d yyyy';

export function usDate(isoDate: string, style: DateStyle): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  const mm = String(m).padStart(2, '0');
  const dd = String(d).padStart(2, '0');
  switch (style) {
    case 'mm/dd/yyyy':
      return `${mm}/${dd}/${y}`;
    case 'm/d/yyyy':
      return `${m}/${d}/${y}`;
    case 'mm-dd-yyyy':
      return `${mm}-${dd}-${y}`;
    case 'mm/dd/yy':
      return `${mm}/${dd}/${String(y).slice(2)}`;
    case 'month d, yyyy':
      return `${MONTHS[m - 1]} ${d}, ${y}`;
    case 'mon d, yyyy':
      return `${MONTHS[m - 1]!.slice(0, 3)} ${d}, ${y}`;
    case 'mon. d yyyy':
      return `${MONTHS[m - 1]!.slice(0, 3)}. ${d} ${y}`;
  }
}

export const DATE_STYLES: readonly DateStyle[] = ['mm/dd/yyyy', 'm/d/yyyy', 'mm-dd-yyyy', 'mm/dd/yy', 'month d, yyyy', 'mon d, yyyy', 'mon. d yyyy'];

// A two-digit year is only printed for people it cannot be mistaken for (born within the last 90 years).
export const dateStyleFor = (rng: Rng, p: Person, styles: readonly DateStyle[] = DATE_STYLES): DateStyle => {
  const style = rng.pick(styles);
  return style === 'mm/dd/yy' && Number(p.birthDate.slice(0, 4)) < 1940 ? 'mm/dd/yyyy' : style;
};

export type NameStyle = 'Last, First M' | 'LAST, FIRST M' | 'First M Last' | 'First M. Last' | 'FIRST M LAST';

const middleAs = (p: Person, dotted: boolean) => (p.middle ? (p.middle.length === 1 && dotted ? `${p.middle}.` : p.middle) : '');
const join = (...parts: string[]) => parts.filter(Boolean).join(' ');

export function nameAs(p: Person, style: NameStyle): string {
  switch (style) {
    case 'Last, First M':
      return `${join(p.last, p.suffix ?? '')}, ${join(p.first, middleAs(p, false))}`;
    case 'LAST, FIRST M':
      return nameAs(p, 'Last, First M').toUpperCase();
    case 'First M Last':
      return join(p.first, middleAs(p, false), p.last, p.suffix ?? '');
    case 'First M. Last':
      return join(p.first, middleAs(p, true), p.last, p.suffix ? `${p.suffix}` : '');
    case 'FIRST M LAST':
      return nameAs(p, 'First M Last').toUpperCase();
  }
}

export const NAME_STYLES: readonly NameStyle[] = ['Last, First M', 'LAST, FIRST M', 'First M Last', 'First M. Last', 'FIRST M LAST'];

export const otherName = (o: Other, withCredential = true) => `${o.first} ${o.last}${withCredential && o.credential ? `, ${o.credential}` : ''}`;

export type GenderStyle = 'M/F' | 'Male/Female' | 'MALE/FEMALE';
export const genderAs = (g: 'M' | 'F', style: GenderStyle) => (style === 'M/F' ? g : style === 'Male/Female' ? (g === 'M' ? 'Male' : 'Female') : g === 'M' ? 'MALE' : 'FEMALE');
