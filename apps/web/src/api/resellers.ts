import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { reseller, resellerPage, urlCodeResponse, type ResellerInput } from '@clinicrelay/contracts/resellers.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-a §7 "Resellers".

export const resellerKeys = ['resellers'] as const;

export function fetchResellers(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  return apiFetch(`/api/resellers?${params.toString()}`, { schema: resellerPage, signal });
}

/** POST /api/resellers or PUT /api/resellers/{id}: multipart, the `reseller` JSON and the `logo` when one is chosen (§7). */
export function saveReseller(id: string | null, values: ResellerInput, logo: File | null) {
  const form = new FormData();
  form.append('reseller', JSON.stringify(values));
  if (logo) form.append('logo', logo);
  return apiFetch(id ? `/api/resellers/${id}` : '/api/resellers', { method: id ? 'PUT' : 'POST', body: form, schema: reseller });
}

export const deleteReseller = (id: string) => apiFetch(`/api/resellers/${id}`, { method: 'DELETE', schema: okResponse });

export const urlCodeExists = (id: string | null, code: string, signal?: AbortSignal) =>
  apiFetch(`/api/resellers/urlexists?${new URLSearchParams({ id: id ?? '', code }).toString()}`, { schema: z.boolean(), signal });

export const urlCodeUrl = (urlCode: string, signal?: AbortSignal) => apiFetch(`/api/resellers/urlcode?${new URLSearchParams({ urlCode }).toString()}`, { schema: urlCodeResponse, signal });
