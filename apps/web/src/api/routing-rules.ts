import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import {
  ROUTING_ORGANIZATION_SEARCH_LIMIT,
  routingRule,
  routingRulePage,
  routingRuleSortColumns,
  type RoutingRuleInput,
} from '@clinicrelay/contracts/routing-rules.ts';
import { text } from '@clinicrelay/contracts/text.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-b §7 "Routing rules" (/admin/messageroutingrules). Endpoint and sender bodies name their rule
// (routingRuleId) and, to update, themselves (id); deletes take ?id=.

export const routingRuleKeys = {
  all: ['routing-rules'] as const,
  one: (id: string) => [...routingRuleKeys.all, 'one', id] as const,
  organizations: (search: string) => [...routingRuleKeys.all, 'organizations', search] as const,
};

const BASE = '/api/admin/routingrules';

export function fetchRoutingRules(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  if (state.sortCol && (routingRuleSortColumns as readonly string[]).includes(state.sortCol)) params.set('col', state.sortCol);
  return apiFetch(`${BASE}?${params.toString()}`, { schema: routingRulePage, signal });
}

export const fetchRoutingRule = (id: string, signal?: AbortSignal) => apiFetch(`${BASE}/${id}`, { schema: routingRule, signal });
export const createRoutingRule = (values: RoutingRuleInput) => apiFetch(BASE, { method: 'POST', body: values, schema: routingRule });
export const updateRoutingRule = (id: string, values: RoutingRuleInput) => apiFetch(`${BASE}/${id}`, { method: 'PUT', body: values, schema: routingRule });
export const deleteRoutingRule = (id: string) => apiFetch(`${BASE}/${id}`, { method: 'DELETE', schema: okResponse });

export interface EndpointBody {
  id?: string;
  routingRuleId: string;
  ipAddress: string;
  port: string | number;
  oid: string | null;
}
export const saveRoutingEndpoint = (body: EndpointBody) => apiFetch(`${BASE}/endpoints`, { method: body.id ? 'PUT' : 'POST', body, schema: routingRule });
export const deleteRoutingEndpoint = (id: string) => apiFetch(`${BASE}/endpoints?${new URLSearchParams({ id }).toString()}`, { method: 'DELETE', schema: okResponse });

export interface SenderBody {
  id?: string;
  routingRuleId: string;
  organizationId: string;
  organizationOid: string;
  facilityType: string | null;
  facilityTypeCodeId: string | null;
  facilityTypeCodeScheme: string | null;
}
export const saveRoutingSender = (body: SenderBody) => apiFetch(`${BASE}/senders`, { method: body.id ? 'PUT' : 'POST', body, schema: routingRule });
export const deleteRoutingSender = (id: string) => apiFetch(`${BASE}/senders?${new URLSearchParams({ id }).toString()}`, { method: 'DELETE', schema: okResponse });

// §5: the sender's organization typeahead lists at most 20 organizations.
const organizationOptions = z.object({ items: z.array(z.object({ id: text(), name: text() })) });
export async function searchSenderOrganizations(search: string, signal?: AbortSignal) {
  const params = new URLSearchParams({ search, pageSize: String(ROUTING_ORGANIZATION_SEARCH_LIMIT) });
  const page = await apiFetch(`/api/organizations/?${params.toString()}`, { schema: organizationOptions, signal });
  return page.items.slice(0, ROUTING_ORGANIZATION_SEARCH_LIMIT).map((o) => ({ value: o.id, label: o.name }));
}
