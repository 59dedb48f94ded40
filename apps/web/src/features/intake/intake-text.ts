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
