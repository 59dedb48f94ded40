import { encode as encodePng } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { MAX_ATTACHMENT_BYTES } from '@clinicrelay/contracts/attachments.ts';
import { decodeText, detectFileType } from './file-types.ts';
import { fixture, itWithFixtures } from '../../test/shared-fixtures.ts';

const text = (value: string) => new TextEncoder().encode(value);
const png = encodePng({ width: 2, height: 2, data: new Uint8Array(12).fill(128), channels: 3, depth: 8 });
const hl7 = 'MSH|^~\\&|LAB|RIVERVIEW|EHR|LAKESIDE|202601150830||ORU^R01|MSG0001|P|2.5.1\rPID|1||12345^^^RIVERVIEW||LEVIN^HENRY^L\r';

describe('detecting an attachment’s type', () => {
  itWithFixtures('accepts the documents clinics exchange, by extension and content', () => {
    expect(detectFileType(fixture('pdf/ud-sample.pdf'), 'Discharge Summary.PDF')).toEqual({
      ok: true,
      extension: 'pdf',
      mimeType: 'application/pdf',
      kind: 'pdf',
    });
    expect(detectFileType(png, 'wound-photo.png')).toMatchObject({ ok: true, kind: 'image', mimeType: 'image/png' });
    expect(detectFileType(text('Follow up in two weeks.'), 'note.txt')).toMatchObject({ ok: true, kind: 'text' });
    expect(detectFileType(fixture('cda/ccd-1.xml'), 'ccd-1.xml')).toMatchObject({ ok: true, kind: 'structured' });
    expect(detectFileType(fixture('cda/referral-note.xml'), 'referral.cda')).toMatchObject({ ok: true, extension: 'cda' });
    expect(detectFileType(fixture('cda/ccd-1.xml'), 'summary.ccd')).toMatchObject({ ok: true, extension: 'ccd' });
    expect(detectFileType(text(hl7), 'result.hl7')).toMatchObject({ ok: true, kind: 'structured', mimeType: 'x-application/hl7-v2+er7' });
    expect(detectFileType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'scan.jpeg')).toMatchObject({ ok: true, mimeType: 'image/jpeg' });
    expect(detectFileType(text('GIF89a....'), 'chart.gif')).toMatchObject({ ok: true, mimeType: 'image/gif' });
    expect(detectFileType(Uint8Array.from([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]), 'fax.tif')).toMatchObject({ ok: true, mimeType: 'image/tiff' });
    expect(detectFileType(Uint8Array.from([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8]), 'fax.tiff')).toMatchObject({ ok: true });
  });

  it('says an empty file is empty', () => {
    expect(detectFileType(new Uint8Array(0), 'note.txt')).toEqual({ ok: false, message: 'File is empty. Please upload something more substantial.' });
  });

  it('refuses a file over 20 MB', () => {
    expect(detectFileType(new Uint8Array(MAX_ATTACHMENT_BYTES + 1), 'scan.pdf')).toEqual({
      ok: false,
      message: 'Your attachment exceeds the maximum (20MB) allowed size.',
    });
  });

  it('names the unsupported type, or says so without one when the file has no extension', () => {
    expect(detectFileType(text('MZ'), 'setup.exe')).toEqual({ ok: false, message: 'Your attachment file type .exe is not supported' });
    expect(detectFileType(text('hello'), 'README')).toEqual({ ok: false, message: 'Your attachment file type is not supported' });
    expect(detectFileType(text('hello'), 'trailing-dot.')).toEqual({ ok: false, message: 'Your attachment file type is not supported' });
  });

  itWithFixtures('refuses content that does not match its extension', () => {
    const mismatch = (name: string, extension: string) => ({
      ok: false,
      message: `The content of '${name}' does not match its .${extension} extension.`,
    });
    expect(detectFileType(text('Patient: Levin, Henry L.'), 'scan.pdf')).toEqual(mismatch('scan.pdf', 'pdf'));
    expect(detectFileType(fixture('pdf/ud-sample.pdf'), 'photo.png')).toEqual(mismatch('photo.png', 'png'));
    expect(detectFileType(png, 'photo.jpg')).toEqual(mismatch('photo.jpg', 'jpg'));
    expect(detectFileType(png, 'fax.tiff')).toEqual(mismatch('fax.tiff', 'tiff'));
    expect(detectFileType(text('not a gif'), 'chart.gif')).toEqual(mismatch('chart.gif', 'gif'));
    expect(detectFileType(Uint8Array.from([0x48, 0x69, 0x00, 0x01]), 'note.txt')).toEqual(mismatch('note.txt', 'txt'));
    expect(detectFileType(fixture('pdf/lab-result-164947.pdf'), 'lab.txt')).toEqual(mismatch('lab.txt', 'txt'));
    expect(detectFileType(text('Follow up in two weeks.'), 'record.xml')).toEqual(mismatch('record.xml', 'xml'));
    expect(detectFileType(png, 'summary.ccd')).toEqual(mismatch('summary.ccd', 'ccd'));
    expect(detectFileType(text('Follow up in two weeks.'), 'result.hl7')).toEqual(mismatch('result.hl7', 'hl7'));
  });

  itWithFixtures('accepts a PDF whose header comes after a few stray bytes, as readers do', () => {
    const shifted = new Uint8Array([...text('\r\n\r\n'), ...fixture('pdf/ud-sample.pdf')]);
    expect(detectFileType(shifted, 'scan.pdf')).toMatchObject({ ok: true, kind: 'pdf' });
  });

  it('reads text saved as UTF-16 with a byte-order mark or as Windows-1252', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Levin, Henry L. – 01/02/1950', 'utf16le')]);
    expect(detectFileType(utf16, 'note.txt')).toMatchObject({ ok: true, kind: 'text' });
    expect(decodeText(utf16)).toBe('Levin, Henry L. – 01/02/1950');
    expect(decodeText(Uint8Array.from([0x43, 0x61, 0x66, 0xe9]))).toBe('Café');
  });
});
