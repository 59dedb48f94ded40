// Every frame a decoder would allocate pixels for, read from the headers only, so the pixel budget covers
// each of them before anything decodes: PNG (IHDR and every APNG frame), JPEG (every frame header of the
// codestream), GIF (the screen and every frame, which may be larger than the screen), TIFF (every page,
// each value read as the TIFF decoder reads it), WebP (canvas and every frame) and BMP. The format is
// taken from the bytes, never from the file's name.

export interface FrameSize {
  width: number;
  height: number;
}

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'tiff' | 'webp' | 'bmp';

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
const code = (text: string) => [...text].map((c) => c.charCodeAt(0));

export function imageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, code('GIF8'))) return 'gif';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(bytes, code('RIFF')) && startsWith(bytes, code('WEBP'), 8)) return 'webp';
  if (startsWith(bytes, code('BM'))) return 'bmp';
  return undefined;
}

// Every frame's stored size; undefined when the bytes are no image format known here or its first header
// cannot be read (a decoder then fails at once). A header cut short keeps the frames read before it.
export function imageFrames(bytes: Uint8Array): FrameSize[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: FrameSize[] = [];
  try {
    switch (imageFormat(bytes)) {
      case 'png':
        pngFrames(bytes, view, frames);
        break;
      case 'jpeg':
        jpegFrames(bytes, view, frames);
        break;
      case 'gif':
        gifFrames(bytes, view, frames);
        break;
      case 'tiff':
        frames.push(...tiffPageChain(view).pages);
        break;
      case 'webp':
        webpFrames(bytes, view, frames);
        break;
      case 'bmp':
        // BITMAPINFOHEADER and later: signed 32-bit width and height (negative height: rows top-down).
        frames.push({ width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) });
        break;
      case undefined:
        return undefined;
    }
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return frames.length > 0 ? frames : undefined;
}

const isType = (bytes: Uint8Array, at: number, type: string) => startsWith(bytes, code(type), at);

// Every IHDR (a decoder keeps the last one it meets) and every APNG frame control chunk, in the whole file.
function pngFrames(bytes: Uint8Array, view: DataView, frames: FrameSize[]): void {
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = view.getUint32(at);
    if (isType(bytes, at + 4, 'IHDR')) frames.push({ width: view.getUint32(at + 8), height: view.getUint32(at + 12) });
    else if (isType(bytes, at + 4, 'fcTL')) frames.push({ width: view.getUint32(at + 12), height: view.getUint32(at + 16) });
    else if (isType(bytes, at + 4, 'IEND')) break;
    at += 12 + length;
  }
}

// Start-of-frame markers C0–CF, except DHT (C4), JPG (C8) and DAC (CC), which share the range; DHP (DE)
// announces a hierarchical image's full size.
const isFrameHeader = (marker: number) => (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) || marker === 0xde;

// The whole codestream up to its end marker: scans' entropy-coded data is skipped to the next marker.
function jpegFrames(bytes: Uint8Array, view: DataView, frames: FrameSize[]): void {
  for (let at = 2; at + 4 <= bytes.length; ) {
    if (bytes[at] !== 0xff) {
      const next = bytes.indexOf(0xff, at);
      if (next < 0) return;
      at = next;
      continue;
    }
    const marker = bytes[at + 1]!;
    if (marker === 0xd9) return;
    // Fill bytes; a stuffed 0xFF in scan data, restart markers, TEM and SOI carry no length.
    if (marker === 0xff) at++;
    else if (marker === 0x00 || marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) at += 2;
    else {
      if (isFrameHeader(marker)) frames.push({ height: view.getUint16(at + 5), width: view.getUint16(at + 7) });
      at += 2 + view.getUint16(at + 2);
    }
  }
}

const colorTableBytes = (packed: number) => (packed & 0x80 ? 3 * (1 << ((packed & 7) + 1)) : 0);

// The logical screen and every image descriptor: a frame may announce far more pixels than the screen.
function gifFrames(bytes: Uint8Array, view: DataView, frames: FrameSize[]): void {
  frames.push({ width: view.getUint16(6, true), height: view.getUint16(8, true) });
  const skipSubBlocks = (from: number) => {
    let at = from;
    while (at < bytes.length && bytes[at] !== 0) at += 1 + bytes[at]!;
    return at + 1;
  };
  let at = 13 + colorTableBytes(view.getUint8(10));
  while (at < bytes.length) {
    const block = bytes[at];
    if (block === 0x21) at = skipSubBlocks(at + 2);
    else if (block === 0x2c) {
      frames.push({ width: view.getUint16(at + 5, true), height: view.getUint16(at + 7, true) });
      // The descriptor, its colour table, the LZW code size, then the data sub-blocks.
      at = skipSubBlocks(at + 10 + colorTableBytes(view.getUint8(at + 9)) + 1);
    } else return;
  }
}

const latin1 = new TextDecoder('latin1');

// A TIFF entry's first value as the TIFF decoder (UTIF) reads it: values of up to 4 bytes are held in
// the entry itself, longer ones at the offset it holds; fractions and floats are not refused there.
export function tiffFirstValue(view: DataView, entry: number, little: boolean): number | undefined {
  const type = view.getUint16(entry + 2, little);
  const count = view.getUint32(entry + 4, little);
  const offset = view.getUint32(entry + 8, little);
  const at = (bytesEach: number) => (count * bytesEach <= 4 ? entry + 8 : offset);
  if (count === 0) return undefined;
  switch (type) {
    case 1:
    case 7:
      return view.getUint8(at(1));
    case 2: {
      // ASCII: the decoder keeps the text (or its bytes, from a first byte over 127), read as a number.
      const start = at(1);
      const first = view.getUint8(start);
      if (first >= 128) return first;
      return Number(latin1.decode(new Uint8Array(view.buffer, view.byteOffset + start, Math.max(0, Math.min(count - 1, view.byteLength - start)))));
    }
    case 3:
      return view.getUint16(at(2), little);
    case 4:
      return view.getUint32(at(4), little);
    case 5:
      return view.getUint32(offset, little) / view.getUint32(offset + 4, little);
    case 8:
      return view.getInt16(at(2), little);
    case 9:
      return view.getInt32(at(4), little);
    case 10:
      return view.getInt32(offset, little) / view.getInt32(offset + 4, little);
    case 11:
      return view.getFloat32(offset, little);
    case 12:
      return view.getFloat64(offset, little);
    default:
      return undefined;
  }
}

// TIFF pages form a chain of IFDs; a chain that loops or never ends is cut (no real fax has 10000 pages,
// nor a million tags: overlapping IFDs of 65535 entries each would otherwise hold the API's thread).
const MAX_TIFF_PAGES = 10_000;
const MAX_TIFF_ENTRIES = 1_000_000;

export interface TiffPage extends FrameSize {
  // EXIF orientation tag (274), as stored.
  orientation: number | undefined;
}

// Every page of the IFD chain with a width and a height; `complete` is false when the chain loops, runs
// past the end of the file or past the limits above (the renditions then refuse to hand it to a decoder).
export function tiffPageChain(view: DataView): { pages: TiffPage[]; complete: boolean } {
  const little = view.getUint16(0) === 0x4949;
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  const pages: TiffPage[] = [];
  const seen = new Set<number>();
  let entries = 0;
  try {
    for (let ifd = u32(4); ifd !== 0; ifd = u32(ifd + 2 + u16(ifd) * 12)) {
      entries += u16(ifd);
      if (seen.has(ifd) || seen.size >= MAX_TIFF_PAGES || entries > MAX_TIFF_ENTRIES) return { pages, complete: false };
      seen.add(ifd);
      const page: Partial<TiffPage> = {};
      for (let i = 0, entry = ifd + 2; i < u16(ifd); i++, entry += 12) {
        const tag = u16(entry);
        if (tag === 256) page.width = tiffFirstValue(view, entry, little);
        else if (tag === 257) page.height = tiffFirstValue(view, entry, little);
        else if (tag === 274) page.orientation = tiffFirstValue(view, entry, little);
      }
      if (page.width !== undefined && page.height !== undefined) pages.push({ width: page.width, height: page.height, orientation: page.orientation });
    }
  } catch (error) {
    // A chain that runs off the end still counts the pages read before it.
    if (!(error instanceof RangeError) || pages.length === 0) throw error;
    return { pages, complete: false };
  }
  return { pages, complete: true };
}

// RIFF chunks: VP8 (lossy: 14-bit sizes in the key frame header), VP8L (lossless: 14-bit sizes minus
// one), VP8X (the canvas, 24-bit sizes minus one) and ANMF (each animation frame, 24-bit sizes minus one).
function webpFrames(bytes: Uint8Array, view: DataView, frames: FrameSize[]): void {
  const u24 = (at: number) => view.getUint16(at, true) | (view.getUint8(at + 2) << 16);
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at + 4, true);
    const data = at + 8;
    if (isType(bytes, at, 'VP8 ')) frames.push({ width: view.getUint16(data + 6, true) & 0x3fff, height: view.getUint16(data + 8, true) & 0x3fff });
    else if (isType(bytes, at, 'VP8L')) {
      const bits = view.getUint32(data + 1, true);
      frames.push({ width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 });
    } else if (isType(bytes, at, 'VP8X')) frames.push({ width: u24(data + 4) + 1, height: u24(data + 7) + 1 });
    else if (isType(bytes, at, 'ANMF')) frames.push({ width: u24(data + 6) + 1, height: u24(data + 9) + 1 });
    // ANMF holds the frame's own VP8/VP8L chunk after its 16-byte header; chunks are padded to even sizes.
    at = isType(bytes, at, 'ANMF') ? data + 16 : data + size + (size & 1);
  }
}
