import { intakeSourceTypes, messageStatusNumbers, processedTypes, type MessageStatusName } from '@clinicrelay/contracts/intake.ts';

// Display rules of the Intake list and view (end-user §2, §4).

export const SUBJECT_MAX = 80;

/** Subjects longer than 80 characters show their first 80 and an ellipsis (the full text is the title). */
export const truncateSubject = (subject: string) => (subject.length > SUBJECT_MAX ? `${subject.slice(0, SUBJECT_MAX)}…` : subject);

/** The status pill: AttachmentRead reads as 'Read'. */
export const statusLabel = (status: string) => (status === 'AttachmentRead' ? 'Read' : status);

export type DocStatus = 'Urgent' | 'Default' | 'Processed';
export const docStatus = (row: { isProcessed: boolean; isUrgent: boolean }): DocStatus =>
  row.isProcessed ? 'Processed' : row.isUrgent ? 'Urgent' : 'Default';
export const docStatusColor: Record<DocStatus, string> = { Urgent: 'red', Default: 'gray', Processed: 'teal' };

// The doc status badge (end-user §4: Urgent, Default or Processed) in a clerk's words: a processed message
// says how it was processed, so one badge tells the whole state.
// short fits the list's column; detail is the message view's badge and the list's tooltip.
const processedBadges: Record<(typeof processedTypes)[number], { short: string; detail: string }> = {
  Printed: { short: 'Printed', detail: 'Printed' },
  PDFExport: { short: 'Exported', detail: 'Exported as PDF' },
  StructuredExport: { short: 'Exported', detail: 'Exported as structured data' },
  NativeExport: { short: 'Exported', detail: 'Exported as original file' },
};
export interface DocStatusBadge {
  short: string;
  detail: string;
  color: string;
  printed: boolean;
  exported: boolean;
}
export function docStatusBadge(row: { isProcessed: boolean; isUrgent: boolean; processedType: string | null }): DocStatusBadge {
  const status = docStatus(row);
  const plain = (label: string) => ({ short: label, detail: label, color: docStatusColor[status], printed: false, exported: false });
  if (status === 'Urgent') return plain('Urgent');
  if (status === 'Default') return plain('Not processed');
  const processed = processedBadges[row.processedType as (typeof processedTypes)[number]] as { short: string; detail: string } | undefined;
  if (!processed) return plain('Processed');
  return { ...processed, color: docStatusColor.Processed, printed: row.processedType === 'Printed', exported: row.processedType !== 'Printed' };
}

/** The status pill, unless it only repeats the doc status badge (a Processed message says how instead). */
export const statusPill = (status: string) => (status === 'Processed' ? null : statusLabel(status));

export const statusColor = (status: string) => {
  switch (status) {
    case 'Failed':
      return 'red';
    case 'Processed':
      return 'teal';
    case 'Received':
      return 'blue';
    default:
      return 'gray';
  }
};

export const processedTypeLabels: Record<(typeof processedTypes)[number], string> = {
  Printed: 'Printed',
  StructuredExport: 'Structured Export',
  PDFExport: 'PDF Export',
  NativeExport: 'Native Export',
};

// The statuses a received message can be in (back-office-b §4 numbers), offered as a list filter.
export const intakeStatusFilter: MessageStatusName[] = ['Received', 'Pending', 'Processed', 'Forwarded', 'Replied', 'Triaged', 'Uploaded', 'Failed'];
export const statusOptions = intakeStatusFilter.map((name) => ({ value: String(messageStatusNumbers[name]), label: name }));
export const sourceTypeOptions = intakeSourceTypes.map((value) => ({ value, label: value === 'DeliverySummary' ? 'Delivery Summary' : value }));
export const processedTypeOptions = processedTypes.map((value) => ({ value, label: processedTypeLabels[value] }));

// Not in the spec: confirmations of Intake's edits, which save as soon as they are made.
export const intakeSaveTexts = {
  patientSaved: 'Patient details saved.',
  patientNotSaved: 'The patient details were not saved.',
  fixPatient: 'Correct the highlighted patient fields, then save again.',
  attachmentSaved: {
    fileName: 'Attachment name saved.',
    documentType: 'Document type saved.',
    documentDate: 'Document date saved.',
    documentDescription: 'Description saved.',
    isSelected: 'Attachment selection saved.',
  },
  attachmentNotSaved: (what: string, reason: string) => `${what} was not saved: ${reason}`,
  unsavedChanges: 'You have unsaved changes. Leave this page and lose them?',
} as const;
