import { attachmentMessages, MAX_IMAGE_PIXELS, MAX_IMAGE_TOTAL_PIXELS, type SupportedExtension } from '@clinicrelay/contracts/attachments.ts';

// Image dimensions read from the headers only (PNG IHDR, JPEG SOF, GIF logical screen, every TIFF
// page's IFD), so an image's size is known before anything allocates its pixels.

export interface PixelSize {
  width: number;
  height: number;
}

// Every page's size; undefined when the header cannot be read (the rendition then fails as for any broken file).
export function imagePageSizes(bytes: Uint8Array, extension: SupportedExtension): PixelSize[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    switch (extension) {
      case 'png':
        return pngSize(bytes, view);
      case 'jpg':
      case 'jpeg':
        return jpegSize(view);
      case 'gif':
        return [{ width: view.getUint16(6, true), height: view.getUint16(8, true) }];
      case 'tif':
      case 'tiff':
        return tiffSizes(view);
      default:
        return undefined;
    }
  } catch (error) {
    // A header cut short reads past the end.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

function pngSize(bytes: Uint8Array, view: DataView): PixelSize[] | undefined {
  if (ascii(bytes, 12, 4) !== 'IHDR') return undefined;
  return [{ width: view.getUint32(16), height: view.getUint32(20) }];
}

// Start-of-frame markers C0–CF, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(view: DataView): PixelSize[] | undefined {
  let at = 2;
  while (at + 4 <= view.byteLength) {
    if (view.getUint8(at) !== 0xff) return undefined;
    const marker = view.getUint8(at + 1);
    // Fill bytes, and markers without a length (RSTn, TEM).
    if (marker === 0xff) {
      at++;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    // Start of scan or end of image before any frame header.
    if (marker === 0xda || marker === 0xd9) return undefined;
    if (isStartOfFrame(marker)) return [{ height: view.getUint16(at + 5), width: view.getUint16(at + 7) }];
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}

// TIFF pages form a chain of IFDs; a chain that loops or never ends is cut (no real fax has 10000 pages).
const MAX_TIFF_PAGES = 10_000;

function tiffSizes(view: DataView): PixelSize[] | undefined {
  const little = view.getUint16(0) === 0x4949;
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  const pages: PixelSize[] = [];
  const seen = new Set<number>();
  try {
    for (let ifd = u32(4); ifd !== 0; ifd = u32(ifd + 2 + u16(ifd) * 12)) {
      if (seen.has(ifd) || seen.size >= MAX_TIFF_PAGES) break;
      seen.add(ifd);
      const size: Partial<PixelSize> = {};
      for (let i = 0, entry = ifd + 2; i < u16(ifd); i++, entry += 12) {
        const tag = u16(entry);
        if (tag !== 256 && tag !== 257) continue;
        // SHORT (3) or LONG (4), held in the entry itself.
        const value = u16(entry + 2) === 3 ? u16(entry + 8) : u32(entry + 8);
        if (tag === 256) size.width = value;
        else size.height = value;
      }
      if (size.width !== undefined && size.height !== undefined) pages.push({ width: size.width, height: size.height });
    }
  } catch (error) {
    // A chain that runs off the end still counts the pages read before it.
    if (!(error instanceof RangeError) || pages.length === 0) throw error;
  }
  return pages.length > 0 ? pages : undefined;
}

// The refusal text for an image over the pixel budget, per page and in all; undefined when it fits.
export function imageBudgetRefusal(bytes: Uint8Array, extension: SupportedExtension): string | undefined {
  const pages = imagePageSizes(bytes, extension);
  if (!pages) return undefined;
  if (pages.some((p) => p.width * p.height > MAX_IMAGE_PIXELS)) return attachmentMessages.imageTooLarge;
  if (pages.reduce((sum, p) => sum + p.width * p.height, 0) > MAX_IMAGE_TOTAL_PIXELS) return attachmentMessages.imageTooLargeInAll;
  return undefined;
}
