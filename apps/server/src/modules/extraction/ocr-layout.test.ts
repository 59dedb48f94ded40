import jpeg from 'jpeg-js';
import { afterAll, describe, expect, it } from 'vitest';
import { makePdfRendition } from '../../platform/files/renditions.ts';
import { withExifOrientation } from '../../platform/files/sample-files.ts';
import { faxPdf } from './corpus/render.ts';
import { seededRng } from './corpus/people.ts';
import { extractPatient, ocrPageText } from './extractor.ts';
import { findPatient } from './find-patient.ts';
import { typedPage } from './scanned-page.ts';
import { tesseractOcr, terminateOcr, type OcrLine, type OcrPage } from './ocr.ts';

// OCR pages are read by their word boxes (issue 15 §2): rows and columns like a text layer, specks and
// smeared marks left out, a label OCR got one letter wrong read as the label.

const today = new Date('2026-03-01T00:00:00Z');

// A line of words at 200 dpi-like sizes: each word [text, x, confidence], 60 px per word of 5 letters.
function line(y: number, words: [string, number, number?][], slant = 0): OcrLine {
  return {
    baseline: { x0: 0, y0: y, x1: 1000, y1: y + slant },
    words: words.map(([text, x, confidence = 96]) => ({ text, confidence, x0: x, x1: x + text.length * 13, y0: y + (slant * x) / 1000 - 24, y1: y + (slant * x) / 1000 })),
  };
}
const page = (...lines: OcrLine[]): OcrPage => ({ text: '', lines });

afterAll(() => terminateOcr());

describe('OCR pages read by word boxes', () => {
  it('keeps a column gap between the patient and the next label, so the name ends there', () => {
    const text = ocrPageText(page(line(100, [['Patient:', 150], ['Ines', 260], ['Haddad', 325], ['Name:', 715], ['Michael', 800], ['Chen,', 905], ['NP', 980]])));
    expect(text).toBe('Patient: Ines Haddad  Name: Michael Chen, NP');
    expect(findPatient(text, today).patient).toMatchObject({ firstName: 'Ines', lastName: 'Haddad' });
  });

  it('puts two columns tesseract gave as separate lines in one row, and reads a label\'s value in the row below', () => {
    // The page was deskewed by tesseract (rotateAuto): what is left of the slant is a few pixels.
    const text = ocrPageText(page(line(100, [['Patient', 150], ['Name', 255]], 3), line(104, [['DOB', 700]]), line(148, [['WASHINGTON,', 150], ['JOSE', 320]], 3), line(151, [['04/17/1995', 700]])));
    expect(text.split('\n').slice(0, 2)).toEqual(['Patient Name  DOB', 'WASHINGTON, JOSE  04/17/1995']);
    expect(findPatient(text, today).patient).toMatchObject({ firstName: 'Jose', lastName: 'Washington', birthDate: '1995-04-17' });
  });

  it('leaves out specks and smeared marks, and corrects a label OCR misread by one letter', () => {
    const text = ocrPageText(
      page(
        line(100, [['Fatient', 150, 70], ['Name:', 260], ['Van', 345], ['Buren,', 395], ['Terrence', 480], ['~~', 600, 24], ['Account', 800]]),
        // "Co" drawn over 130 px (specks tesseract read as letters) and a 3 px mark.
        { baseline: { x0: 0, y0: 140, x1: 1000, y1: 140 }, words: [{ text: 'DCB:', confidence: 55, x0: 150, x1: 205, y0: 116, y1: 140 }, { text: '04/17/1995', confidence: 95, x0: 220, x1: 350, y0: 116, y1: 140 }, { text: 'Co', confidence: 13, x0: 700, x1: 830, y0: 120, y1: 140 }, { text: ':', confidence: 60, x0: 900, x1: 903, y0: 137, y1: 140 }] },
        // A real label one letter from DOB stays what it is.
        line(180, [['DOS:', 150, 80], ['01/09/2026', 220]]),
      ),
    );
    expect(text).toBe('Patient Name: Van Buren, Terrence  Account\nDOB: 04/17/1995\nDOS: 01/09/2026');
    expect(findPatient(text, today).patient).toMatchObject({ firstName: 'Terrence', lastName: 'Van Buren', birthDate: '1995-04-17' });
  });

  it('undoes OCR\'s slips on labels and names: a colon read as a stop or comma, a label run into its value, a stray mark', () => {
    const text = ocrPageText(
      page(
        // The heading makes the right column the referring provider's.
        line(60, [['PATIENT', 150], ['REFERRING', 700], ['PROVIDER', 830]]),
        line(100, [['Patient.', 150], ['Hiroshi', 260], ['Van', 360], ['Buren', 420], ['I', 500, 60], ['Il}', 530, 47], ['Name:', 700], ['Laura', 780], ['Patel', 855]]),
        line(140, [['DOB:', 150], ['01/22/1951', 220]]),
        line(180, [['Sex,', 150], ['Male', 210]]),
      ),
    );
    expect(text.split('\n').slice(1, 4)).toEqual(['Patient: Hiroshi Van Buren I  Name: Laura Patel', 'DOB: 01/22/1951', 'Sex: Male']);
    expect(findPatient(text, today).patient).toEqual({ firstName: 'Hiroshi', middleName: null, lastName: 'Van Buren', birthDate: '1951-01-22', gender: 'M' });
    expect(ocrPageText(page(line(100, [['SexF', 150, 1], ['Phone:', 650]])))).toBe('Sex: F  Phone:');
    // A surname's comma read as a full stop; a surname with particles whose comma was lost is left empty.
    expect(findPatient('Patient Name: SCHAFER. JOAQUIN GRACE', today).patient).toMatchObject({ firstName: 'Joaquin', middleName: 'Grace', lastName: 'Schafer' });
    for (const lost of ['Student Name: de la Cruz Beatriz Lee', 'Student Name: DE LA CRUZ BEATRIZ LEE']) {
      expect(findPatient(lost, today).patient, lost).toMatchObject({ firstName: null, middleName: null, lastName: null });
    }
    expect(findPatient('Patient Name: Van Morrison', today).patient).toMatchObject({ firstName: 'Van', lastName: 'Morrison' });
  });

  it('reads a row of labels by column when one label was misread ("Phane")', () => {
    const text = ocrPageText(page(line(100, [['Date', 160], ['of', 230], ['Birth', 265], ['Sex', 435], ['Phane', 653, 67]]), line(148, [['02/28/1966', 159], ['Male', 443], ['(779)', 675], ['446-4513', 753]])));
    expect(findPatient(text, today).patient).toMatchObject({ birthDate: '1966-02-28', gender: 'M' });
  });

  it('reads a speckled 1-bit fax page end to end with tesseract', { timeout: 60_000 }, async () => {
    const lines = [
      'NOV-25-2026 11:35  FROM: 443 761 4543   P. 1/4',
      '',
      'Bayside Women\'s Health',
      'Patient: DeShawn Elizabeth Fitzgerald                   DOB: 12/16/2000',
      'Sex: Male                                               Phone: (720) 445-3548',
      'Rx  Metformin 500 mg tablet',
    ];
    const pdf = await faxPdf(lines, { skewDegrees: -2.1, rng: seededRng(7) });
    const result = await extractPatient(pdf, { ocr: tesseractOcr, today: new Date('2026-11-25T00:00:00Z') });
    expect(result.ocrPages).toEqual([1]);
    expect(result.patient).toEqual({ firstName: 'DeShawn', middleName: 'Elizabeth', lastName: 'Fitzgerald', birthDate: '2000-12-16', gender: 'M' });
  });

  // A phone photo of a letter, stored landscape with the EXIF orientation that turns it upright: the
  // rendition shows it upright, and OCR must read it upright too.
  it.each([
    [6, 'turned a quarter clockwise'],
    [8, 'turned a quarter anticlockwise'],
  ])('reads a photo whose EXIF orientation is %s (%s) the way the page shows it', { timeout: 60_000 }, async (orientation) => {
    const page = typedPage(['Lakeside Family Medicine', 'Patient Name: ALVAREZ, MARIA E', 'DOB: 04/12/1958     Sex: F']);
    // Stored so that turning it as the orientation says gives the page back.
    const [w, h] = [page.height, page.width];
    const rgba = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const shown = orientation === 6 ? x * page.width + (page.width - 1 - y) : (page.height - 1 - x) * page.width + y;
        const g = page.pixels[shown]!;
        rgba.set([g, g, g, 255], (y * w + x) * 4);
      }
    }
    const photo = withExifOrientation(new Uint8Array(jpeg.encode({ width: w, height: h, data: rgba }, 85).data), orientation);
    const pdf = (await makePdfRendition(photo, { extension: 'jpg', fileName: 'letter.jpg' }))!;
    const result = await extractPatient(pdf, { ocr: tesseractOcr, today });
    expect(result.patient).toEqual({ firstName: 'Maria', middleName: 'E', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' });
  });
});
