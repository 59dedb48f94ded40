import { okResponse } from '@clinicrelay/contracts/account.ts';
import { directoryServiceEntry, directoryServiceEntryPage } from '@clinicrelay/contracts/directory-entries.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// The directory service's entries (/api/kno2directory, back-office-b "Directory entries", SysAdmin).

export const directoryEntryKeys = { all: ['directory-entries'] as const };

export function fetchDirectoryEntries(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  return apiFetch(`/api/kno2directory?${params.toString()}`, { schema: directoryServiceEntryPage, signal });
}

export const createDirectoryEntry = (entry: Record<string, unknown>) => apiFetch('/api/kno2directory', { method: 'POST', body: entry, schema: directoryServiceEntry });

export const updateDirectoryEntry = (entry: Record<string, unknown>) => apiFetch('/api/kno2directory', { method: 'PUT', body: entry, schema: directoryServiceEntry });

export const deleteDirectoryEntry = (tenantId: string, id: string) =>
  apiFetch(`/api/kno2directory/${encodeURIComponent(tenantId)}/${id}`, { method: 'DELETE', schema: okResponse });
