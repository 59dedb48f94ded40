import { encode as encodeJpeg } from 'jpeg-js';
import { GifWriter } from 'omggif';
import UTIF, { type IFD } from 'utif';
import { describe, expect, it } from 'vitest';
import { attachmentMessages } from '@clinicrelay/contracts/attachments.ts';
import { encode as encodePng } from 'fast-png';
import { logoMessages } from '@clinicrelay/contracts/logos.ts';
import { imageBudgetRefusal, imageOrientations, imagePageSizes } from './image-size.ts';
import { checkLogo } from './logo.ts';
import { imageFrames } from './image-frames.ts';
import { apngFrameBomb, bmpHeader, faxTiff, gifFrameBomb, jpegSecondFrameBomb, pngBomb, tiffOutOfLineSecondPage, webpHeader, withExifOrientation } from './sample-files.ts';

const tiffHeaders = (pages: [number, number][]) =>
  new Uint8Array(UTIF.encode(pages.map(([width, height]) => ({ t256: [width], t257: [height], t258: [1], t259: [1], t262: [0], t273: [0], t277: [1], t278: [height], t279: [0] })) as unknown as IFD[]));

// A JPEG whose frame header announces `width` x `height`: markers only, no image data.
function jpegHeader(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof0 = [0xff, 0xc0, 0x00, 0x0b, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof0, 0xff, 0xd9]);
}

describe('image sizes from headers only', () => {
  it('reads PNG, JPEG, GIF and every page of a TIFF', () => {
    expect(imagePageSizes(pngBomb(30_000, 20_000), 'png')).toEqual([{ width: 30_000, height: 20_000 }]);
    const jpeg = encodeJpeg({ width: 33, height: 21, data: new Uint8Array(33 * 21 * 4).fill(200) }, 80).data;
    expect(imagePageSizes(new Uint8Array(jpeg), 'jpg')).toEqual([{ width: 33, height: 21 }]);
    const gif = new Uint8Array(256);
    const writer = new GifWriter(gif, 7, 5, { palette: [0xffffff, 0x000000] });
    writer.addFrame(0, 0, 7, 5, new Array(35).fill(1));
    expect(imagePageSizes(gif.subarray(0, writer.end()), 'gif')).toEqual([{ width: 7, height: 5 }]);
    expect(imagePageSizes(faxTiff(3), 'tif')).toEqual(Array.from({ length: 3 }, () => ({ width: 1728, height: 2200 })));
  });

  it('refuses a page over 50 megapixels, and a TIFF over 200 megapixels in all', () => {
    expect(imageBudgetRefusal(pngBomb(30_000, 30_000), 'png')).toBe('This image is too large to process (over 50 megapixels). Reduce its size and attach it again.');
    expect(imageBudgetRefusal(jpegHeader(65_000, 65_000), 'jpeg')).toBe(attachmentMessages.imageTooLarge);
    expect(imageBudgetRefusal(jpegHeader(4_000, 3_000), 'jpeg')).toBeUndefined();
    expect(imageBudgetRefusal(tiffHeaders([[1728, 2200], [8_000, 8_000]]), 'tiff')).toBe(attachmentMessages.imageTooLarge);
    expect(imageBudgetRefusal(tiffHeaders(Array.from({ length: 5 }, () => [7_000, 7_000])), 'tif')).toBe(attachmentMessages.imageTooLargeInAll);
    expect(imageBudgetRefusal(faxTiff(30), 'tif')).toBeUndefined();
  });

  it('leaves a header it cannot read to the rendition, which fails as for any broken file', () => {
    expect(imagePageSizes(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]), 'png')).toBeUndefined();
    expect(imagePageSizes(new Uint8Array([0xff, 0xd8, 0xff]), 'jpg')).toBeUndefined();
  });

  it('stops at a TIFF page chain that loops back on itself', () => {
    const tiff = tiffHeaders([[100, 100]]);
    const view = new DataView(tiff.buffer);
    const little = view.getUint16(0) === 0x4949;
    const first = view.getUint32(4, little);
    // The next-page offset after the first IFD points back at it.
    view.setUint32(first + 2 + view.getUint16(first, little) * 12, first, little);
    expect(imagePageSizes(tiff, 'tif')).toEqual([{ width: 100, height: 100 }]);
  });
});

describe('EXIF orientation', () => {
  const jpeg = (width: number, height: number) => new Uint8Array(encodeJpeg({ width, height, data: new Uint8Array(width * height * 4).fill(200) }, 80).data);

  it('gives the size as shown: a photo stored 40 x 20 and tagged "turn 90°" is 20 wide and 40 high', () => {
    const photo = withExifOrientation(jpeg(40, 20), 6);
    expect(imageOrientations(photo, 'jpg')).toEqual([6]);
    expect(imagePageSizes(photo, 'jpg')).toEqual([{ width: 20, height: 40 }]);
    // Upside down or mirrored keeps the sides.
    expect(imagePageSizes(withExifOrientation(jpeg(40, 20), 3), 'jpeg')).toEqual([{ width: 40, height: 20 }]);
    const png = withExifOrientation(encodePng({ width: 40, height: 20, data: new Uint8Array(40 * 20).fill(9), channels: 1, depth: 8 }), 8);
    expect(imageOrientations(png, 'png')).toEqual([8]);
    expect(imagePageSizes(png, 'png')).toEqual([{ width: 20, height: 40 }]);
  });

  it('reads the Orientation tag of each TIFF page', () => {
    const tiff = new Uint8Array(
      UTIF.encode(
        [5, 1].map((orientation) => ({ t256: [30], t257: [10], t258: [1], t259: [1], t262: [0], t273: [0], t274: [orientation], t277: [1], t278: [10], t279: [0] })) as unknown as IFD[],
      ),
    );
    expect(imageOrientations(tiff, 'tif')).toEqual([5, 1]);
    expect(imagePageSizes(tiff, 'tif')).toEqual([
      { width: 10, height: 30 },
      { width: 30, height: 10 },
    ]);
  });

  it('counts a missing, out-of-range or cut-short orientation as upright', () => {
    expect(imageOrientations(jpeg(40, 20), 'jpg')).toEqual([1]);
    expect(imageOrientations(withExifOrientation(jpeg(40, 20), 9), 'jpg')).toEqual([1]);
    // A file cut short inside its EXIF.
    expect(imageOrientations(withExifOrientation(jpeg(40, 20), 6).slice(0, 20), 'jpg')).toEqual([1]);
    expect(imageOrientations(new Uint8Array([0xff, 0xd8, 0xff]), 'jpg')).toEqual([1]);
  });

  it('holds a logo to its size as shown (browsers turn it as its EXIF says)', () => {
    expect(checkLogo({ fileName: 'logo.jpg', bytes: withExifOrientation(jpeg(300, 200), 6) }, 'logo')).toMatchObject({ contentType: 'image/jpeg' });
    // Stored 700 wide and 300 high, shown 300 wide and 700 high.
    expect(() => checkLogo({ fileName: 'logo.jpg', bytes: withExifOrientation(jpeg(700, 300), 6) }, 'logo')).toThrow(logoMessages.tooHigh);
  });
});

describe('the pixel budget holds every frame of every image format', () => {
  const tooLarge = attachmentMessages.imageTooLarge;

  it('reads a GIF frame larger than its screen: the 35-byte GIF of a 65535 x 65535 frame in a 100 x 100 screen', () => {
    const gif = gifFrameBomb();
    expect(gif.length).toBe(35);
    expect(imageFrames(gif)).toEqual([{ width: 100, height: 100 }, { width: 65_535, height: 65_535 }]);
    expect(imageBudgetRefusal(gif, 'gif')).toBe(tooLarge);
  });

  it('reads every frame of an animated GIF, past extensions and colour tables', () => {
    const gif = new Uint8Array(1024);
    const writer = new GifWriter(gif, 20, 10, { palette: [0xffffff, 0x000000], loop: 0 });
    writer.addFrame(0, 0, 20, 10, new Array(200).fill(1), { delay: 10 });
    writer.addFrame(5, 5, 4, 3, new Array(12).fill(0), { delay: 10, palette: [0xff0000, 0x00ff00] });
    expect(imageFrames(gif.subarray(0, writer.end()))).toEqual([{ width: 20, height: 10 }, { width: 20, height: 10 }, { width: 4, height: 3 }]);
    expect(imageBudgetRefusal(gif.subarray(0, writer.end()), 'gif')).toBeUndefined();
  });

  it('reads an animated PNG frame, a JPEG frame header after the first scan, and TIFF values stored out of line', () => {
    expect(imageFrames(apngFrameBomb(60_000, 60_000))).toEqual([{ width: 10, height: 10 }, { width: 60_000, height: 60_000 }]);
    expect(imageBudgetRefusal(apngFrameBomb(60_000, 60_000), 'png')).toBe(tooLarge);
    expect(imageBudgetRefusal(apngFrameBomb(10, 10), 'png')).toBeUndefined();
    expect(imageFrames(jpegSecondFrameBomb(65_000, 65_000))).toEqual([{ width: 100, height: 100 }, { width: 65_000, height: 65_000 }]);
    expect(imageBudgetRefusal(jpegSecondFrameBomb(65_000, 65_000), 'jpg')).toBe(tooLarge);
    expect(imageFrames(tiffOutOfLineSecondPage(60_000, 60_000))).toMatchObject([{ width: 1728, height: 2200 }, { width: 60_000, height: 60_000 }]);
    expect(imageBudgetRefusal(tiffOutOfLineSecondPage(60_000, 60_000), 'tif')).toBe(tooLarge);
    expect(imageBudgetRefusal(tiffOutOfLineSecondPage(1728, 2200), 'tif')).toBeUndefined();
  });

  it('reads WebP and BMP headers from the bytes, whatever the name says', () => {
    expect(imageFrames(webpHeader('VP8X', 30_000, 30_000))).toEqual([{ width: 30_000, height: 30_000 }]);
    expect(imageFrames(webpHeader('VP8L', 16_384, 16_384))).toEqual([{ width: 16_384, height: 16_384 }]);
    expect(imageFrames(bmpHeader(40_000, -40_000))).toEqual([{ width: 40_000, height: 40_000 }]);
    expect(imageBudgetRefusal(webpHeader('VP8X', 30_000, 30_000), 'png')).toBe(tooLarge);
    expect(imageBudgetRefusal(bmpHeader(40_000, 40_000), 'gif')).toBe(tooLarge);
    expect(imageBudgetRefusal(bmpHeader(640, 480), 'png')).toBeUndefined();
  });

  it('never reads a text file as an image', () => {
    expect(imageBudgetRefusal(new TextEncoder().encode('BM clinic notes: follow up in two weeks.'), 'txt')).toBeUndefined();
  });
});

