import { PDFDocument, rgb, type Color, type PDFPage } from 'pdf-lib';
import { deliveryStageLabels, type DeliveryStage } from '@clinicrelay/contracts/delivery.ts';
import { PdfText, type TextStyle } from '../../platform/pdf/text.ts';

export interface DeliverySummaryInput {
  brandName: string;
  organizationName: string;
  subject: string;
  fromAddress: string | null;
  sentDate: Date | null;
  patient: { name: string | null; birthDate: string | null } | null;
  recipients: {
    recipient: string;
    channel: string;
    status: string;
    reason: string | null;
    updatedAt: Date;
    deliveredAt: Date | null;
    // Direct over SMTP: queued → sent → processed → dispatched, or failed with the reason, oldest first.
    timeline: { stage: DeliveryStage; at: Date; detail: string | null }[];
  }[];
  attachments: { fileName: string; documentType: string | null; documentDate: string | null; sizeInBytes: number }[];
  generatedAt: Date;
}

// US Letter portrait.
const PAGE = { width: 612, height: 792 };
const MARGIN = 36;
const CONTENT = PAGE.width - 2 * MARGIN;
const SIZE = 9;
const LINE = 12;
const GREY = rgb(0.35, 0.35, 0.35);
const RED = rgb(0.7, 0.05, 0.05);

const pad = (n: number) => String(n).padStart(2, '0');
const viewDate = (d: Date) => `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()}`;
const viewDateTime = (d: Date | null) => (d ? `${viewDate(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC` : '');
const isoToView = (iso: string | null) => (iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : (iso ?? ''));

// end-user §9: file size units B, k, MB.
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} k`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

interface Column {
  title: string;
  width: number;
}

// A line drawn under a table row, from one column to the right edge (a Direct recipient's timeline).
interface RowNote {
  text: string;
  color: Color;
}

interface Row {
  cells: string[];
  notes?: RowNote[];
}

function layout(pdf: PDFDocument, text: PdfText) {
  let page: PDFPage = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN;
  const newPage = () => {
    page = pdf.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - MARGIN;
  };
  const ensure = (height: number) => {
    if (y - height < MARGIN + LINE * 2) newPage();
  };
  // onBreak draws what a continued table repeats at the top of a new page (its header); notes start under column notesColumn.
  const drawRow = ({ cells, notes = [] }: Row, columns: Column[], style: TextStyle, onBreak?: () => void, notesColumn = 0) => {
    const wrapped = cells.map((c, i) => text.wrap(c, SIZE, columns[i]!.width - 6, style));
    const cellsHeight = Math.max(...wrapped.map((w) => w.length)) * LINE;
    const notesX = MARGIN + columns.slice(0, notesColumn).reduce((sum, column) => sum + column.width, 0);
    const noteLines = notes.flatMap((note) => text.wrap(note.text, SIZE - 1, MARGIN + CONTENT - notesX - 4).map((line) => ({ line, color: note.color })));
    const height = cellsHeight + noteLines.length * (LINE - 1) + 4;
    if (y - height < MARGIN + LINE * 2) {
      newPage();
      onBreak?.();
    }
    let x = MARGIN;
    wrapped.forEach((lines, i) => {
      lines.forEach((line, n) => text.draw(page, line, { x: x + 2, y: y - SIZE - n * LINE, size: SIZE, style }));
      x += columns[i]!.width;
    });
    noteLines.forEach(({ line, color }, n) =>
      text.draw(page, line, { x: notesX + 2, y: y - cellsHeight - (SIZE - 1) - n * (LINE - 1), size: SIZE - 1, color }),
    );
    y -= height;
    page.drawLine({ start: { x: MARGIN, y: y + 2 }, end: { x: MARGIN + CONTENT, y: y + 2 }, thickness: 0.5, color: GREY });
  };
  return {
    title(value: string) {
      text.draw(page, value, { x: MARGIN, y: y - 20, size: 20, style: 'bold' });
      y -= 34;
    },
    section(value: string) {
      ensure(LINE * 3);
      y -= LINE / 2;
      text.draw(page, value, { x: MARGIN, y: y - 12, size: 12, style: 'bold' });
      y -= 20;
    },
    field(label: string, value: string) {
      const lines = text.wrap(value, SIZE + 1, CONTENT - 110);
      ensure(lines.length * LINE);
      text.draw(page, `${label}:`, { x: MARGIN, y: y - SIZE - 1, size: SIZE + 1, style: 'bold' });
      lines.forEach((line, n) => text.draw(page, line, { x: MARGIN + 110, y: y - SIZE - 1 - n * LINE, size: SIZE + 1 }));
      y -= lines.length * LINE + 2;
    },
    note(value: string) {
      for (const line of text.wrap(value, SIZE, CONTENT)) {
        ensure(LINE);
        text.draw(page, line, { x: MARGIN, y: y - SIZE, size: SIZE, color: GREY });
        y -= LINE;
      }
    },
    table(columns: Column[], rows: Row[], notesColumn = 0) {
      const header = () => drawRow({ cells: columns.map((c) => c.title) }, columns, 'bold');
      ensure(LINE * 4);
      header();
      for (const row of rows) drawRow(row, columns, 'regular', header, notesColumn);
    },
  };
}

// One stage of a Direct recipient's timeline as the web shows it: label · time · detail; Failed in red.
const timelineNote = (entry: DeliverySummaryInput['recipients'][number]['timeline'][number]): RowNote => ({
  text: [deliveryStageLabels[entry.stage], viewDateTime(entry.at), entry.detail].filter(Boolean).join(' · '),
  color: entry.stage === 'Failed' ? RED : GREY,
});

// The Delivery Summary PDF: what was sent, to whom, and how each delivery went.
export async function renderDeliverySummary(input: DeliverySummaryInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle('Delivery Summary');
  pdf.setProducer(input.brandName);
  pdf.setCreationDate(input.generatedAt);
  // Names, subjects and file names in any script: Noto fonts, embedded and subset (platform/pdf/text.ts).
  const text = new PdfText(pdf);
  const w = layout(pdf, text);

  w.title('Delivery Summary');
  w.field('Organization', input.organizationName);
  w.field('Subject', input.subject);
  w.field('From', input.fromAddress ?? '');
  w.field('Sent', viewDateTime(input.sentDate));
  if (input.patient?.name) w.field('Patient', input.patient.name);
  if (input.patient?.birthDate) w.field('Birth date', isoToView(input.patient.birthDate));

  w.section('Recipients');
  w.table(
    [
      // Noto Sans is a little wider than Helvetica was: a Direct address keeps to one line.
      { title: 'Recipient', width: 180 },
      { title: 'Channel', width: 45 },
      { title: 'Status', width: 55 },
      { title: 'Reason', width: 120 },
      { title: 'Last update', width: 70 },
      { title: 'Delivered', width: 70 },
    ],
    input.recipients.map((r) => ({
      cells: [r.recipient, r.channel, r.status, r.reason ?? '', viewDateTime(r.updatedAt), viewDateTime(r.deliveredAt)],
      notes: r.channel === 'Direct' ? r.timeline.map(timelineNote) : [],
    })),
    // A timeline reads under the recipient's Status, clear of its address.
    2,
  );

  w.section('Attachments');
  if (input.attachments.length === 0) w.note('No attachments');
  else {
    w.table(
      [
        { title: 'File name', width: 250 },
        { title: 'Document type', width: 140 },
        { title: 'Document date', width: 80 },
        { title: 'Size', width: 70 },
      ],
      input.attachments.map((a) => ({ cells: [a.fileName, a.documentType ?? '', isoToView(a.documentDate), fileSize(a.sizeInBytes)] })),
    );
  }

  const pages = pdf.getPages();
  pages.forEach((page, i) => {
    const footer = `Generated ${viewDateTime(input.generatedAt)} by ${input.brandName}. Contains protected health information.   Page ${i + 1} of ${pages.length}`;
    text.draw(page, footer, { x: MARGIN, y: MARGIN - 12, size: 7, color: GREY });
  });
  return pdf.save();
}
