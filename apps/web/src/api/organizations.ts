import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  npiResult,
  organization,
  organizationAdmin,
  organizationChoices,
  organizationPage,
  organizationQueueCounts,
  organizationRecord,
  syncResponse,
  type OrganizationInput,
  type OrganizationQueue,
} from '@clinicrelay/contracts/organizations.ts';
import { specialty } from '@clinicrelay/contracts/reference-data.ts';
import { z } from 'zod';
import type { ListState } from '../components/list-state.ts';
import { responseFileName } from '../components/save-file.ts';
import { apiFetch, apiResponse } from './client.ts';

// back-office-a §7 "Organizations".

export const organizationKeys = {
  all: ['organizations'] as const,
  one: (id: string) => [...organizationKeys.all, 'one', id] as const,
  choices: () => [...organizationKeys.all, 'choices'] as const,
  specialties: () => [...organizationKeys.all, 'specialties'] as const,
  admins: (id: string) => [...organizationKeys.all, 'admins', id] as const,
  records: (id: string, what: string) => [...organizationKeys.all, what, id] as const,
  queues: () => [...organizationKeys.all, 'queues'] as const,
};

export const fetchQueueCounts = (signal?: AbortSignal) => apiFetch('/api/admin/organizations/queues', { schema: organizationQueueCounts, signal });

export function fetchOrganizations(state: ListState, cancelling: boolean, signal: AbortSignal, status?: OrganizationQueue) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  if (cancelling) params.set('cancelling', 'true');
  if (status) params.set('status', status);
  return apiFetch(`/api/organizations?${params.toString()}`, { schema: organizationPage, signal });
}
// The list's Id column is the numeric orgId; the edit route takes the uuid.
export async function findOrganizationByOrgId(orgId: string, signal?: AbortSignal) {
  const page = await apiFetch(`/api/organizations?${new URLSearchParams({ orgId, pageNumber: '1', pageSize: '1' }).toString()}`, { schema: organizationPage, signal });
  return page.items[0] ?? null;
}
export const fetchOrganization = (id: string, signal?: AbortSignal) => apiFetch(`/api/organizations/${id}`, { schema: organization, signal });
export const createOrganization = (body: OrganizationInput) => apiFetch('/api/organizations/', { method: 'POST', body, schema: organization });
export const updateOrganization = (id: string, body: OrganizationInput) => apiFetch(`/api/organizations/${id}`, { method: 'PUT', body, schema: organization });
export const deleteOrganization = (id: string) => apiFetch(`/api/organizations/${id}`, { method: 'DELETE', schema: okResponse });

export const setActivation = (id: string, body: { activated: boolean; sendEmail: boolean; seedRecords: boolean }) =>
  apiFetch(`/api/organizations/${id}/activate`, { method: 'PUT', body: { id, ...body }, schema: organization });
export const setLoginAbility = (id: string, enabled: boolean) => apiFetch(`/api/organizations/${id}/enable/`, { method: 'PUT', body: { enabled }, schema: organization });
export const setApiCapture = (id: string, apiCapture: boolean) => apiFetch(`/api/organizations/${id}/apicapture/`, { method: 'PUT', body: { apiCapture }, schema: organization });
export const clearCancellation = (id: string) => apiFetch(`/api/organizations/${id}/clearcancel`, { method: 'POST', schema: okResponse });
export const syncOrganization = (id: string) => apiFetch(`/api/organizations/${id}/sync`, { method: 'POST', schema: syncResponse });

export const fetchChoices = (signal?: AbortSignal) => apiFetch('/api/admin/organizations/choices', { schema: organizationChoices, signal });
// The full list the details tab offers (cached by the query client).
export const fetchSpecialtyOptions = (signal?: AbortSignal) => apiFetch('/api/organizations/specialties', { schema: z.array(specialty), signal });

export const subdomainExists = (subdomain: string, id?: string, signal?: AbortSignal) =>
  apiFetch(`/api/organizations/subdomain/exists?${new URLSearchParams({ id: id ?? '', subdomain }).toString()}`, { schema: z.boolean(), signal });
export const subdomainIsValid = (subdomain: string, organizationId?: string, signal?: AbortSignal) =>
  apiFetch(`/api/organizations/subdomain/isvalid?${new URLSearchParams({ organizationId: organizationId ?? '', subdomain }).toString()}`, { schema: z.boolean(), signal });

export const lookUpNpi = (npiNumber: string, signal?: AbortSignal) => apiFetch(`/api/admin/organizations/npi?${new URLSearchParams({ npiNumber }).toString()}`, { schema: npiResult, signal });

export const fetchAdmins = (id: string, signal?: AbortSignal) => apiFetch(`/api/admin/organizations/${id}/admins`, { schema: z.array(organizationAdmin), signal });
export const fetchRecords = (id: string, what: 'devices' | 'integrations', signal?: AbortSignal) =>
  apiFetch(what === 'integrations' ? `/api/organizations/${id}/integrations` : `/api/admin/organizations/${id}/${what}`, { schema: z.array(organizationRecord), signal });

/** The Direct addresses of every organization as the CSV file the server names. */
export async function downloadDirectAddresses() {
  const response = await apiResponse('/api/admin/reports/directaddresses', { accept: 'text/csv' });
  return { blob: await response.blob(), fileName: responseFileName(response, 'DirectAddresses.csv') };
}
