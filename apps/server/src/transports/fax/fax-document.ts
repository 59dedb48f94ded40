import { PDFDocument, type PDFPage } from 'pdf-lib';
import { PdfText } from '../../platform/pdf/text.ts';

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

// Writes lines top to bottom, starting new pages as needed.
function writer(pdf: PDFDocument, fonts: PdfText) {
  let page: PDFPage = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;
  const newPage = () => {
    page = pdf.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - MARGIN;
  };
  return {
    heading(text: string) {
      fonts.draw(page, text, { x: MARGIN, y: y - 20, size: 20, style: 'bold' });
      y -= 44;
    },
    text(text: string, opts: { bold?: boolean } = {}) {
      const style = opts.bold ? 'bold' : 'regular';
      for (const line of fonts.wrap(text, SIZE, PAGE.width - 2 * MARGIN, style)) {
        if (y < MARGIN + LINE) newPage();
        fonts.draw(page, line, { x: MARGIN, y: y - SIZE, size: SIZE, style });
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
  const front = (target: PDFDocument, total: number) => {
    // Names and subjects in any script: Noto fonts, embedded and subset (platform/pdf/text.ts).
    const fonts = new PdfText(target);
    if (input.includeCoverPage) {
      const w = writer(target, fonts);
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
      const w = writer(target, fonts);
      w.heading(input.subject || 'Message');
      w.text(input.body);
    }
    if (input.includeAttachmentDescriptions && input.attachments.length) {
      const w = writer(target, fonts);
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
  front(scratch, 0);
  const total = scratch.getPageCount() + attachmentPages;
  front(pdf, total);
  for (const source of sources) {
    if (!source) continue;
    const pages = await pdf.copyPages(source, source.getPageIndices());
    for (const page of pages) pdf.addPage(page);
  }
  return { pdf: await pdf.save(), pageCount: pdf.getPageCount() };
}
