import { attachmentMessages, MAX_IMAGE_PIXELS, MAX_IMAGE_TOTAL_PIXELS, type SupportedExtension } from '@clinicrelay/contracts/attachments.ts';
import { imageFrames, tiffPageChain, type FrameSize } from './image-frames.ts';

// Image dimensions read from the headers only (PNG IHDR, JPEG SOF, GIF logical screen, every TIFF
// page's IFD), so an image's size is known before anything allocates its pixels; the pixel budget reads
// every frame (image-frames.ts). The EXIF orientation (JPEG APP1, PNG eXIf, TIFF tag 274) is read with
// it: a phone photo of a page is stored landscape and tagged "rotate 90°", and every size given out here
// is the size as shown, upright.

export interface PixelSize {
  width: number;
  height: number;
}

// EXIF orientation 1–8: 1 upright, 2 mirrored, 3 upside down, 4 mirrored upside down, 5–8 the four that
// swap width and height (6: turn 90° clockwise to show, 8: 90° counter-clockwise).
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

interface StoredSize extends PixelSize {
  orientation: Orientation;
}

const swapsSides = (orientation: Orientation) => orientation >= 5;

// The stored size of each page and how it is to be turned; undefined when the header cannot be read.
function storedSizes(bytes: Uint8Array, extension: SupportedExtension): StoredSize[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    switch (extension) {
      case 'png':
        return pngSize(bytes, view);
      case 'jpg':
      case 'jpeg':
        return jpegSize(bytes, view);
      case 'gif':
        return [{ width: view.getUint16(6, true), height: view.getUint16(8, true), orientation: 1 }];
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

// Every page's size as shown (EXIF orientation applied); undefined when the header cannot be read (the
// rendition then fails as for any broken file).
export function imagePageSizes(bytes: Uint8Array, extension: SupportedExtension): PixelSize[] | undefined {
  return storedSizes(bytes, extension)?.map(({ width, height, orientation }) =>
    swapsSides(orientation) ? { width: height, height: width } : { width, height },
  );
}

// The EXIF orientation of each page (1 when the file has none or cannot be read).
export function imageOrientations(bytes: Uint8Array, extension: SupportedExtension): Orientation[] {
  return storedSizes(bytes, extension)?.map((size) => size.orientation) ?? [1];
}

export const asOrientation = (value: number | undefined): Orientation =>
  value !== undefined && Number.isInteger(value) && value >= 1 && value <= 8 ? (value as Orientation) : 1;

// The Orientation tag (0x0112) of IFD0 of the TIFF structure EXIF data is (at `start`, `length` bytes long).
// A value out of range, or EXIF that cannot be read, counts as upright: the photo is never lost for it.
function exifOrientation(view: DataView, start: number, length: number): Orientation {
  try {
    const end = start + length;
    const order = view.getUint16(start);
    if (order !== 0x4949 && order !== 0x4d4d) return 1;
    const little = order === 0x4949;
    const ifd = start + view.getUint32(start + 4, little);
    if (ifd + 2 > end) return 1;
    const count = view.getUint16(ifd, little);
    for (let i = 0, entry = ifd + 2; i < count && entry + 12 <= end; i++, entry += 12) {
      // SHORT, held in the entry itself.
      if (view.getUint16(entry, little) === 0x0112 && view.getUint16(entry + 2, little) === 3) return asOrientation(view.getUint16(entry + 8, little));
    }
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return 1;
}

const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

// The eXIf chunk counts when it comes before the image data (PNG 1.5 extensions, as libvips reads it).
function pngSize(bytes: Uint8Array, view: DataView): StoredSize[] | undefined {
  if (ascii(bytes, 12, 4) !== 'IHDR') return undefined;
  let orientation: Orientation = 1;
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = ascii(bytes, at + 4, 4);
    if (type === 'IDAT' || type === 'IEND') break;
    if (type === 'eXIf') orientation = exifOrientation(view, at + 8, Math.min(length, bytes.length - at - 8));
    at += 12 + length;
  }
  return [{ width: view.getUint32(16), height: view.getUint32(20), orientation }];
}

// Start-of-frame markers C0–CF, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(bytes: Uint8Array, view: DataView): StoredSize[] | undefined {
  let orientation: Orientation = 1;
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
    if (isStartOfFrame(marker)) return [{ height: view.getUint16(at + 5), width: view.getUint16(at + 7), orientation }];
    const length = view.getUint16(at + 2);
    // APP1 "Exif\0\0", then a TIFF structure; the first EXIF segment is the one readers honour.
    if (marker === 0xe1 && orientation === 1 && ascii(bytes, at + 4, 6) === 'Exif\0\0') orientation = exifOrientation(view, at + 10, length - 8);
    at += 2 + length;
  }
  return undefined;
}

function tiffSizes(view: DataView): StoredSize[] | undefined {
  const { pages } = tiffPageChain(view);
  return pages.length > 0 ? pages.map((page) => ({ width: page.width, height: page.height, orientation: asOrientation(page.orientation) })) : undefined;
}

const imageExtensions: ReadonlySet<SupportedExtension> = new Set(['png', 'jpg', 'jpeg', 'gif', 'tif', 'tiff']);

const pixels = (frame: FrameSize) => Math.abs(frame.width * frame.height);

// The refusal text for an image over the pixel budget, per page and in all; undefined when it fits.
export function imageBudgetRefusal(bytes: Uint8Array, extension: SupportedExtension): string | undefined {
  if (!imageExtensions.has(extension)) return undefined;
  // Every frame the decoders would allocate, whatever the format the bytes really are.
  const frames = imageFrames(bytes);
  if (!frames) return undefined;
  if (frames.some((frame) => pixels(frame) > MAX_IMAGE_PIXELS)) return attachmentMessages.imageTooLarge;
  if (frames.reduce((sum, frame) => sum + pixels(frame), 0) > MAX_IMAGE_TOTAL_PIXELS) return attachmentMessages.imageTooLargeInAll;
  return undefined;
}
