import { okResponse } from '@clinicrelay/contracts/account.ts';
import { network, networkAdministrator, networkFeatureSettings, networkOrganization, networkPage } from '@clinicrelay/contracts/networks.ts';
import { z } from 'zod';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-a §7 "Networks". The features tab reads NETWORK_FEATURES from the contracts, the list GET /api/networkfeatures serves.

export const networkKeys = {
  all: ['networks'] as const,
  one: (id: string) => [...networkKeys.all, 'one', id] as const,
};

export function fetchNetworks(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  return apiFetch(`/api/networks?${params.toString()}`, { schema: networkPage, signal });
}
export const fetchNetwork = (id: string, signal?: AbortSignal) => apiFetch(`/api/networks/${id}`, { schema: network, signal });
export const createNetwork = (name: string) => apiFetch('/api/networks/', { method: 'POST', body: { name }, schema: network });
export const updateNetwork = (id: string, body: { name: string; enabledNetworkFeatureIds?: number[] }) => apiFetch(`/api/networks/${id}`, { method: 'PUT', body, schema: network });
export const deleteNetwork = (id: string) => apiFetch(`/api/networks/${id}`, { method: 'DELETE', schema: okResponse });

export type NetworkMemberKind = 'organizations' | 'admins';

/** The typeahead's suggestions, as options: what may still be added (the server answers from the second character). */
export async function searchNetworkCandidates(id: string, kind: NetworkMemberKind, search: string, signal?: AbortSignal): Promise<{ value: string; label: string }[]> {
  const path = `/api/admin/networks/${id}/${kind}?${new URLSearchParams({ search }).toString()}`;
  if (kind === 'organizations') return (await apiFetch(path, { schema: z.array(networkOrganization), signal })).map((o) => ({ value: o.id, label: o.name }));
  return (await apiFetch(path, { schema: z.array(networkAdministrator), signal })).map((u) => ({ value: u.id, label: `${u.fullName} (${u.userName})` }));
}
export const addNetworkMember = (id: string, kind: NetworkMemberKind, memberId: string) =>
  apiFetch(`/api/admin/networks/${id}/${kind}/`, { method: 'POST', body: kind === 'organizations' ? { organizationId: memberId } : { networkId: id, userId: memberId }, schema: okResponse });
export const removeNetworkMember = (id: string, kind: NetworkMemberKind, memberId: string) =>
  apiFetch(`/api/admin/networks/${id}/${kind}/${memberId}`, { method: 'DELETE', schema: okResponse });

// end-user §6: a network's administrators toggle its features (PUT answers 404 for anyone else).
export const networkFeatureKeys = { one: (id: string) => ['network-features', id] as const };
export const fetchNetworkFeatureSettings = (id: string, signal?: AbortSignal) => apiFetch(`/api/networks/${id}/features`, { schema: networkFeatureSettings, signal });
export const updateNetworkFeatureSettings = (id: string, enabledNetworkFeatureIds: number[]) =>
  apiFetch(`/api/networks/${id}/features`, { method: 'PUT', body: { enabledNetworkFeatureIds }, schema: networkFeatureSettings });
