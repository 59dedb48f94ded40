import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { serviceAccount, serviceAccountLimit } from '@clinicrelay/contracts/service-accounts.ts';
import { apiFetch } from './client.ts';

// back-office-a §7 "Organizations": the serviceaccount and ipaddresses tabs.
export const serviceAccountKeys = {
  all: ['serviceAccounts'] as const,
  of: (organizationId: string) => [...serviceAccountKeys.all, organizationId] as const,
  limit: (organizationId: string) => [...serviceAccountKeys.all, organizationId, 'limit'] as const,
};

const org = (id: string) => `/api/organizations/${id}`;
export const fetchServiceAccounts = (organizationId: string, signal?: AbortSignal) => apiFetch(`${org(organizationId)}/serviceaccount`, { schema: z.array(serviceAccount), signal });
export const fetchServiceAccountLimit = (organizationId: string, signal?: AbortSignal) => apiFetch(`${org(organizationId)}/serviceaccount/limit`, { schema: serviceAccountLimit, signal });
export const saveServiceAccountLimit = (organizationId: string, count: number) => apiFetch(`${org(organizationId)}/serviceaccount/limit`, { method: 'PUT', body: { count }, schema: serviceAccountLimit });
export const saveAddressCount = (organizationId: string, accountId: string, count: number) =>
  apiFetch(`${org(organizationId)}/serviceaccounts/${accountId}/ipaddresses/limit`, { method: 'PUT', body: { count }, schema: serviceAccount });
export const saveClientIpAddresses = (organizationId: string, accountId: string, clientIpAddresses: string[]) =>
  apiFetch(`${org(organizationId)}/serviceaccounts/${accountId}/ipaddresses`, { method: 'PUT', body: { clientIpAddresses }, schema: serviceAccount });

/** Both tabs read the organization's service accounts through this one query. */
export const useServiceAccounts = (organizationId: string) =>
  useQuery({ queryKey: serviceAccountKeys.of(organizationId), queryFn: ({ signal }) => fetchServiceAccounts(organizationId, signal) });
