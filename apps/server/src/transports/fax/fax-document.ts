import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

export interface FaxDocumentInput {
  from: string;
  to: string;
  date: Date;
  subject: string;
  body: string;
  includeCoverPage: boolean;
  includeMessageBody: boolean;
  includeAttachmentDescriptions: boolean;
  attachments: { fileName: string; documentType: string | null; documentDate: string | null; description: string | null; pdf: Uint8Array | null }[];
}

// US Letter, as fax machines print.
const PAGE = { width: 612, height: 792 };
const MARGIN = 54;
const SIZE = 11;
const LINE = 15;

// The standard fonts encode WinAnsi only: anything else prints as '?', as a fax would garble it.
const printable = (text: string) => text.replace(/\r/g, '').replace(/[^\n\x20-\x7E\xA0-\xFF]/g, '?');

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of printable(text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width || !line) line = candidate;
      else {
        out.push(line);
        line = word;
      }
    }
    out.push(line);
  }
  return out;
}

// Writes lines top to bottom, starting new pages as needed.
function writer(pdf: PDFDocument, font: PDFFont, bold: PDFFont) {
  let page: PDFPage = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;
  const newPage = () => {
    page = pdf.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - MARGIN;
  };
  return {
    heading(text: string) {
      page.drawText(printable(text), { x: MARGIN, y: y - 20, size: 20, font: bold });
      y -= 44;
    },
    text(text: string, opts: { bold?: boolean } = {}) {
      const f = opts.bold ? bold : font;
      for (const line of wrap(text, f, SIZE, PAGE.width - 2 * MARGIN)) {
        if (y < MARGIN + LINE) newPage();
        page.drawText(line, { x: MARGIN, y: y - SIZE, size: SIZE, font: f });
        y -= LINE;
      }
    },
    gap() {
      y -= LINE;
    },
  };
}

const mmddyyyy = (d: Date) => `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
const isoToView = (iso: string | null) => (iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : (iso ?? ''));

// What the receiving fax machine prints, in order: cover sheet, message body page, attachment
// description pages (each as the options say), then every attachment's PDF rendition.
export async function renderFaxDocument(input: FaxDocumentInput): Promise<{ pdf: Uint8Array; pageCount: number }> {
  const sources = await Promise.all(input.attachments.map(async (a) => (a.pdf ? PDFDocument.load(a.pdf, { ignoreEncryption: true }) : null)));
  const attachmentPages = sources.reduce((n, s) => n + (s?.getPageCount() ?? 0), 0);

  const pdf = await PDFDocument.create();

  // Pages before the attachments are laid out first in a scratch document, so the cover sheet can
  // state the total.
  const front = async (target: PDFDocument, total: number) => {
    const f = await target.embedFont(StandardFonts.Helvetica);
    const b = await target.embedFont(StandardFonts.HelveticaBold);
    if (input.includeCoverPage) {
      const w = writer(target, f, b);
      w.heading('FAX');
      for (const [label, value] of [
        ['From', input.from],
        ['To', input.to],
        ['Date', mmddyyyy(input.date)],
        ['Subject', input.subject],
        ['Pages', String(total)],
      ] as const) w.text(`${label}: ${value}`);
      w.gap();
      w.text('This fax may contain protected health information. If you received it in error, notify the sender and destroy it.');
    }
    if (input.includeMessageBody && input.body.trim()) {
      const w = writer(target, f, b);
      w.heading(input.subject || 'Message');
      w.text(input.body);
    }
    if (input.includeAttachmentDescriptions && input.attachments.length) {
      const w = writer(target, f, b);
      w.heading('Attachments');
      for (const a of input.attachments) {
        w.text(a.fileName, { bold: true });
        w.text(`Document type: ${a.documentType ?? ''}`);
        w.text(`Document date: ${isoToView(a.documentDate)}`);
        if (a.description) w.text(`Description: ${a.description}`);
        w.gap();
      }
    }
  };
  const scratch = await PDFDocument.create();
  await front(scratch, 0);
  const total = scratch.getPageCount() + attachmentPages;
  await front(pdf, total);
  for (const source of sources) {
    if (!source) continue;
    const pages = await pdf.copyPages(source, source.getPageIndices());
    for (const page of pages) pdf.addPage(page);
  }
  return { pdf: await pdf.save(), pageCount: pdf.getPageCount() };
}
