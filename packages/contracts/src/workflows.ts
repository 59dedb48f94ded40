import { z } from 'zod';
import { jsonValue, text } from './text.ts';

// back-office-b §2 Workflows grid, §3 Workflow, §4 Workflow step, §7 Diagnostics; back-office-a §2 Bulk workflow retry.

export const workflowStatuses = ['Pending', 'Running', 'Completed', 'Failed'] as const;
// Retry: an operator asked for the step to run again (back-office-b §4).
export const workflowStepStatuses = ['Pending', 'Running', 'Completed', 'Failed', 'Retry'] as const;
// The grid's tabs (the spec names them only): message workflows, attachment work (renditions, extraction), and the
// rest (mail, notifications, webhooks, delivery summaries).
export const workflowCategories = ['workflows', 'attachments', 'events'] as const;
// The spec's two workflow types (back-office-b §4); the grid's query also takes intake (receive) and release (send),
// as the dashboard links to it, or a workflow type's own name.
export const retryTypes = ['send', 'receive'] as const;
// Channels a message workflow travels: Direct over SMTP, Local (a Direct address on this installation), Fax.
export const workflowChannels = ['Direct', 'Local', 'Fax'] as const;

export const WORKFLOWS_PAGE_SIZE = 25;
export const workflowPageSizes = [10, 25, 50, 100] as const;

export const workflowMessages = {
  typeMissing: 'Type is missing.',
  stepMissing: 'Step Type is missing.',
  idsMissing: 'Workflow Ids are missing.',
  retried: 'The step will run again.',
  alreadyRetrying: 'The step is already waiting to run again.',
  running: 'The workflow is running; retry it when it stops.',
  nothingToRetry: 'Only a step that is not Completed can be retried.',
  notFound: 'No workflow of this type has this id.',
} as const;

export const retryOutcomes = ['Retried', 'AlreadyRetrying', 'Running', 'NothingToRetry', 'NotFound'] as const;
export type RetryOutcomeName = (typeof retryOutcomes)[number];
export const retryOutcomeText: Record<RetryOutcomeName, string> = {
  Retried: workflowMessages.retried,
  AlreadyRetrying: workflowMessages.alreadyRetrying,
  Running: workflowMessages.running,
  NothingToRetry: workflowMessages.nothingToRetry,
  NotFound: workflowMessages.notFound,
};

export const workflowGridQuery = z.object({
  category: z.enum(workflowCategories).default('workflows'),
  status: z.enum(workflowStatuses).optional(),
  type: text().trim().max(100).optional(),
  channel: text().trim().max(50).optional(),
  // A workflow id, a message id, an object id or a Direct Message-ID.
  search: text().trim().max(300).optional(),
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(WORKFLOWS_PAGE_SIZE),
});
export type WorkflowGridQuery = z.input<typeof workflowGridQuery>;

// No patient data: step results are ids and outcomes, errors are messages without stacks or query values.
export const workflowStep = z.object({
  id: text(),
  stepName: text(),
  // The unit of work the step is for (a recipient's address), empty when the step is the workflow's only one.
  key: text(),
  status: z.enum(workflowStepStatuses),
  startTime: text().nullable(),
  endTime: text().nullable(),
  // Milliseconds from start to end (to now while it runs).
  elapsed: z.number().nullable(),
  attempts: z.number().int(),
  lastError: text().nullable(),
  meta: z.record(text(), jsonValue()).nullable(),
});
export type WorkflowStep = z.infer<typeof workflowStep>;

export const attachmentEvent = z.object({ attachmentId: text(), mimeType: text(), size: z.number().nullable(), previewStatus: text().nullable() });

// The message a workflow is about (no subject nor body: they may name the patient).
export const workflowMailMessage = z.object({
  mailMessageId: text(),
  objectId: text(),
  tenantId: text(),
  sender: text().nullable(),
  mailTo: text(),
  origin: text().nullable(),
  status: text(),
  attachmentEvents: z.array(attachmentEvent),
});

export const workflowRow = z.object({
  id: text(),
  objectId: text(),
  // The workflow's own type (send-message, receive-direct, …) and, for message workflows, send or receive.
  type: text(),
  kind: z.enum(retryTypes).nullable(),
  status: z.enum(workflowStatuses),
  channel: z.array(text()),
  createdTime: text(),
  // Milliseconds from creation to the end (to now while unfinished).
  duration: z.number(),
  hispMessageId: text().nullable(),
  // What started the workflow: its type and the ids it was given.
  command: z.record(text(), jsonValue()),
  mailMessage: workflowMailMessage.nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  lastError: text().nullable(),
  steps: z.array(workflowStep),
});
export type WorkflowRow = z.infer<typeof workflowRow>;
export const workflowPage = z.object({ items: z.array(workflowRow), totalCount: z.number().int() });

export const workflowIdParams = z.object({ id: text().uuid() });
export const workflowTypeQuery = z.object({ type: text().trim().max(100).optional() });

// PUT /api/workflows/{id}: {type, retryStep, id}. id, when sent, is the workflow's (the path's) id; key narrows the
// retry to one unit of work (one recipient), an addition the grid's per-step Retry button sends.
// A missing field reads as the spec's message, not the generic "is required".
const required = (message: string) => z.preprocess((v) => v ?? '', text().trim().min(1, message).max(100));

export const workflowRetryInput = z.object({
  type: required(workflowMessages.typeMissing),
  retryStep: required(workflowMessages.stepMissing),
  id: text().max(100).optional(),
  key: text().max(500).optional(),
});
export type WorkflowRetryInput = z.input<typeof workflowRetryInput>;
export const workflowRetryResult = z.object({ result: z.enum(retryOutcomes), message: text(), workflow: workflowRow.nullable() });

// POST /api/workflows/retry: workflowIds as a list, or the form's comma-separated text.
export const bulkRetryInput = z.object({
  type: z.enum(retryTypes, { error: workflowMessages.typeMissing }),
  retryStep: required(workflowMessages.stepMissing),
  workflowIds: z
    .union([z.array(text().trim().max(100)).max(1000), text().max(100_000)], { error: workflowMessages.idsMissing })
    .transform((ids) => (typeof ids === 'string' ? ids.split(/[,\s]+/) : ids).map((id) => id.trim()).filter(Boolean))
    .refine((ids) => ids.length > 0, workflowMessages.idsMissing)
    .refine((ids) => ids.length <= 1000, 'At most 1000 workflow ids at a time.'),
});
export type BulkRetryInput = z.input<typeof bulkRetryInput>;
export const bulkRetryResult = z.object({
  results: z.array(z.object({ workflowId: text(), result: z.enum(retryOutcomes), message: text() })),
});
export type BulkRetryResult = z.infer<typeof bulkRetryResult>;
