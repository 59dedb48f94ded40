import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { messageResponse } from '@clinicrelay/contracts/admin-users.ts';
import { orgUser, orgUsersPage, userNameCheck, type OrgUserCreate, type OrgUserSort, type OrgUserUpdate } from '@clinicrelay/contracts/users.ts';
import { apiFetch } from '../../api/client.ts';
import type { ListState } from '../../components/list-state.ts';

// Issue 13 §2: the organization's users (/settings/users), end-user §7 "Session and users".

export const orgUserKeys = {
  all: ['org-users'] as const,
  lists: () => [...orgUserKeys.all, 'list'] as const,
  list: (state: ListState) => [...orgUserKeys.lists(), state] as const,
  userName: (userName: string) => [...orgUserKeys.all, 'find', userName] as const,
};

const SORTABLE: readonly string[] = ['name', 'userName', 'role', 'jobFunction', 'lastSignIn', 'enabled'] satisfies OrgUserSort['col'][];

// GET /api/users: page, pageSize, sort as JSON; empty values are dropped (end-user §5).
export function usersPath(state: ListState) {
  const col = (state.sortCol && SORTABLE.includes(state.sortCol) ? state.sortCol : 'name') as OrgUserSort['col'];
  const params = new URLSearchParams({ page: String(state.page), pageSize: String(state.pageSize), sort: JSON.stringify({ col, dir: state.sortDir }) });
  if (state.search) params.set('search', state.search);
  return `/api/users?${params.toString()}`;
}

export const useOrgUsers = (state: ListState) =>
  useQuery({
    queryKey: orgUserKeys.list(state),
    queryFn: ({ signal }) => apiFetch(usersPath(state), { schema: orgUsersPage, signal }),
    placeholderData: keepPreviousData,
  });

export const checkUserName = (userName: string, signal?: AbortSignal) =>
  apiFetch(`/api/users/find?${new URLSearchParams({ username: userName }).toString()}`, { method: 'POST', schema: userNameCheck, signal });
export const createOrgUser = (body: OrgUserCreate) => apiFetch('/api/users', { method: 'POST', body, schema: orgUser });
export const updateOrgUser = (id: string, body: OrgUserUpdate) => apiFetch(`/api/users/${id}`, { method: 'PUT', body, schema: orgUser });
export const deleteOrgUser = (id: string) => apiFetch(`/api/users/${id}`, { method: 'DELETE', schema: messageResponse });
export const setOrgUserEnabled = (id: string, enable: boolean) => apiFetch(`/api/users/${id}/enable?enable=${String(enable)}`, { method: 'POST', schema: messageResponse });
