import { z } from 'zod';
import { isValidIsoDate, message } from './messages.ts';

// Message status numbers of back-office-b §4 (0 is "Saved" for a draft). Lists and filters use them.
export const messageStatusNumbers = {
  Sent: 0,
  Received: 1,
  Pending: 2,
  Signed: 3,
  Suspended: 4,
  Deleted: 5,
  Removed: 6,
  Forwarded: 7,
  Replied: 8,
  Processed: 9,
  Uploaded: 10,
  Triaged: 11,
  Failed: 12,
} as const;
export type MessageStatusName = keyof typeof messageStatusNumbers;

export const processedTypes = ['Printed', 'StructuredExport', 'PDFExport', 'NativeExport'] as const;
export const intakeSourceTypes = ['Direct', 'Fax', 'Upload', 'DeliverySummary', 'Triage'] as const;
export const INTAKE_PAGE_SIZE = 30;
// Start of the default date range: 30 days before now, at UTC start of day (end-user §4).
export const INTAKE_DEFAULT_DAYS = 30;

// A filter rule (end-user §3): toAddress, fromAddress, sourceType. POST /api/messages carries the
// rules JSON-stringified in `rules`.
export const intakeRule = z.object({
  toAddress: z.string().trim().toLowerCase().max(256).nullish(),
  fromAddress: z.string().trim().toLowerCase().max(256).nullish(),
  sourceType: z.enum(intakeSourceTypes).nullish(),
});
export type IntakeRule = z.infer<typeof intakeRule>;

const optionalIsoDate = z
  .string()
  .trim()
  .max(10)
  .nullish()
  .refine((v) => !v || isValidIsoDate(v), 'Date is invalid.');

// POST /api/messages: the Message list filter of end-user §3. Empty values mean "no filter".
export const intakeFilter = z.object({
  pageStart: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(INTAKE_PAGE_SIZE),
  orderDir: z.enum(['asc', 'desc']).default('desc'),
  orderBy: z.enum(['receiveDate', 'updatedDate']).default('receiveDate'),
  // Defaults: start 30 days before now (UTC start of day), no end.
  startDate: optionalIsoDate,
  endDate: optionalIsoDate,
  rules: z
    .string()
    .max(20_000)
    .nullish()
    .transform((v, ctx) => {
      if (!v) return [] as IntakeRule[];
      try {
        const parsed = z.array(intakeRule).max(100).safeParse(JSON.parse(v));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'Rules are invalid.' });
      return z.NEVER;
    }),
  statuses: z.array(z.number().int().min(0).max(12)).max(13).nullish(),
  isAll: z.boolean().nullish(),
  isUnassigned: z.boolean().nullish(),
  sourceTypes: z.array(z.enum(intakeSourceTypes)).max(5).nullish(),
  isAssignedToSelf: z.boolean().nullish(),
  processedTypes: z.array(z.enum(processedTypes)).max(4).nullish(),
  // Document source ids (the organization's Direct addresses and fax numbers) the message came to.
  sources: z.array(z.string().uuid()).max(100).nullish(),
  // Free text: subject, from, to, patient name.
  filter: z.string().trim().max(200).nullish(),
});
export type IntakeFilter = z.input<typeof intakeFilter>;

export const intakeListItem = message
  .pick({
    id: true,
    subject: true,
    fromAddress: true,
    toAddress: true,
    messageDate: true,
    systemReceivedDate: true,
    updatedDate: true,
    isUrgent: true,
    isProcessed: true,
    processedType: true,
    sourceType: true,
    patientName: true,
    status: true,
  })
  .extend({
    statusNumber: z.number().int(),
    attachmentCount: z.number().int(),
    faxPageCount: z.number().int().nullable(),
    isRead: z.boolean(),
  });
export type IntakeListItem = z.infer<typeof intakeListItem>;
export const intakeList = z.object({ items: z.array(intakeListItem), totalCount: z.number().int() });
