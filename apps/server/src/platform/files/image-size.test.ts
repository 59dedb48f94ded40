import { encode as encodeJpeg } from 'jpeg-js';
import { GifWriter } from 'omggif';
import UTIF, { type IFD } from 'utif';
import { describe, expect, it } from 'vitest';
import { attachmentMessages } from '@clinicrelay/contracts/attachments.ts';
import { imageBudgetRefusal, imagePageSizes } from './image-size.ts';
import { faxTiff, pngBomb } from './sample-files.ts';

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
