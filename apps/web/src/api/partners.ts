import { okResponse } from '@clinicrelay/contracts/account.ts';
import { partner, partnerPage, partnerSortColumns } from '@clinicrelay/contracts/partners.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-a §7 "Partners".

export const partnerKeys = ['partners'] as const;

export function fetchPartners(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  if (state.sortCol && (partnerSortColumns as readonly string[]).includes(state.sortCol)) params.set('col', state.sortCol);
  return apiFetch(`/api/partners?${params.toString()}`, { schema: partnerPage, signal });
}

/** PUT /api/partners: creates without an id, updates with one; multipart (`partner` JSON and `file`) when a logo is chosen. */
export function savePartner(values: { id?: string; name: string }, file: File | null) {
  if (!file) return apiFetch('/api/partners', { method: 'PUT', body: values, schema: partner });
  const form = new FormData();
  form.append('partner', JSON.stringify(values));
  form.append('file', file);
  return apiFetch('/api/partners', { method: 'PUT', body: form, schema: partner });
}

export const deletePartner = (id: string) => apiFetch(`/api/partners/${id}`, { method: 'DELETE', schema: okResponse });
