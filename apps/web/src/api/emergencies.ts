import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  emergency,
  emergencyOrganization,
  emergencyOrganizationPage,
  emergencyPage,
  emergencyServiceSettings,
  organizationSearchResult,
  type EmergencyInput,
  type EmergencyOrganizationInput,
  type EmergencyUpdate,
} from '@clinicrelay/contracts/emergencies.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-b §7 "Emergencies" (issue 29 §6). The emergency-organization calls go to a separate service whose base URL
// the server names (EMERGENCY_SERVICE_URL, GET /api/admin/emergencies/service); the same bearer token works there.

export const emergencyKeys = ['emergencies'] as const;
export const emergencyOrganizationKeys = ['emergency-organizations'] as const;

const BASE = '/api/admin/emergencies';

function pageParams(state: ListState) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  return params.toString();
}

export const fetchEmergencies = (state: ListState, signal: AbortSignal) => apiFetch(`${BASE}?${pageParams(state)}`, { schema: emergencyPage, signal });
export const fetchEmergency = (id: string, signal?: AbortSignal) => apiFetch(`${BASE}/${encodeURIComponent(id)}`, { schema: emergency, signal });
export const createEmergency = (body: EmergencyInput) => apiFetch(BASE, { method: 'POST', body, schema: emergency });
export const updateEmergency = (body: EmergencyUpdate) => apiFetch(BASE, { method: 'PUT', body, schema: emergency });
export const enableEmergency = (id: string) => apiFetch(`${BASE}/${encodeURIComponent(id)}/enable`, { method: 'PUT', schema: emergency });
export const disableEmergency = (id: string) => apiFetch(`${BASE}/${encodeURIComponent(id)}/disable`, { method: 'PUT', schema: emergency });

// Asked once per page load; a failure is asked again next time.
let serviceBase: Promise<string> | null = null;
function emergencyServiceUrl(): Promise<string> {
  serviceBase ??= apiFetch(`${BASE}/service`, { schema: emergencyServiceSettings }).then(
    (settings) => settings.baseUrl.replace(/\/+$/, ''),
    (error: unknown) => {
      serviceBase = null;
      throw error;
    },
  );
  return serviceBase;
}

/** For tests: forget the service's URL. */
export const forgetEmergencyServiceUrl = () => void (serviceBase = null);

const service = async (path: string) => `${await emergencyServiceUrl()}${path}`;
const ORGANIZATIONS = '/api/emergencies/organizations';

export const fetchEmergencyOrganizations = async (state: ListState, signal: AbortSignal) =>
  apiFetch(await service(`${ORGANIZATIONS}?${pageParams(state)}`), { schema: emergencyOrganizationPage, signal });
export const fetchEmergencyOrganization = async (oid: string, signal?: AbortSignal) =>
  apiFetch(await service(`${ORGANIZATIONS}/${encodeURIComponent(oid)}`), { schema: emergencyOrganization, signal });
export const saveEmergencyOrganization = async (body: EmergencyOrganizationInput) => apiFetch(await service(ORGANIZATIONS), { method: 'PUT', body, schema: emergencyOrganization });
export const deleteEmergencyOrganization = async (oid: string) => apiFetch(await service(`${ORGANIZATIONS}/${encodeURIComponent(oid)}`), { method: 'DELETE', schema: okResponse });
export const searchOrganizations = async (orgId: string, signal?: AbortSignal) =>
  apiFetch(await service('/api/organization/admin/_search'), { method: 'POST', body: { orgId }, schema: organizationSearchResult, signal });
