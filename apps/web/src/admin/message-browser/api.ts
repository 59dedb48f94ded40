import {
  type ConversionPerformanceRow,
  type EventMessageRow,
  type MailMessageRow,
  mailMessageFields,
  type ODataCollection,
  odataCollection,
  type AttachmentDetail,
  type WorkflowDetail,
} from '@clinicrelay/contracts/message-browser.ts';
import { apiFetch } from '../../api/client.ts';
import type { ListState } from '../../components/list-state.ts';

// back-office-b §7 Diagnostics data feeds, read with OData v4 system query options.

export const messageBrowserKeys = {
  all: ['message-browser'] as const,
  list: (state: ListState) => [...messageBrowserKeys.all, 'list', state] as const,
  details: (id: string) => [...messageBrowserKeys.all, 'details', id] as const,
  events: (id: string) => [...messageBrowserKeys.all, 'events', id] as const,
  conversions: (id: string) => [...messageBrowserKeys.all, 'conversions', id] as const,
};

// An OData string literal: quotes doubled.
const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

// The grid's columns: every mail message field but the tenant and the detail collections (asked for per row).
const NOT_LISTED = new Set<string>(['TenantId', 'Workflows', 'Attachments']);
export const LIST_COLUMNS = mailMessageFields.filter((field) => !NOT_LISTED.has(field));
export const SORTABLE = new Set<string>(['CreatedDate', 'Sender', 'MailTo', 'Status', 'WorkflowStatus', 'Duration']);

/** The grid's state (URL) as $filter: search over the addresses and HISP message id, status, direction, dates. */
export function filterOf(state: ListState): string | undefined {
  const parts: string[] = [];
  const search = state.search.trim().toLowerCase();
  if (search) {
    const q = quoted(search);
    parts.push(`(contains(tolower(Sender),${q}) or contains(tolower(MailTo),${q}) or contains(tolower(HispMessageId),${q}))`);
  }
  const status = state.filters.Status?.value;
  if (status && /^\d+$/.test(status)) parts.push(`Status eq ${status}`);
  const direction = state.filters.Direction?.value;
  if (direction === 'Inbound' || direction === 'Outbound') parts.push(`Direction eq ${quoted(direction)}`);
  const workflowStatus = state.filters.WorkflowStatus?.value;
  if (workflowStatus) parts.push(`WorkflowStatus eq ${quoted(workflowStatus)}`);
  if (state.startDate) parts.push(`CreatedDate ge ${new Date(`${state.startDate}T00:00:00`).toISOString()}`);
  if (state.endDate) parts.push(`CreatedDate lt ${new Date(new Date(`${state.endDate}T00:00:00`).getTime() + 86_400_000).toISOString()}`);
  return parts.length ? parts.join(' and ') : undefined;
}

const feed = <Row>(path: string, options: Record<string, string | undefined>, signal?: AbortSignal) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(options)) if (value !== undefined) params.set(name, value);
  return apiFetch(`${path}?${params.toString()}`, { schema: odataCollection, ...(signal ? { signal } : {}) }) as Promise<ODataCollection<Row>>;
};

export async function fetchMessages(state: ListState, signal: AbortSignal) {
  const sortCol = state.sortCol && SORTABLE.has(state.sortCol) ? state.sortCol : 'CreatedDate';
  const sortDir = state.sortCol ? state.sortDir : 'desc';
  const answer = await feed<MailMessageRow>(
    '/odata/mailmessages',
    {
      $filter: filterOf(state),
      $orderby: `${sortCol} ${sortDir}`,
      $top: String(state.pageSize),
      $skip: String((state.page - 1) * state.pageSize),
      $count: 'true',
      $select: LIST_COLUMNS.join(','),
    },
    signal,
  );
  return { items: answer.value, totalCount: answer['@odata.count'] ?? answer.value.length };
}

export async function fetchMessageDetails(id: string, signal: AbortSignal) {
  const answer = await feed<{ Workflows: WorkflowDetail[]; Attachments: AttachmentDetail[] }>(
    '/odata/mailmessages',
    { $filter: `MailMessageId eq ${id}`, $select: 'Workflows,Attachments' },
    signal,
  );
  return answer.value[0] ?? { Workflows: [], Attachments: [] };
}

export const fetchMessageEvents = async (id: string, signal: AbortSignal) =>
  (await feed<EventMessageRow>('/odata/eventmessages', { $filter: `MailMessageId eq ${id}`, $orderby: 'CreatedDate asc' }, signal)).value;

export const fetchConversions = async (id: string, signal: AbortSignal) =>
  (await feed<ConversionPerformanceRow>('/odata/conversionperformance', { $filter: `MailMessageId eq ${id}`, $orderby: 'StartTime asc' }, signal)).value;
