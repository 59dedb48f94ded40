import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  reservedWord,
  reservedWordPage,
  specialty,
  specialtyPage,
  type ReservedWordInput,
  type SpecialtyInput,
} from '@clinicrelay/contracts/reference-data.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-a §7 "Reserved words" and "Specialties".

export const reservedWordKeys = ['reservedwords'] as const;
export const specialtyKeys = ['specialties'] as const;

export function fetchReservedWords(state: ListState, profanity: boolean | null, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  if (profanity !== null) params.set('profanity', String(profanity));
  return apiFetch(`/api/reservedwords?${params.toString()}`, { schema: reservedWordPage, signal });
}
export const createReservedWord = (body: ReservedWordInput) => apiFetch('/api/reservedwords', { method: 'POST', body, schema: reservedWord });
export const updateReservedWord = (id: string, body: ReservedWordInput) => apiFetch(`/api/reservedwords/${id}`, { method: 'PUT', body, schema: reservedWord });
export const deleteReservedWord = (id: string) => apiFetch(`/api/reservedwords/${id}`, { method: 'DELETE', schema: okResponse });

export function fetchSpecialties(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageStart: String(state.page), pageSize: String(state.pageSize) });
  if (state.search) params.set('search', state.search);
  return apiFetch(`/api/admin/organizationspecialties?${params.toString()}`, { schema: specialtyPage, signal });
}
export const createSpecialty = (body: SpecialtyInput) => apiFetch('/api/admin/organizationspecialties', { method: 'POST', body, schema: specialty });
export const updateSpecialty = (id: number, body: SpecialtyInput) => apiFetch(`/api/admin/organizationspecialties/${id}`, { method: 'PUT', body, schema: specialty });
export const deleteSpecialty = (id: number) => apiFetch(`/api/admin/organizationspecialties/${id}`, { method: 'DELETE', schema: okResponse });
