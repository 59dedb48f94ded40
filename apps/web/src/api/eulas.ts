import { okResponse } from '@clinicrelay/contracts/account.ts';
import { eula, eulaPage, eulaSortColumns, type EulaCreateFields } from '@clinicrelay/contracts/eulas.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-b "EULA / TOS" (/admin/eulas): the terms documents of every brand. The end-user calls (current terms,
// accept) live with the onboarding dialog (features/onboarding/api.ts).

export const eulaKeys = {
  all: ['eulas'] as const,
  one: (id: string) => [...eulaKeys.all, 'one', id] as const,
};

export function fetchEulas(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  if (state.sortCol && (eulaSortColumns as readonly string[]).includes(state.sortCol)) params.set('col', state.sortCol);
  return apiFetch(`/api/admin/eulas?${params.toString()}`, { schema: eulaPage, signal });
}

/** GET /api/admin/eulas/{id}: the document with its sanitized html. */
export const fetchEula = (id: string, signal?: AbortSignal) => apiFetch(`/api/admin/eulas/${id}`, { schema: eula, signal });

/** POST /api/admin/eulas: multipart with the HTML file and the type, brand and version parts. */
export function createEula(values: EulaCreateFields, file: File) {
  const form = new FormData();
  form.append('type', values.type);
  form.append('brandId', values.brandId);
  form.append('version', values.version);
  form.append('file', file);
  return apiFetch('/api/admin/eulas', { method: 'POST', body: form, schema: eula });
}

export const activateEula = (id: string) => apiFetch(`/api/admin/eulas/${id}/activate`, { method: 'POST', schema: eula });

export const deleteEula = (id: string) => apiFetch(`/api/admin/eulas/${id}`, { method: 'DELETE', schema: okResponse });
