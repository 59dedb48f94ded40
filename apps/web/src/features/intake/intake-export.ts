import type { QueryClient } from '@tanstack/react-query';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { fetchAttachmentFile } from '../../components/document-viewer/attachment-file.ts';
import { intakeKeys, processMessage, type ProcessType } from './api.ts';
import type { GearTaskStore } from './gear-tasks.ts';
import { responseFileName, saveFile } from '../../components/save-file.ts';

export type ExportKind = 'PDFExport' | 'StructuredExport' | 'NativeExport';
type Attachment = Message['attachments'][number];

export const exportLabels: Record<ExportKind, string> = {
  PDFExport: 'PDF export',
  StructuredExport: 'Structured export',
  NativeExport: 'Native export',
};

// Structured records are always read-only and have no PDF rendition (end-user §4 "Page strategies").
const STRUCTURED = /\.(hl7|ccd|cda|xml)$/i;
export const isStructured = (attachment: Pick<Attachment, 'fileName' | 'previewAvailable'>) =>
  STRUCTURED.test(attachment.fileName) || attachment.previewAvailable === 'NotApplicable';

/** The attachments a kind of export takes; empty means there is nothing to export that way. */
export function exportableAttachments(kind: ExportKind, attachments: Attachment[]): Attachment[] {
  if (kind === 'StructuredExport') return attachments.filter(isStructured);
  if (kind === 'PDFExport') return attachments.filter((a) => !isStructured(a));
  return attachments;
}

const pdfName = (fileName: string) => `${fileName.replace(/\.[^./\\]+$/, '')}.pdf`;

async function download(messageId: string, attachment: Attachment, kind: ExportKind) {
  const response = await fetchAttachmentFile(messageId, attachment.id, { native: kind === 'NativeExport' });
  const blob = await response.blob();
  // PDF export names every file .pdf; structured and native keep the server's (original) name.
  const name = kind === 'PDFExport' ? pdfName(attachment.fileName) : responseFileName(response, attachment.fileName);
  saveFile(blob, name);
}

/**
 * Runs an export as a gear task: each attachment is downloaded as a real file, then the message is
 * marked processed with the matching processType. Resolves to whether it succeeded.
 */
export function runExport(options: { kind: ExportKind; message: Message; attachments: Attachment[]; tasks: GearTaskStore; queryClient: QueryClient }) {
  const { kind, message, attachments, tasks, queryClient } = options;
  return tasks.run(
    {
      type: 'file',
      content: exportLabels[kind],
      href: `/intake/${message.id}`,
      message: { subject: message.subject, from: message.fromAddress ?? '', to: message.toAddress },
    },
    async () => {
      const files = exportableAttachments(kind, attachments);
      if (files.length === 0) throw new Error(`No attachment can be exported as ${kind}.`);
      for (const attachment of files) await download(message.id, attachment, kind);
      await processMessage(message.id, { isProcessed: true, processType: kind satisfies ProcessType });
      void queryClient.invalidateQueries({ queryKey: intakeKeys.message(message.id) });
      void queryClient.invalidateQueries({ queryKey: intakeKeys.lists() });
    },
  );
}
