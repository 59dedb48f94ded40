import { mailMessageObjectIdResult, messageLookupList, objectIdResult } from '@clinicrelay/contracts/utilities.ts';
import { bulkRetryResult, workflowPage, workflowRetryResult, type BulkRetryInput, type WorkflowRetryInput } from '@clinicrelay/contracts/workflows.ts';
import { apiFetch } from './client.ts';

// back-office-b §2 Workflows grid, §7 Diagnostics; back-office-a §2 Bulk workflow retry and Message utilities.

export interface WorkflowGridState {
  category: string;
  status: string;
  type: string;
  channel: string;
  search: string;
  page: number;
  pageSize: number;
}

export const workflowKeys = {
  all: ['workflows'] as const,
  grid: (state: WorkflowGridState) => ['workflows', 'grid', state] as const,
};

export function fetchWorkflows(state: WorkflowGridState, signal: AbortSignal) {
  const params = new URLSearchParams({ category: state.category, pageNumber: String(state.page), pageSize: String(state.pageSize) });
  for (const key of ['status', 'type', 'channel', 'search'] as const) if (state[key]) params.set(key, state[key]);
  return apiFetch(`/api/diagnostics/messaging/workflows?${params.toString()}`, { schema: workflowPage, signal });
}

export const retryWorkflowStep = (id: string, body: WorkflowRetryInput) => apiFetch(`/api/workflows/${id}`, { method: 'PUT', body, schema: workflowRetryResult });
export const bulkRetryWorkflows = (body: BulkRetryInput) => apiFetch('/api/workflows/retry', { method: 'POST', body, schema: bulkRetryResult });

export const lookupMessage = (id: string) => apiFetch(`/api/utilities?${new URLSearchParams({ id }).toString()}`, { schema: messageLookupList });
export const decodeMailMessageObjectIds = (objectIds: string[]) =>
  apiFetch('/api/utilities/mailmessages/objectids', { method: 'POST', body: { objectIds }, schema: mailMessageObjectIdResult });
export const decodeObjectIds = (objectIds: string[]) => apiFetch('/api/utilities/objectids', { method: 'POST', body: objectIds, schema: objectIdResult });
