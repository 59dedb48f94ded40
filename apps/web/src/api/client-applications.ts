import { okResponse } from '@clinicrelay/contracts/account.ts';
import { clientApplication, clientApplicationPage, type ClientApplicationInput } from '@clinicrelay/contracts/client-applications.ts';
import { organizationPage } from '@clinicrelay/contracts/organizations.ts';
import { consentDetails, consentRedirect } from '@clinicrelay/contracts/oauth.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-b "Client applications" (issue 29 §1) and the OAuth consent screen's calls.

export const clientApplicationKeys = ['clientapplications'] as const;

export function fetchClientApplications(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  if (state.sortCol) params.set('col', state.sortCol);
  return apiFetch(`/api/admin/clientapplications?${params.toString()}`, { schema: clientApplicationPage, signal });
}
export const fetchClientApplication = (id: string, signal?: AbortSignal) => apiFetch(`/api/admin/clientapplications/${id}`, { schema: clientApplication, signal });
export const createClientApplication = (body: ClientApplicationInput) => apiFetch('/api/admin/clientapplications', { method: 'POST', body, schema: clientApplication });
export const updateClientApplication = (id: string, body: ClientApplicationInput) => apiFetch(`/api/admin/clientapplications/${id}`, { method: 'PUT', body, schema: clientApplication });
export const deleteClientApplication = (id: string) => apiFetch(`/api/admin/clientapplications/${id}`, { method: 'DELETE', schema: okResponse });
export const resetClientCredentials = (id: string) => apiFetch(`/api/admin/clientapplications/${id}/credentials`, { method: 'POST', schema: clientApplication });

// The organization a client-credentials integration acts for: the first matches of the organization list.
export async function searchOrganizations(search: string, signal?: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: '1', pageSize: '20', sortDir: 'asc', ...(search ? { search } : {}) });
  return (await apiFetch(`/api/organizations?${params.toString()}`, { schema: organizationPage, signal })).items;
}

export const fetchConsent = (uid: string, signal?: AbortSignal) => apiFetch(`/api/oauth/consent/${encodeURIComponent(uid)}`, { schema: consentDetails, signal });
export const answerConsent = (uid: string, allow: boolean) => apiFetch(`/api/oauth/consent/${encodeURIComponent(uid)}`, { method: 'POST', body: { allow }, schema: consentRedirect });
