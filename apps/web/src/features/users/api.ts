import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { messageResponse } from '@clinicrelay/contracts/admin-users.ts';
import {
  orgUser,
  orgUserDetail,
  orgUsersPage,
  USER_EVENTS_PAGE_SIZE,
  USER_REQUESTS_PAGE_SIZE,
  userEventsPage,
  userEventType,
  userNameCheck,
  userRequestsPage,
  type OrgUserCreate,
  type OrgUserSort,
  type OrgUserUpdate,
} from '@clinicrelay/contracts/users.ts';
import { apiFetch } from '../../api/client.ts';
import type { ListState } from '../../components/list-state.ts';

// Issue 13 §2: the organization's users (/settings/users), end-user §7 "Session and users".

export const orgUserKeys = {
  all: ['org-users'] as const,
  lists: () => [...orgUserKeys.all, 'list'] as const,
  list: (state: ListState) => [...orgUserKeys.lists(), state] as const,
  userName: (userName: string) => [...orgUserKeys.all, 'find', userName] as const,
  detail: (id: string) => [...orgUserKeys.all, 'detail', id] as const,
  events: (id: string, filter: UserEventsFilter) => [...orgUserKeys.all, 'events', id, filter] as const,
  eventTypes: (id: string) => [...orgUserKeys.all, 'event-types', id] as const,
  requests: (id: string, page: number) => [...orgUserKeys.all, 'requests', id, page] as const,
};

export interface UserEventsFilter {
  eventTypes: string[];
  page: number;
}

const SORTABLE: readonly string[] = ['name', 'userName', 'role', 'jobFunction', 'lastSignIn', 'enabled'] satisfies OrgUserSort['col'][];

// GET /api/users: page, pageSize, sort as JSON; empty values are dropped (end-user §5). includeNetwork only when on.
export function usersPath(state: ListState, includeNetwork = false) {
  const col = (state.sortCol && SORTABLE.includes(state.sortCol) ? state.sortCol : 'name') as OrgUserSort['col'];
  const params = new URLSearchParams({ page: String(state.page), pageSize: String(state.pageSize), sort: JSON.stringify({ col, dir: state.sortDir }) });
  if (state.search) params.set('search', state.search);
  if (includeNetwork) params.set('includeNetwork', 'true');
  return `/api/users?${params.toString()}`;
}

export const useOrgUsers = (state: ListState, includeNetwork = false) =>
  useQuery({
    queryKey: [...orgUserKeys.list(state), includeNetwork] as const,
    queryFn: ({ signal }) => apiFetch(usersPath(state, includeNetwork), { schema: orgUsersPage, signal }),
    placeholderData: keepPreviousData,
  });

// The user's detail: GET /api/users/{id} with two-factor state and signed-in applications.
export const useOrgUser = (id: string) =>
  useQuery({ queryKey: orgUserKeys.detail(id), queryFn: ({ signal }) => apiFetch(`/api/users/${id}`, { schema: orgUserDetail, signal }) });

export function userEventsPath(id: string, filter: UserEventsFilter) {
  const params = new URLSearchParams({ pageSize: String(USER_EVENTS_PAGE_SIZE), pageStart: String(filter.page) });
  if (filter.eventTypes.length > 0) params.set('eventTypes', filter.eventTypes.join(','));
  return `/api/users/${id}/events?${params.toString()}`;
}
export const useUserEvents = (id: string, filter: UserEventsFilter) =>
  useQuery({
    queryKey: orgUserKeys.events(id, filter),
    queryFn: ({ signal }) => apiFetch(userEventsPath(id, filter), { schema: userEventsPage, signal }),
    placeholderData: keepPreviousData,
  });
export const useUserEventTypes = (id: string) =>
  useQuery({ queryKey: orgUserKeys.eventTypes(id), queryFn: ({ signal }) => apiFetch(`/api/users/${id}/events/type`, { schema: z.array(userEventType), signal }) });
export const useUserRequests = (id: string, page: number) =>
  useQuery({
    queryKey: orgUserKeys.requests(id, page),
    queryFn: ({ signal }) => apiFetch(`/api/users/${id}/requests?pageSize=${USER_REQUESTS_PAGE_SIZE}&pageStart=${page}`, { schema: userRequestsPage, signal }),
    placeholderData: keepPreviousData,
  });
export const removeAuthenticators = (id: string) => apiFetch(`/api/users/${id}/authenticators`, { method: 'DELETE', schema: messageResponse });
export const removeApplication = (id: string, appId: string) => apiFetch(`/api/users/${id}/applications/${appId}`, { method: 'DELETE', schema: messageResponse });

export const checkUserName = (userName: string, signal?: AbortSignal) =>
  apiFetch(`/api/users/find?${new URLSearchParams({ username: userName }).toString()}`, { method: 'POST', schema: userNameCheck, signal });
export const createOrgUser = (body: OrgUserCreate) => apiFetch('/api/users', { method: 'POST', body, schema: orgUser });
export const updateOrgUser = (id: string, body: OrgUserUpdate) => apiFetch(`/api/users/${id}`, { method: 'PUT', body, schema: orgUser });
export const deleteOrgUser = (id: string) => apiFetch(`/api/users/${id}`, { method: 'DELETE', schema: messageResponse });
export const setOrgUserEnabled = (id: string, enable: boolean) => apiFetch(`/api/users/${id}/enable?enable=${String(enable)}`, { method: 'POST', schema: messageResponse });
