import { deflateSync } from 'node:zlib';
import {
  beginText,
  Cache,
  CustomFontEmbedder,
  endText,
  moveText,
  PDFFont,
  PDFHexString,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingColor,
  setFontAndSize,
  showText,
  StandardFontEmbedder,
  StandardFonts,
  type Color,
  type PDFContext,
  type PDFDocument,
  type PDFName,
  type PDFOperator,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import { faceFor, type Face, type FontkitGlyph, type FontStyle } from './fonts.ts';

// Text in generated PDFs, in any script: each line is cut into runs by the font of the chain (fonts.ts) that
// has its characters; only the fonts a document uses are embedded, subset to the glyphs it draws. Widths
// are measured on the same runs that are drawn, so wrapping and alignment match the page.
//
// What is handled: any character of Noto Sans (Latin, Vietnamese, Greek, Cyrillic, Devanagari), Hebrew,
// Arabic, Noto Sans SC (Chinese ideographs, Japanese kana, many symbols; not Hangul nor Thai) and emoji;
// Arabic contextual shaping (initial/medial/final forms, lam-alef) through fontkit's OpenType shaper;
// right-to-left runs put in visual order by a simplified bidi algorithm (base direction left-to-right,
// numbers inside RTL text kept left-to-right, brackets mirrored). A character no font has is drawn as
// U+FFFD (a visible "�"), never '?' and never an error.
// What is not: pdf-lib draws glyph advances only, so OpenType positioning (kerning, mark attachment) is
// dropped: Arabic/Hebrew vowel marks sit at their default place. Explicit bidi controls, zero-width joiners
// and variation selectors are removed: an emoji ZWJ sequence or a flag shows as its parts.

export type TextStyle = 'regular' | 'bold' | 'italic' | 'boldItalic';

const STYLES: Record<TextStyle, FontStyle> = {
  regular: { weight: 400, italic: false },
  bold: { weight: 700, italic: false },
  italic: { weight: 400, italic: true },
  boldItalic: { weight: 700, italic: true },
};

const COURIER: Record<TextStyle, StandardFonts> = {
  regular: StandardFonts.Courier,
  bold: StandardFonts.CourierBold,
  italic: StandardFonts.CourierOblique,
  boldItalic: StandardFonts.CourierBoldOblique,
};

export interface PdfTextOptions {
  // Courier where it has the characters (Windows-1252), so a text file's columns stay aligned; Noto for the rest.
  monospace?: boolean;
}

export interface DrawOptions {
  x: number;
  y: number;
  size: number;
  style?: TextStyle;
  color?: Color;
}

type RunFace = Face | StandardFonts;

interface Run {
  face: RunFace;
  text: string;
}

const RTL_LETTER = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}](?<=\p{L})/u;
const RTL_ANY = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]|\p{Script=Hebrew}|\p{Script=Arabic}/u;
const MIRRORED: Record<string, string> = { '(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '<': '>', '>': '<', '«': '»', '»': '«', '‹': '›', '›': '‹' };
const REPLACEMENT = '\uFFFD';
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

// One line as drawn: composed (NFC, so "ễ" is one glyph), invisible format characters removed, controls as spaces.
const cleanLine = (text: string) =>
  text.normalize('NFC').replace(/\p{Default_Ignorable_Code_Point}/gu, '').replace(/\p{Cc}/gu, ' ');

// --- glyphs and widths of one face (shared by every document) ---

const cmapGlyphs = new WeakMap<Face, Map<number, FontkitGlyph>>();
// Shaping is the slow part of Arabic and Hebrew text, and a run is measured before it is drawn: kept per face.
const shapedRuns = new WeakMap<Face, Map<string, FontkitGlyph[]>>();

function glyphsOf(face: Face, text: string): FontkitGlyph[] {
  if (face.shaping) {
    let shaped = shapedRuns.get(face);
    if (!shaped) shapedRuns.set(face, (shaped = new Map<string, FontkitGlyph[]>()));
    const known = shaped.get(text);
    if (known) return known;
    try {
      // Logical order in; fontkit shapes and, for RTL, returns the glyphs in visual order.
      const glyphs = face.font.layout(text, undefined, undefined, undefined, RTL_LETTER.test(text) ? 'rtl' : 'ltr').glyphs;
      if (shaped.size >= 5000) shaped.clear();
      shaped.set(text, glyphs);
      return glyphs;
    } catch {
      // A shaper failure leaves the characters unshaped rather than losing the document.
    }
  }
  // No shaping needed: a cached character-to-glyph lookup, many times faster than fontkit's layout.
  let cache = cmapGlyphs.get(face);
  if (!cache) cmapGlyphs.set(face, (cache = new Map<number, FontkitGlyph>()));
  const glyphs: FontkitGlyph[] = [];
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    let glyph = cache.get(codePoint);
    if (!glyph) cache.set(codePoint, (glyph = face.font.glyphForCodePoint(codePoint)));
    glyphs.push(glyph);
  }
  return glyphs;
}

const standardEmbedders = new Map<StandardFonts, StandardFontEmbedder>();
function standard(name: StandardFonts): StandardFontEmbedder {
  let embedder = standardEmbedders.get(name);
  if (!embedder) standardEmbedders.set(name, (embedder = StandardFontEmbedder.for(name as unknown as Parameters<typeof StandardFontEmbedder.for>[0])));
  return embedder;
}

// Per character, as pdf-lib's own measure looks each glyph up by name through the encoding.
const standardWidths = new Map<StandardFonts, Map<string, number>>();
function standardWidth(face: StandardFonts, text: string, size: number): number {
  let widths = standardWidths.get(face);
  if (!widths) standardWidths.set(face, (widths = new Map<string, number>()));
  let units = 0;
  for (const char of text) {
    let width = widths.get(char);
    if (width === undefined) widths.set(char, (width = standard(face).widthOfTextAtSize(char, 1000)));
    units += width;
  }
  return (units * size) / 1000;
}

function runWidth(face: RunFace, text: string, size: number): number {
  if (typeof face === 'string') return standardWidth(face, text, size);
  let units = 0;
  for (const glyph of glyphsOf(face, text)) units += glyph.advanceWidth;
  return (units * size) / face.font.unitsPerEm;
}

interface EncodeStream {
  push(chunk: Uint8Array | null): boolean;
  flush(): void;
}

interface FontkitSubset {
  includeGlyph(glyph: FontkitGlyph): number;
  encode(stream: EncodeStream): void;
  encodeStream(this: unknown): EncodeStream;
}

// restructure's EncodeStream, as fontkit bundles it: taken from what encodeStream() returns for an empty
// subset (whose deferred encode then does nothing).
let encodeStreamType: (new () => EncodeStream) | undefined;
function encodeStreamClass(subset: FontkitSubset): new () => EncodeStream {
  encodeStreamType ??= subset.encodeStream.call({ encode: () => undefined }).constructor as new () => EncodeStream;
  return encodeStreamType;
}

// pdf-lib's subset embedder, for a font parsed once per process: pdf-lib's own would parse the font file
// again for every document. Glyphs come from glyphsOf, so drawing and measuring agree.
class SharedFaceEmbedder extends CustomFontEmbedder {
  private readonly subset: FontkitSubset;
  private readonly used: FontkitGlyph[] = [];
  private readonly subsetIds = new Map<number, number>();

  constructor(private readonly face: Face) {
    super(face.font as never, face.bytes);
    this.subset = (face.font as unknown as { createSubset(): FontkitSubset }).createSubset();
    this.glyphCache = Cache.populatedBy(() => this.used as never);
  }

  override encodeText(text: string): PDFHexString {
    let hex = '';
    for (const glyph of glyphsOf(this.face, text)) {
      let id = this.subsetIds.get(glyph.id);
      if (id === undefined) {
        id = this.subset.includeGlyph(glyph);
        this.subsetIds.set(glyph.id, id);
        if (id > 0) this.used[id - 1] = glyph;
        this.glyphCache.invalidate();
      }
      hex += hex4(id);
    }
    return PDFHexString.of(hex);
  }

  override widthOfTextAtSize(text: string, size: number): number {
    return runWidth(this.face, text, size);
  }

  protected override isCFF(): boolean {
    return false;
  }

  protected override glyphId(glyph?: unknown): number {
    return glyph ? (this.subsetIds.get((glyph as FontkitGlyph).id) ?? -1) : -1;
  }

  // pdf-lib's ToUnicode map gives a glyph without characters (an Arabic dot the font's ccmp split off its
  // letter) an empty entry, which readers extract as a control character: it maps to WORD JOINER instead,
  // an invisible format character that text extraction skips.
  protected override embedUnicodeCmap(context: PDFContext): PDFRef {
    const entries = this.used.map((glyph, i) => `<${hex4(i + 1)}> <${utf16Hex(glyph.codePoints.length ? glyph.codePoints : [0x2060])}>`);
    const blocks: string[] = [];
    // At most 100 entries per bfchar block (PDF 32000, 9.10.3).
    for (let i = 0; i < entries.length; i += 100) blocks.push(`${Math.min(100, entries.length - i)} beginbfchar\n${entries.slice(i, i + 100).join('\n')}\nendbfchar`);
    const cmap = [
      '/CIDInit /ProcSet findresource begin',
      '12 dict begin',
      'begincmap',
      '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
      '/CMapName /Adobe-Identity-UCS def',
      '/CMapType 2 def',
      '1 begincodespacerange',
      '<0000> <ffff>',
      'endcodespacerange',
      ...blocks,
      'endcmap',
      'CMapName currentdict /CMap defineresource pop',
      'end',
      'end',
    ].join('\n');
    return context.register(context.stream(deflateSync(cmap), { Filter: 'FlateDecode' }));
  }

  // Compressed with Node's zlib rather than pdf-lib's JavaScript deflate (several times faster); Length1
  // is the unpacked size the PDF format asks of an embedded TrueType font.
  protected override async embedFontStream(context: PDFContext): Promise<PDFRef> {
    const font = await this.serializeFont();
    return context.register(context.stream(deflateSync(font), { Filter: 'FlateDecode', Length1: font.length }));
  }

  // fontkit's encodeStream() starts encoding on its browser nextTick shim, a setTimeout: each font would
  // wait a timer turn. Its encoder is synchronous, so it writes into a stream whose output is collected here.
  protected override serializeFont(): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    const stream = new (encodeStreamClass(this.subset))();
    stream.push = (chunk) => {
      if (chunk) parts.push(chunk);
      return true;
    };
    this.subset.encode(stream);
    stream.flush();
    return Promise.resolve(Buffer.concat(parts));
  }
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');
// Code points as UTF-16 code units in hex, as a ToUnicode map writes them.
const utf16Hex = (codePoints: number[]) =>
  String.fromCodePoint(...codePoints)
    .split('')
    .map((unit) => hex4(unit.charCodeAt(0)))
    .join('');

// --- bidi (simplified Unicode bidirectional algorithm, base direction left-to-right) ---

type BidiType = 'L' | 'R' | 'AN' | 'N';

// Embedding levels: 0 left-to-right, 1 right-to-left, 2 a number inside right-to-left text.
function bidiLevels(chars: string[]): number[] {
  const types: BidiType[] = [];
  let lastStrong: 'L' | 'R' = 'L';
  chars.forEach((char, i) => {
    let type: BidiType;
    if (/\p{M}/u.test(char)) type = i > 0 ? types[i - 1]! : 'N';
    else if (RTL_LETTER.test(char)) type = 'R';
    else if (/\p{L}/u.test(char)) type = 'L';
    else if (/\p{Nd}/u.test(char)) type = lastStrong === 'R' ? 'AN' : 'L';
    else type = 'N';
    if (type === 'L' || type === 'R') lastStrong = type;
    types.push(type);
  });
  // Neutrals (spaces, punctuation) take the direction of the text around them when both sides agree.
  for (let i = 0; i < types.length; ) {
    if (types[i] !== 'N') {
      i++;
      continue;
    }
    let end = i;
    while (end < types.length && types[end] === 'N') end++;
    const before = i > 0 ? types[i - 1] : 'L';
    const after = end < types.length ? types[end] : 'L';
    const rtl = before !== 'L' && after !== 'L';
    for (let k = i; k < end; k++) types[k] = rtl ? 'R' : 'L';
    i = end;
  }
  return types.map((t) => (t === 'R' ? 1 : t === 'AN' ? 2 : 0));
}

// Characters in reverse, a base character keeping its combining marks after it; brackets mirrored.
function reverseVisually(text: string): string {
  const clusters = text.match(/\P{M}\p{M}*|\p{M}+/gu) ?? [];
  return clusters
    .reverse()
    .map((c) => MIRRORED[c] ?? c)
    .join('');
}

// --- one document ---

export class PdfText {
  private readonly fonts = new Map<RunFace, PDFFont>();
  private readonly fontKeys = new WeakMap<PDFPage, Map<PDFFont, PDFName>>();
  private readonly runCache = new Map<string, Run[]>();
  private readonly charWidths = new Map<TextStyle, Map<string, number>>();

  constructor(
    private readonly pdf: PDFDocument,
    private readonly options: PdfTextOptions = {},
  ) {}

  width(text: string, size: number, style: TextStyle = 'regular'): number {
    let width = 0;
    for (const run of this.runs(text, style)) width += runWidth(run.face, run.text, size);
    return width;
  }

  // One line of text, its baseline starting at (x, y).
  draw(page: PDFPage, text: string, { x, y, size, style = 'regular', color = rgb(0, 0, 0) }: DrawOptions): void {
    const shows = this.operators(page, text, size, style);
    if (shows.length === 0) return;
    page.pushOperators(pushGraphicsState(), beginText(), setFillingColor(color), moveText(x, y), ...shows, endText(), popGraphicsState());
  }

  // The font and show operators of one line, for a caller that writes its own text object; `current` carries
  // the text object's font from line to line, so an unchanged font is not set again.
  operators(page: PDFPage, text: string, size: number, style: TextStyle = 'regular', current: { font?: PDFFont } = {}): PDFOperator[] {
    const ops: PDFOperator[] = [];
    for (const run of this.runs(text, style)) {
      const font = this.font(run.face);
      if (current.font !== font) ops.push(setFontAndSize(this.fontKey(page, font), size));
      current.font = font;
      ops.push(showText(font.encodeText(run.text)));
    }
    return ops;
  }

  // Word wrap to a width; a word wider than the width is broken between characters.
  wrap(text: string, size: number, width: number, style: TextStyle = 'regular'): string[] {
    const lines: string[] = [];
    const space = this.width(' ', size, style);
    for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
      let line = '';
      let lineWidth = 0;
      for (let word of paragraph.split(/\s+/).filter(Boolean)) {
        let wordWidth = this.width(word, size, style);
        if (line && lineWidth + space + wordWidth <= width) {
          line += ` ${word}`;
          lineWidth += space + wordWidth;
          continue;
        }
        if (line) lines.push(line);
        while (wordWidth > width) {
          const head = this.fit(word, size, width, style) || Array.from(word)[0]!;
          lines.push(head);
          word = word.slice(head.length);
          wordWidth = this.width(word, size, style);
        }
        line = word;
        lineWidth = wordWidth;
      }
      lines.push(line);
    }
    return lines;
  }

  // The longest start of the text that fits the width, cut between code points: estimated from each
  // character's own width, then settled by measuring the start as it would be drawn.
  fit(text: string, size: number, width: number, style: TextStyle = 'regular'): string {
    const chars = Array.from(text);
    let perChar = this.charWidths.get(style);
    if (!perChar) this.charWidths.set(style, (perChar = new Map<string, number>()));
    let n = 0;
    for (let used = 0; n < chars.length; n++) {
      const char = chars[n]!;
      let unit = perChar.get(char);
      if (unit === undefined) perChar.set(char, (unit = this.width(char, 1, style)));
      used += unit * size;
      if (used > width) break;
    }
    const fits = (k: number) => this.width(chars.slice(0, k).join(''), size, style) <= width;
    while (n > 0 && !fits(n)) n--;
    while (n < chars.length && fits(n + 1)) n++;
    return chars.slice(0, n).join('');
  }

  private runs(text: string, style: TextStyle): Run[] {
    const cacheKey = `${style}\u0000${text}`;
    const cached = this.runCache.get(cacheKey);
    if (cached) return cached;
    const runs = this.layoutRuns(text, style);
    if (this.runCache.size > 2000) this.runCache.clear();
    this.runCache.set(cacheKey, runs);
    return runs;
  }

  private layoutRuns(text: string, style: TextStyle): Run[] {
    const fontStyle = STYLES[style];
    const primary = this.options.monospace ? COURIER[style] : undefined;
    if (PRINTABLE_ASCII.test(text)) return text ? [{ face: primary ?? faceFor(0x41, fontStyle)!, text }] : [];

    const chars = Array.from(cleanLine(text));
    const covers = (face: RunFace, codePoint: number) =>
      typeof face === 'string' ? standard(face).encoding.canEncodeUnicodeCodePoint(codePoint) : face.font.hasGlyphForCodePoint(codePoint);
    const faces: RunFace[] = [];
    chars.forEach((char, i) => {
      const codePoint = char.codePointAt(0)!;
      const previous = faces[i - 1];
      // A combining mark stays in its base character's font when that font has it.
      if (previous && /\p{M}/u.test(char) && covers(previous, codePoint)) faces.push(previous);
      else if (primary && covers(primary, codePoint)) faces.push(primary);
      else {
        const face = faceFor(codePoint, fontStyle);
        if (face) faces.push(face);
        else {
          chars[i] = REPLACEMENT;
          faces.push(faceFor(REPLACEMENT.codePointAt(0)!, fontStyle)!);
        }
      }
    });

    // A space between two characters of one font stays in it: "שלום עולם" is one run, one text item to a reader.
    chars.forEach((char, i) => {
      if (char !== ' ' || i === 0) return;
      let next = i + 1;
      while (chars[next] === ' ') next++;
      const around = faces[i - 1]!;
      if (next < chars.length && faces[next] === around && around !== faces[i] && covers(around, 0x20)) faces[i] = around;
    });

    const levels = RTL_ANY.test(text) ? bidiLevels(chars) : chars.map(() => 0);
    const runs: { face: RunFace; level: number; text: string; reversed: boolean }[] = [];
    chars.forEach((char, i) => {
      const last = runs[runs.length - 1];
      if (last && last.face === faces[i] && last.level === levels[i]) last.text += char;
      else runs.push({ face: faces[i]!, level: levels[i]!, text: char, reversed: false });
    });
    // Visual order: every sequence at level 2 or more is reversed, then every sequence at level 1 or more.
    for (const minimum of [2, 1]) {
      for (let i = 0; i < runs.length; ) {
        if (runs[i]!.level < minimum) {
          i++;
          continue;
        }
        let end = i;
        while (end < runs.length && runs[end]!.level >= minimum) end++;
        const reversed = runs.slice(i, end).reverse();
        reversed.forEach((run) => (run.reversed = !run.reversed));
        runs.splice(i, end - i, ...reversed);
        i = end;
      }
    }
    // A right-to-left run the shaper handles goes in logical order (it shapes, then reverses); others are reversed here.
    return runs.map(({ face, text: runText, reversed }) => ({
      face,
      text: reversed && !(typeof face !== 'string' && face.shaping && RTL_LETTER.test(runText)) ? reverseVisually(runText) : runText,
    }));
  }

  private font(face: RunFace): PDFFont {
    let font = this.fonts.get(face);
    if (font) return font;
    if (typeof face === 'string') font = this.pdf.embedStandardFont(face);
    else {
      font = PDFFont.of(this.pdf.context.nextRef(), this.pdf, new SharedFaceEmbedder(face));
      // What PDFDocument.embedFont does after making its embedder: the document embeds its fonts on save.
      const documentFonts = (this.pdf as unknown as { fonts?: PDFFont[] }).fonts;
      if (!Array.isArray(documentFonts)) throw new Error('pdf-lib changed: PDFDocument.fonts is gone.');
      documentFonts.push(font);
    }
    this.fonts.set(face, font);
    return font;
  }

  private fontKey(page: PDFPage, font: PDFFont): PDFName {
    let keys = this.fontKeys.get(page);
    if (!keys) this.fontKeys.set(page, (keys = new Map<PDFFont, PDFName>()));
    let key = keys.get(font);
    if (!key) keys.set(font, (key = page.node.newFontDictionary(font.name, font.ref)));
    return key;
  }
}
