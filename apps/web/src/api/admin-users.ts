import {
  adminUser,
  adminUsersPage,
  jobFunction,
  messageResponse,
  userOrganization,
  type AdminUserCreate,
  type AdminUserSort,
  type AdminUserUpdate,
  type UserOrganizationAssign,
} from '@clinicrelay/contracts/admin-users.ts';
import type { SystemRole } from '@clinicrelay/contracts/roles.ts';
import { text } from '@clinicrelay/contracts/text.ts';
import { z } from 'zod';
import type { ListState } from '../components/list-state.ts';
import { apiFetch, apiResponse } from './client.ts';

// back-office-a §7 "Users".

export const adminUserKeys = {
  all: ['admin-users'] as const,
  one: (id: string) => [...adminUserKeys.all, 'one', id] as const,
  organizations: (id: string) => [...adminUserKeys.all, 'organizations', id] as const,
  jobFunctions: ['job-functions'] as const,
};

export interface UserListFilters {
  sysAdmin: boolean;
  showDisabled: boolean;
}

// Multi-column sort: the clicked column first, the other one after it (default userName then organization, §2).
export function userSort(state: ListState): AdminUserSort[] {
  const primary = state.sortCol === 'organizations' ? 'organization' : 'userName';
  const secondary = primary === 'userName' ? 'organization' : 'userName';
  return [
    { col: primary, dir: state.sortDir },
    { col: secondary, dir: 'asc' },
  ];
}

export async function fetchAdminUsers(state: ListState, filters: UserListFilters, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sort: JSON.stringify(userSort(state)) });
  if (state.search) params.set('search', state.search);
  if (filters.showDisabled) params.set('deleted', 'true');
  if (filters.sysAdmin) params.set('sysAdmin', 'true');
  const page = await apiFetch(`/api/admin/users?${params.toString()}`, { schema: adminUsersPage, signal });
  return { items: page.users, totalCount: page.totalUsersCount };
}

export const fetchAdminUser = (id: string, signal?: AbortSignal) => apiFetch(`/api/admin/users/${id}`, { schema: adminUser, signal });
export const createAdminUser = (body: AdminUserCreate) => apiFetch('/api/admin/users/', { method: 'POST', body, schema: adminUser });
export const createSysAdmin = (body: { firstName: string; lastName: string; userName: string; roleName: SystemRole }) =>
  apiFetch('/api/admin/sysadmin/', { method: 'POST', body, schema: adminUser });
export const updateAdminUser = (id: string, body: AdminUserUpdate) => apiFetch(`/api/admin/users/${id}`, { method: 'PUT', body, schema: adminUser });

/** System users through /api/admin/sysadmin/{id}, others through /api/admin/users/enable (§7). */
export const setUserEnabled = (id: string, enable: boolean, isSysAdmin: boolean) =>
  isSysAdmin
    ? apiFetch(`/api/admin/sysadmin/${id}`, { method: 'PUT', body: { enable }, schema: messageResponse })
    : apiFetch('/api/admin/users/enable', { method: 'POST', body: { enable, id }, schema: messageResponse });

export const setIdProof = (userId: string, passed: boolean, sendEmail: boolean) =>
  apiFetch('/api/admin/users/idproof', { method: 'POST', body: { userId, passed, sendEmail }, schema: messageResponse });
export const resetIdProof = (id: string) => apiFetch(`/api/admin/users/${id}/idproof/reset`, { method: 'POST', schema: messageResponse });
/** The uploaded identification, as a blob for a new tab. */
export const fetchIdProofFile = async (id: string) => (await apiResponse(`/api/admin/users/${id}/idproof`, { accept: '*/*' })).blob();

export const syncUser = (id: string) => apiFetch(`/api/admin/users/${id}/sync`, { method: 'POST', schema: messageResponse });
export const disableTwoFactor = (id: string) => apiFetch(`/api/admin/users/${id}/2fa/disable`, { method: 'POST', schema: messageResponse });
export const resetPassword = (id: string) => apiFetch('/api/users/resetpassword', { method: 'POST', body: { id }, schema: messageResponse });
export const resendInvitation = (id: string, userName: string) => apiFetch('/api/users/resendinvitation', { method: 'POST', body: { id, userName }, schema: messageResponse });

export const fetchUserOrganizations = (id: string, signal?: AbortSignal) => apiFetch(`/api/admin/users/${id}/organization`, { schema: z.array(userOrganization), signal });
export const addUserOrganization = (body: UserOrganizationAssign) =>
  apiFetch(`/api/admin/organizations/${body.organizationId}/users`, { method: 'POST', body, schema: z.array(userOrganization) });
export const removeUserOrganization = (organizationId: string, userId: string) =>
  apiFetch(`/api/admin/organizations/${organizationId}/users/${userId}`, { method: 'DELETE', schema: z.array(userOrganization) });

export const fetchJobFunctions = (signal?: AbortSignal) => apiFetch('/api/users/jobs', { schema: z.array(jobFunction), signal });

// The organization typeahead: GET /api/organizations/?search= (reads items, §7 Organizations).
const organizationOptions = z.object({ items: z.array(z.object({ id: text(), name: text() })) });
export async function searchOrganizations(search: string, signal?: AbortSignal): Promise<{ value: string; label: string }[]> {
  const page = await apiFetch(`/api/organizations/?${new URLSearchParams({ search, pageSize: '10' }).toString()}`, { schema: organizationOptions, signal });
  return page.items.map((o) => ({ value: o.id, label: o.name }));
}
