import { okResponse } from '@clinicrelay/contracts/account.ts';
import { crosswalkResult, healthServiceAreaPage, region, regionPage, type RegionInput } from '@clinicrelay/contracts/regions.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-b §7 "Regions and service areas".
export const regionKeys = ['health-referral-regions'] as const;
export const serviceAreaKeys = ['health-service-areas'] as const;

const pageParams = (state: ListState) => {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  return params.toString();
};

export const fetchRegions = (state: ListState, signal: AbortSignal) => apiFetch(`/api/healthreferralregion?${pageParams(state)}`, { schema: regionPage, signal });
export const createRegion = (body: RegionInput) => apiFetch('/api/healthreferralregion', { method: 'POST', body, schema: region });
export const updateRegion = (id: string, body: RegionInput) => apiFetch(`/api/healthreferralregion/${id}`, { method: 'PUT', body, schema: region });
export const deleteRegion = (id: string) => apiFetch(`/api/healthreferralregion/${id}`, { method: 'DELETE', schema: okResponse });

export const fetchServiceAreas = (state: ListState, signal: AbortSignal) => apiFetch(`/api/healthserviceareas?${pageParams(state)}`, { schema: healthServiceAreaPage, signal });
export function uploadCrosswalk(file: File) {
  const form = new FormData();
  form.append('file', file);
  return apiFetch('/api/healthserviceareas/crosswalk', { method: 'POST', body: form, schema: crosswalkResult });
}
