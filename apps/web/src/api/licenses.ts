import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  issuedLicenses,
  licenseFeed,
  licenseType,
  licenseTypePage,
  organizationLicense,
  type LicenseIssueForm,
  type LicenseRow,
  type LicenseTypeInput,
} from '@clinicrelay/contracts/licenses.ts';
import { text } from '@clinicrelay/contracts/text.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-b §7 "Licenses" and "License types".

export const licenseTypeKeys = ['licensetypes'] as const;
export const licenseKeys = {
  all: ['licenses'] as const,
  organization: (id: string) => [...licenseKeys.all, 'organization', id] as const,
};

export function fetchLicenseTypes(state: ListState, signal?: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  if (state.sortCol) params.set('col', state.sortCol);
  return apiFetch(`/api/admin/licensetypes?${params.toString()}`, { schema: licenseTypePage, signal });
}
/** Every license type, for the generate modal's choice (a few dozen at most). */
export const fetchAllLicenseTypes = (signal?: AbortSignal) => apiFetch('/api/admin/licensetypes?pageSize=100', { schema: licenseTypePage, signal });
export const createLicenseType = (body: LicenseTypeInput) => apiFetch('/api/admin/licensetypes', { method: 'POST', body, schema: licenseType });
export const updateLicenseType = (id: string, body: LicenseTypeInput) => apiFetch(`/api/admin/licensetypes/${id}`, { method: 'PUT', body, schema: licenseType });
export const deleteLicenseType = (id: string) => apiFetch(`/api/admin/licensetypes/${id}`, { method: 'DELETE', schema: okResponse });
export const fetchAppNames = (signal?: AbortSignal) => apiFetch('/api/admin/licensetypes/appnames', { schema: z.array(text()), signal });
export const licenseTypeExists = (name: string, id?: string, signal?: AbortSignal) =>
  apiFetch(`/api/admin/licensetypes/exists?${new URLSearchParams({ name, ...(id ? { id } : {}) }).toString()}`, { schema: z.boolean(), signal });

// The grid's columns: what it selects and may sort by.
export const LICENSE_GRID_COLUMNS = ['LicenseKey', 'LicenseType', 'Organization', 'ConnectorId', 'ConnectorName', 'IssuedDate', 'ExpirationDate'] as const;

/** A page of the keys grid: the list state as OData options, with the Expiring Soon quick filter. */
export async function fetchLicenses(state: ListState, expiringSoon: boolean, signal?: AbortSignal): Promise<{ items: LicenseRow[]; totalCount: number }> {
  const quoted = (value: string) => `'${value.replaceAll("'", "''")}'`;
  const filters: string[] = [];
  if (expiringSoon) filters.push('ExpiringSoon');
  const search = state.search.trim();
  if (search) filters.push(`(${['LicenseKey', 'LicenseType', 'Organization', 'ConnectorName', 'Reference'].map((p) => `contains(tolower(${p}),${quoted(search.toLowerCase())})`).join(' or ')})`);
  const sortCol = state.sortCol && (LICENSE_GRID_COLUMNS as readonly string[]).includes(state.sortCol) ? state.sortCol : null;
  const params = new URLSearchParams({
    $select: ['Id', ...LICENSE_GRID_COLUMNS, 'ExpiringSoon'].join(','),
    $orderby: sortCol ? `${sortCol} ${state.sortDir}` : 'IssuedDate desc',
    $top: String(state.pageSize),
    $skip: String((state.page - 1) * state.pageSize),
    $count: 'true',
  });
  if (filters.length) params.set('$filter', filters.join(' and '));
  const answer = await apiFetch(`/api/adminlicenses?${params.toString()}`, { schema: licenseFeed, signal });
  return { items: answer.value as LicenseRow[], totalCount: answer['@odata.count'] ?? answer.value.length };
}

/** POST /api/licenses/issue, form-encoded as §7 says. */
export function issueLicenses(form: LicenseIssueForm) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) if (value !== undefined) body.set(name, String(value));
  return apiFetch('/api/licenses/issue', { method: 'POST', body, schema: issuedLicenses });
}

export const fetchOrganizationLicenses = (organizationId: string, signal?: AbortSignal) =>
  apiFetch(`/api/admin/organizations/${organizationId}/licenses`, { schema: z.array(organizationLicense), signal });
