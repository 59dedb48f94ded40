import { z } from 'zod';
import { jsonValue, text } from './text.ts';

// The raw message browser (back-office-b §2 Messages browser) and its OData v4 feeds (§7 Diagnostics: data feeds).

// A grid asks for one page at a time; a bigger $top is cut to this and the answer carries @odata.nextLink.
export const ODATA_MAX_TOP = 1000;
// Longest query option text read ($filter, $orderby, $select): a grid's filters fit well within it.
export const ODATA_MAX_OPTION_LENGTH = 4000;
// The browser's first page size: §9's options are 10, 25, 50, 100 (20 is not one of them), 25 as the workflows grid.
export const MESSAGE_BROWSER_DEFAULT_PAGE_SIZE = 25;

// back-office-b §4 Message status numbers (0 is Saved when the message is a draft).
export const messageStatusNames: Record<number, string> = {
  0: 'Sent',
  1: 'Received',
  2: 'Pending',
  3: 'Signed',
  4: 'Suspended',
  5: 'Deleted',
  6: 'Removed',
  7: 'Forwarded',
  8: 'Replied',
  9: 'Processed',
  10: 'Uploaded',
  11: 'Triaged',
  12: 'Failed',
};
export const messageStatusName = (status: number | null, isDraft: boolean): string =>
  status === 0 && isDraft ? 'Saved' : status === null ? 'Unknown' : (messageStatusNames[status] ?? 'Unknown');

// Entity sets and their properties (the whitelist $filter, $orderby and $select are checked against).
// Mail message: back-office-b §3 (MailMessageId, Sender, MailTo, Origin, WorkflowId, Status, IsDraft, CreatedDate,
// SystemReceivedDate) and the message row (HispMessageId, workflow name, status, CorrelationId, duration). Subject,
// body, patient and file names are PHI and are not in any feed.
export const mailMessageFields = [
  'MailMessageId',
  'TenantId',
  'Direction',
  'Sender',
  'MailTo',
  'Origin',
  'Status',
  'IsDraft',
  'CreatedDate',
  'SystemReceivedDate',
  'HispMessageId',
  'WorkflowId',
  'WorkflowName',
  'WorkflowStatus',
  'CorrelationId',
  'Duration',
  'AttachmentCount',
  'ConversionCount',
  // Detail collections (JSON), returned only when named in $select: the Workflows and Attachments tabs.
  'Workflows',
  'Attachments',
] as const;
export const eventMessageFields = ['EventMessageId', 'MailMessageId', 'TenantId', 'Source', 'EventType', 'Recipient', 'UserId', 'CreatedDate'] as const;
export const conversionPerformanceFields = [
  'WorkflowId',
  'ConversionType',
  'MailMessageId',
  'AttachmentId',
  'TenantId',
  'SourceMimeType',
  'SizeInBytes',
  'Status',
  'Attempts',
  'StartTime',
  'EndTime',
  'ElapsedMs',
  'PreviewStatus',
] as const;

export interface WorkflowStepDetail {
  stepName: string;
  key: string;
  status: string;
  attempts: number;
  startTime: string | null;
  endTime: string | null;
  elapsed: number | null;
}
export interface WorkflowDetail {
  WorkflowId: string;
  Name: string;
  Status: string;
  CreatedTime: string;
  Duration: number | null;
  Attempts: number;
  Steps: WorkflowStepDetail[];
}
export interface AttachmentDetail {
  AttachmentId: string;
  MimeType: string;
  SizeInBytes: number;
  PreviewStatus: string;
  TransformStatus: string;
  CreatedDate: string;
}

export interface MailMessageRow {
  MailMessageId: string;
  TenantId: string;
  Direction: 'Outbound' | 'Inbound';
  Sender: string | null;
  MailTo: string;
  Origin: string | null;
  Status: number | null;
  IsDraft: boolean;
  CreatedDate: string;
  SystemReceivedDate: string | null;
  HispMessageId: string | null;
  WorkflowId: string | null;
  WorkflowName: string | null;
  WorkflowStatus: string | null;
  CorrelationId: string | null;
  // Milliseconds from the workflow's creation to its completion (or its last update while unfinished).
  Duration: number | null;
  AttachmentCount: number;
  ConversionCount: number;
  Workflows?: WorkflowDetail[];
  Attachments?: AttachmentDetail[];
}
export interface EventMessageRow {
  EventMessageId: string;
  MailMessageId: string;
  TenantId: string;
  Source: 'Message' | 'Delivery';
  EventType: string;
  Recipient: string | null;
  UserId: string | null;
  CreatedDate: string;
}
export interface ConversionPerformanceRow {
  WorkflowId: string;
  ConversionType: string;
  MailMessageId: string;
  AttachmentId: string;
  TenantId: string;
  SourceMimeType: string;
  SizeInBytes: number;
  Status: string;
  Attempts: number;
  StartTime: string;
  EndTime: string | null;
  ElapsedMs: number | null;
  PreviewStatus: string;
}

// OData v4 JSON (minimal metadata): the rows under `value`, the total under `@odata.count` when $count=true.
export const odataCollection = z.object({
  '@odata.context': text(),
  '@odata.count': z.number().int().optional(),
  '@odata.nextLink': text().optional(),
  value: z.array(z.record(text(), jsonValue())),
});
export type ODataCollection<Row> = { '@odata.context': string; '@odata.count'?: number; '@odata.nextLink'?: string; value: Row[] };

export const messageBrowserMessages = {
  refreshed: 'Messages refreshed.',
  loadFailed: 'Error loading messages.',
  noResults: 'There are no results matching your criteria.',
} as const;
