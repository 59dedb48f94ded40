import { feature, featurePage, type FeatureInput } from '@clinicrelay/contracts/feature-toggles.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-b §2 "Feature toggles"; the calls are chosen in contracts/feature-toggles.ts (the spec shows none).
export const featureToggleKeys = ['feature-toggles'] as const;

export function fetchFeatureToggles(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  return apiFetch(`/api/admin/features?${params.toString()}`, { schema: featurePage, signal });
}
export const createFeatureToggle = (body: FeatureInput) => apiFetch('/api/admin/features', { method: 'POST', body, schema: feature });
export const updateFeatureToggle = (id: string, body: FeatureInput) => apiFetch(`/api/admin/features/${id}`, { method: 'PUT', body, schema: feature });
