import { adminAuditList, secureLog, type AdminAuditsSearch } from '@clinicrelay/contracts/audits.ts';
import type { ListState } from '../components/list-state.ts';
import { responseFileName } from '../components/save-file.ts';
import { apiFetch, apiResponse } from './client.ts';

// back-office-b Audits and back-office-a Secure logs.

export const auditsKeys = {
  all: ['admin-audits'] as const,
  page: (state: ListState) => [...auditsKeys.all, state] as const,
  secureLog: (referenceId: string) => ['securelogs', referenceId] as const,
};

// The list's search box is the user name filter; its date range the start and end.
const searchOf = (state: ListState): AdminAuditsSearch => ({
  startDate: state.startDate,
  endDate: state.endDate,
  username: state.search || null,
  pageStart: state.page,
  pageSize: state.pageSize,
});

export const fetchAudits = (state: ListState, signal?: AbortSignal) =>
  apiFetch('/api/admin/audits', { method: 'POST', body: searchOf(state), schema: adminAuditList, signal });

/** The whole search as the CSV file the server names by its start and end dates. */
export async function downloadAudits(state: ListState) {
  const response = await apiResponse('/api/admin/audits', { method: 'POST', body: searchOf(state), accept: 'text/csv' });
  return { blob: await response.blob(), fileName: responseFileName(response, `Audits_${state.startDate ?? 'start'}_${state.endDate ?? 'end'}.csv`) };
}

export const fetchSecureLog = (referenceId: string, signal?: AbortSignal) =>
  apiFetch(`/api/admin/securelogs/${encodeURIComponent(referenceId)}`, { schema: secureLog, signal });
