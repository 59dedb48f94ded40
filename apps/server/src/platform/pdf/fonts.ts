import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';

// The fonts that generated PDFs embed: Noto, from the @fontsource packages, in a fallback chain. Each
// package is cut in slices by unicode range (as browsers load them); a slice is read, unpacked and parsed
// once per process (per worker thread), only when a character first needs it, and shared by every document.

export type FontWeight = 400 | 700;

export interface FontStyle {
  weight: FontWeight;
  italic: boolean;
}

// What is used of fontkit: its bundled typings lack glyph ids, advances and layout's script and direction.
export interface FontkitGlyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

export interface FontkitFont {
  unitsPerEm: number;
  hasGlyphForCodePoint(codePoint: number): boolean;
  glyphForCodePoint(codePoint: number): FontkitGlyph;
  layout(text: string, features?: undefined, script?: string, language?: string, direction?: 'ltr' | 'rtl'): { glyphs: FontkitGlyph[] };
}

// One font file: a slice of a family at one weight and style.
export interface Face {
  key: string;
  // Arabic and Hebrew (and Devanagari) go through fontkit's OpenType shaping: joining forms, RTL order.
  shaping: boolean;
  // The unpacked TrueType bytes pdf-lib subsets from.
  bytes: Uint8Array;
  font: FontkitFont;
}

interface Family {
  packageName: string;
  // The slices of unicode.json that belong to the chain; 'numbered' is every "[n]" slice (CJK, emoji).
  subsets: readonly string[] | 'numbered';
  shaping: readonly string[];
  italic: boolean;
}

// Order is precedence: a character is drawn with the first family whose slice has it. Emoji come before CJK
// so that a smiley is an emoji; Noto Sans SC last, it also holds many symbols.
const FAMILIES: readonly Family[] = [
  {
    packageName: '@fontsource/noto-sans',
    subsets: ['latin', 'latin-ext', 'vietnamese', 'greek', 'greek-ext', 'cyrillic', 'cyrillic-ext', 'devanagari'],
    shaping: ['devanagari'],
    italic: true,
  },
  { packageName: '@fontsource/noto-sans-hebrew', subsets: ['hebrew'], shaping: ['hebrew'], italic: false },
  { packageName: '@fontsource/noto-sans-arabic', subsets: ['arabic', 'symbols', 'math'], shaping: ['arabic'], italic: false },
  { packageName: '@fontsource/noto-emoji', subsets: 'numbered', shaping: [], italic: false },
  { packageName: '@fontsource/noto-sans-sc', subsets: 'numbered', shaping: [], italic: false },
];

interface Slice {
  family: Family;
  subset: string;
  ranges: [number, number][];
}

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

// "U+0000-00FF,U+0131" → [[0, 255], [305, 305]]
function parseRanges(text: string): [number, number][] {
  return text.split(',').map((part) => {
    const [lo, hi] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(lo!, 16), parseInt(hi ?? lo!, 16)];
  });
}

let slices: Slice[] | undefined;
function allSlices(): Slice[] {
  slices ??= FAMILIES.flatMap((family) => {
    const unicode = JSON.parse(readFileSync(path.join(packageDir(family.packageName), 'unicode.json'), 'utf8')) as Record<string, string>;
    const keys = family.subsets === 'numbered' ? Object.keys(unicode).filter((k) => /^\[\d+\]$/.test(k)) : family.subsets.filter((k) => k in unicode);
    return keys.map((subset) => ({ family, subset, ranges: parseRanges(unicode[subset]!) }));
  });
  return slices;
}

// WOFF 1.0 → the TrueType font it wraps. fontkit reads WOFF too, but inflates a whole table on every glyph
// it reads; unpacked once here, documents share one parsed font.
export function woffToSfnt(woff: Uint8Array): Uint8Array {
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  if (view.getUint32(0) !== 0x774f4646) throw new Error('Not a WOFF font.');
  const tables = new Map<string, Uint8Array>();
  for (let i = 0; i < view.getUint16(12); i++) {
    const at = 44 + i * 20;
    const [offset, compLength, length] = [view.getUint32(at + 4), view.getUint32(at + 8), view.getUint32(at + 12)];
    const stored = woff.subarray(offset, offset + compLength);
    const tag = String.fromCharCode(...woff.subarray(at, at + 4));
    tables.set(tag, compLength < length ? new Uint8Array(inflateSync(stored)) : stored.slice());
  }
  alignGlyphs(tables);
  return writeSfnt(view.getUint32(4), tables);
}

// fontkit's subsetter writes short loca offsets (halved) whenever its glyf table is under 64 KB, so a glyph
// of odd length (Google's fonts have them: their loca is long) shifts every glyph after it and the subset
// draws nothing. Padding each glyph to 4 bytes, as the TrueType spec recommends, keeps the offsets even.
function alignGlyphs(tables: Map<string, Uint8Array>): void {
  const [head, maxp, loca, glyf] = ['head', 'maxp', 'loca', 'glyf'].map((tag) => tables.get(tag));
  if (!head || !maxp || !loca || !glyf) return;
  const headView = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const locaView = new DataView(loca.buffer, loca.byteOffset, loca.byteLength);
  const numGlyphs = new DataView(maxp.buffer, maxp.byteOffset).getUint16(4);
  const long = headView.getInt16(50) === 1;
  const offsetOf = (i: number) => (long ? locaView.getUint32(i * 4) : locaView.getUint16(i * 2) * 2);
  const padded = (n: number) => (n + 3) & ~3;
  let size = 0;
  for (let i = 0; i < numGlyphs; i++) size += padded(offsetOf(i + 1) - offsetOf(i));
  const newGlyf = new Uint8Array(size);
  const newLoca = new Uint8Array((numGlyphs + 1) * 4);
  const newLocaView = new DataView(newLoca.buffer);
  let at = 0;
  for (let i = 0; i < numGlyphs; i++) {
    newLocaView.setUint32(i * 4, at);
    newGlyf.set(glyf.subarray(offsetOf(i), offsetOf(i + 1)), at);
    at += padded(offsetOf(i + 1) - offsetOf(i));
  }
  newLocaView.setUint32(numGlyphs * 4, at);
  headView.setInt16(50, 1);
  tables.set('glyf', newGlyf);
  tables.set('loca', newLoca);
}

function writeSfnt(flavor: number, tables: Map<string, Uint8Array>): Uint8Array {
  const numTables = tables.size;
  const headerSize = 12 + 16 * numTables;
  const padded = (n: number) => (n + 3) & ~3;
  const out = new Uint8Array(headerSize + [...tables.values()].reduce((n, t) => n + padded(t.length), 0));
  const write = new DataView(out.buffer);
  const entrySelector = Math.floor(Math.log2(numTables));
  write.setUint32(0, flavor);
  write.setUint16(4, numTables);
  write.setUint16(6, 16 * 2 ** entrySelector);
  write.setUint16(8, entrySelector);
  write.setUint16(10, numTables * 16 - 16 * 2 ** entrySelector);
  let offset = headerSize;
  // Directory entries sorted by tag, as the format asks; checksums are left 0 (no reader here checks them).
  [...tables.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .forEach(([tag, data], i) => {
      const at = 12 + i * 16;
      for (let k = 0; k < 4; k++) write.setUint8(at + k, tag.charCodeAt(k));
      write.setUint32(at + 8, offset);
      write.setUint32(at + 12, data.length);
      out.set(data, offset);
      offset += padded(data.length);
    });
  return out;
}

const faces = new Map<string, Face | null>();

function loadFace(slice: Slice, style: FontStyle): Face | null {
  const { family, subset } = slice;
  const id = family.subsets === 'numbered' ? subset.slice(1, -1) : subset;
  const dir = path.join(packageDir(family.packageName), 'files');
  const name = family.packageName.split('/')[1]!;
  // A family without italics (or a weight) is drawn upright (or regular): the character still shows.
  const candidates = [
    `${name}-${id}-${style.weight}-${style.italic && family.italic ? 'italic' : 'normal'}.woff`,
    `${name}-${id}-${style.weight}-normal.woff`,
    `${name}-${id}-400-normal.woff`,
  ];
  const file = candidates.map((c) => path.join(dir, c)).find((c) => existsSync(c));
  const key = file ?? `${name}-${id}-missing`;
  if (faces.has(key)) return faces.get(key)!;
  let face: Face | null = null;
  if (file) {
    const bytes = woffToSfnt(readFileSync(file));
    const font = fontkit.create(bytes) as unknown as FontkitFont & CachingFont;
    glyphsWithTheirCharacters(font);
    face = { key, shaping: family.shaping.includes(subset), bytes, font };
  }
  faces.set(key, face);
  return face;
}

interface CachingFont {
  getGlyph(id: number, codePoints?: number[]): FontkitGlyph | null;
}

// fontkit caches one glyph object per id, with the characters of its first request: a glyph first met as a
// component of another ("e" inside "ë", while subsetting) keeps none, and pdf-lib writes a glyph's characters
// into the text a reader extracts ("Name" read back as "Nam"). Each request gets a view of the cached glyph
// that carries the characters it asked for.
function glyphsWithTheirCharacters(font: CachingFont): void {
  const cached = font.getGlyph.bind(font);
  font.getGlyph = (id, codePoints) => {
    const glyph = cached(id, codePoints);
    if (!glyph || !codePoints || (glyph.codePoints.length === codePoints.length && glyph.codePoints.every((c, i) => c === codePoints[i]))) return glyph;
    return Object.create(glyph, { codePoints: { value: codePoints } }) as FontkitGlyph;
  };
}

const styleKey = (style: FontStyle) => `${style.weight}${style.italic ? 'i' : ''}`;
const chosen = new Map<string, Map<number, Face | null>>();

// The face that draws a code point in a style: the first slice of the chain whose range holds it and whose
// font really has the glyph (ranges are a hint); null when no font has it.
export function faceFor(codePoint: number, style: FontStyle): Face | null {
  let byCodePoint = chosen.get(styleKey(style));
  if (!byCodePoint) chosen.set(styleKey(style), (byCodePoint = new Map<number, Face | null>()));
  const known = byCodePoint.get(codePoint);
  if (known !== undefined) return known;
  let found: Face | null = null;
  for (const slice of allSlices()) {
    if (!slice.ranges.some(([lo, hi]) => codePoint >= lo && codePoint <= hi)) continue;
    const face = loadFace(slice, style);
    if (face?.font.hasGlyphForCodePoint(codePoint)) {
      found = face;
      break;
    }
  }
  byCodePoint.set(codePoint, found);
  return found;
}
