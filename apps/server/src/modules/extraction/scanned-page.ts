import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { PDFDocument } from 'pdf-lib';

// Test and benchmark support: a "scanned" PDF page (a JPEG image of typed text, no text layer), drawn
// without a canvas package. Glyph outlines come from the Liberation Sans TrueType font that pdfjs-dist
// ships; a small scanline rasterizer fills them.

interface Font {
  unitsPerEm: number;
  glyphOf(char: string): number;
  advance(glyph: number): number;
  contours(glyph: number): [number, number][][];
}

function parseTrueType(buffer: Buffer): Font {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const tables = new Map<string, number>();
  for (let i = 0; i < view.getUint16(4); i++) {
    const at = 12 + i * 16;
    tables.set(buffer.toString('latin1', at, at + 4), view.getUint32(at + 8));
  }
  const table = (tag: string) => tables.get(tag)!;
  const unitsPerEm = view.getUint16(table('head') + 18);
  const longLoca = view.getInt16(table('head') + 50) === 1;
  const metrics = view.getUint16(table('hhea') + 34);
  const loca = (glyph: number) => (longLoca ? view.getUint32(table('loca') + glyph * 4) : view.getUint16(table('loca') + glyph * 2) * 2);

  // cmap format 4 (Windows Unicode BMP).
  const cmap = table('cmap');
  let sub = 0;
  for (let i = 0; i < view.getUint16(cmap + 2); i++) {
    const at = cmap + 4 + i * 8;
    if (view.getUint16(at) === 3 && view.getUint16(at + 2) === 1) sub = cmap + view.getUint32(at + 4);
  }
  const segments = view.getUint16(sub + 6) / 2;
  const ends = sub + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const ranges = deltas + segments * 2;
  const glyphOf = (char: string) => {
    const code = char.charCodeAt(0);
    for (let s = 0; s < segments; s++) {
      if (code > view.getUint16(ends + s * 2)) continue;
      const start = view.getUint16(starts + s * 2);
      if (code < start) return 0;
      const rangeOffset = view.getUint16(ranges + s * 2);
      if (rangeOffset === 0) return (code + view.getInt16(deltas + s * 2)) & 0xffff;
      const glyph = view.getUint16(ranges + s * 2 + rangeOffset + (code - start) * 2);
      return glyph === 0 ? 0 : (glyph + view.getInt16(deltas + s * 2)) & 0xffff;
    }
    return 0;
  };
  const advance = (glyph: number) => view.getUint16(table('hmtx') + Math.min(glyph, metrics - 1) * 4);

  const contours = (glyph: number): [number, number][][] => {
    const at = table('glyf') + loca(glyph);
    if (loca(glyph + 1) === loca(glyph)) return [];
    const count = view.getInt16(at);
    if (count < 0) return []; // composite glyphs (accents) are not needed here
    const endPoints = Array.from({ length: count }, (_, i) => view.getUint16(at + 10 + i * 2));
    const points = (endPoints.at(-1) ?? -1) + 1;
    let p = at + 10 + count * 2;
    p += 2 + view.getUint16(p);
    const flags: number[] = [];
    while (flags.length < points) {
      const flag = view.getUint8(p++);
      flags.push(flag);
      if (flag & 8) for (let r = view.getUint8(p++); r > 0; r--) flags.push(flag);
    }
    const coordinates = (short: number, same: number) => {
      const out: number[] = [];
      let value = 0;
      for (const flag of flags) {
        if (flag & short) value += flag & same ? view.getUint8(p++) : -view.getUint8(p++);
        else if (!(flag & same)) {
          value += view.getInt16(p);
          p += 2;
        }
        out.push(value);
      }
      return out;
    };
    const xs = coordinates(2, 16);
    const ys = coordinates(4, 32);
    const result: [number, number][][] = [];
    let first = 0;
    for (const last of endPoints) {
      const pts = Array.from({ length: last - first + 1 }, (_, k) => ({ x: xs[first + k]!, y: ys[first + k]!, on: (flags[first + k]! & 1) === 1 }));
      first = last + 1;
      // Quadratic B-splines: off-curve neighbours imply an on-curve point between them.
      const expanded: typeof pts = [];
      pts.forEach((pt, k) => {
        const prev = pts[(k + pts.length - 1) % pts.length]!;
        if (!pt.on && !prev.on) expanded.push({ x: (pt.x + prev.x) / 2, y: (pt.y + prev.y) / 2, on: true });
        expanded.push(pt);
      });
      const start = expanded.findIndex((pt) => pt.on);
      const ring = [...expanded.slice(start), ...expanded.slice(0, start)];
      const polygon: [number, number][] = [];
      for (let k = 0; k < ring.length; k++) {
        const pt = ring[k]!;
        if (pt.on) {
          polygon.push([pt.x, pt.y]);
          continue;
        }
        const a = ring[k - 1]!;
        const b = ring[(k + 1) % ring.length]!;
        for (let t = 0.2; t < 1; t += 0.2) polygon.push([(1 - t) ** 2 * a.x + 2 * (1 - t) * t * pt.x + t * t * b.x, (1 - t) ** 2 * a.y + 2 * (1 - t) * t * pt.y + t * t * b.y]);
      }
      result.push(polygon);
    }
    return result;
  };
  return { unitsPerEm, glyphOf, advance, contours };
}

let font: Font | undefined;
const liberationSans = () =>
  (font ??= parseTrueType(readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf'))));

// A white page (200 dpi Letter) with the lines typed on it, as 8-bit grey pixels.
export function typedPage(lines: string[], options: { width?: number; height?: number; size?: number } = {}) {
  const { width = 1700, height = 2200, size = 34 } = options;
  const f = liberationSans();
  const scale = size / f.unitsPerEm;
  const edges: { x0: number; y0: number; x1: number; y1: number; dir: number }[] = [];
  lines.forEach((line, row) => {
    let penX = 150;
    const baseline = 200 + row * size * 1.6;
    for (const char of line) {
      const glyph = f.glyphOf(char);
      for (const polygon of f.contours(glyph)) {
        polygon.forEach(([x, y], k) => {
          const [nx, ny] = polygon[(k + 1) % polygon.length]!;
          const a = { x: penX + x * scale, y: baseline - y * scale };
          const b = { x: penX + nx * scale, y: baseline - ny * scale };
          if (a.y !== b.y) edges.push(a.y < b.y ? { x0: a.x, y0: a.y, x1: b.x, y1: b.y, dir: 1 } : { x0: b.x, y0: b.y, x1: a.x, y1: a.y, dir: -1 });
        });
      }
      penX += f.advance(glyph) * scale;
    }
  });
  const pixels = new Uint8Array(width * height).fill(255);
  for (let y = 0; y < height; y++) {
    const cy = y + 0.5;
    const crossings = edges
      .filter((e) => cy >= e.y0 && cy < e.y1)
      .map((e) => ({ x: e.x0 + ((cy - e.y0) / (e.y1 - e.y0)) * (e.x1 - e.x0), dir: e.dir }))
      .sort((a, b) => a.x - b.x);
    let winding = 0;
    for (let i = 0; i < crossings.length - 1; i++) {
      winding += crossings[i]!.dir;
      if (winding === 0) continue;
      for (let x = Math.max(0, Math.round(crossings[i]!.x)); x < Math.min(width, Math.round(crossings[i + 1]!.x)); x++) pixels[y * width + x] = 0;
    }
  }
  return { width, height, pixels };
}

// A one-page PDF holding only a JPEG of the typed lines: what a scanner or fax-to-PDF service makes.
export async function scannedPdf(lines: string[]): Promise<Uint8Array> {
  const { width, height, pixels } = typedPage(lines);
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < pixels.length; i++) rgba.set([pixels[i]!, pixels[i]!, pixels[i]!, 255], i * 4);
  const image = jpeg.encode({ width, height, data: rgba }, 85);
  const pdf = await PDFDocument.create();
  const embedded = await pdf.embedJpg(image.data);
  pdf.addPage([612, 792]).drawImage(embedded, { x: 0, y: 0, width: 612, height: 792 });
  return pdf.save();
}
