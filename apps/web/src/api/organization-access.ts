import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { adminDocumentSourcePage } from '@clinicrelay/contracts/document-sources.ts';
import { intakeRuleView } from '@clinicrelay/contracts/intake.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// Issue 13 §2–§4: the organization's addresses and fax numbers, its intake rules, and per user who sends from which
// address and which rules bring them messages.
export const settingsKeys = {
  all: ['settings'] as const,
  sources: () => [...settingsKeys.all, 'sources'] as const,
  sourcePage: (organizationId: string, state: ListState) => [...settingsKeys.sources(), organizationId, state] as const,
  allSources: (organizationId: string) => [...settingsKeys.sources(), organizationId, 'all'] as const,
  rules: () => [...settingsKeys.all, 'rules'] as const,
  users: () => [...settingsKeys.all, 'users'] as const,
  userAccess: (userId: string) => [...settingsKeys.all, 'userAccess', userId] as const,
};

export type IntakeRuleView = z.infer<typeof intakeRuleView>;

// GET /api/admin/documentsources: for an organization's Administrator the server answers its own organization only.
function sourcesPath(organizationId: string, state: Pick<ListState, 'page' | 'pageSize' | 'sortDir' | 'search'>) {
  const params = new URLSearchParams({ organizationId, pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  return `/api/admin/documentsources?${params.toString()}`;
}

export const useOrganizationSources = (organizationId: string, state: ListState) =>
  useQuery({
    queryKey: settingsKeys.sourcePage(organizationId, state),
    queryFn: ({ signal }) => apiFetch(sourcesPath(organizationId, state), { schema: adminDocumentSourcePage, signal }),
    placeholderData: keepPreviousData,
  });

// Every address of the organization (one page of 100), for the send-permission and rule pickers.
export const useAllOrganizationSources = (organizationId: string, enabled = true) =>
  useQuery({
    queryKey: settingsKeys.allSources(organizationId),
    queryFn: ({ signal }) => apiFetch(sourcesPath(organizationId, { page: 1, pageSize: 100, sortDir: 'asc', search: '' }), { schema: adminDocumentSourcePage, signal }),
    enabled,
  });

// GET /api/intakerules: the organization's rules.
export const useIntakeRules = () =>
  useQuery({
    queryKey: settingsKeys.rules(),
    queryFn: ({ signal }) => apiFetch('/api/intakerules', { schema: z.array(intakeRuleView), signal }),
  });

