import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { adminDocumentSource, adminDocumentSourcePage, faxNumberOrdered, type documentSourceCreate } from '@clinicrelay/contracts/document-sources.ts';
import { intakeRuleView, userDocumentSources, userIntakeRules, usersPage, type intakeRuleCreate } from '@clinicrelay/contracts/intake.ts';
import { apiFetch } from '../../api/client.ts';
import type { ListState } from '../../components/list-state.ts';

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
export type IntakeRuleValues = z.input<typeof intakeRuleCreate>;

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

function useInvalidating<A, R>(call: (args: A) => Promise<R>, keys: readonly (readonly unknown[])[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}

export const useRequestDirectAddress = () =>
  useInvalidating(
    (body: z.input<typeof documentSourceCreate>) => apiFetch('/api/admin/documentsources', { method: 'POST', body, schema: adminDocumentSource }),
    [settingsKeys.sources()],
  );

export const useOrderFaxNumber = () =>
  useInvalidating(
    (organizationId: string) => apiFetch('/api/admin/documentsources/faxnumber', { method: 'POST', body: { organizationId }, schema: faxNumberOrdered }),
    [settingsKeys.sources()],
  );

export const useRemoveSource = () =>
  useInvalidating(
    (id: string) => apiFetch(`/api/admin/documentsources?${new URLSearchParams({ id }).toString()}`, { method: 'DELETE', schema: okResponse }),
    [settingsKeys.sources()],
  );

// GET /api/intakerules: the organization's rules.
export const useIntakeRules = () =>
  useQuery({
    queryKey: settingsKeys.rules(),
    queryFn: ({ signal }) => apiFetch('/api/intakerules', { schema: z.array(intakeRuleView), signal }),
  });

export const useSaveIntakeRule = () =>
  useInvalidating(
    ({ id, values }: { id: string | null; values: IntakeRuleValues }) =>
      apiFetch(id ? `/api/intakerules/${id}` : '/api/intakerules', { method: id ? 'PUT' : 'POST', body: values, schema: intakeRuleView }),
    [settingsKeys.rules(), [...settingsKeys.all, 'userAccess']],
  );

export const useDeleteIntakeRule = () =>
  useInvalidating(
    (id: string) => apiFetch(`/api/intakerules/${id}`, { method: 'DELETE', schema: z.object({ message: z.string() }) }),
    [settingsKeys.rules(), [...settingsKeys.all, 'userAccess']],
  );

// GET /api/users: the organization's members for the user picker (the first 100 by last name).
export const USERS_PICKER_PATH = '/api/users?page=1&pageSize=100';
export const useOrganizationUsers = () =>
  useQuery({
    queryKey: settingsKeys.users(),
    queryFn: ({ signal }) => apiFetch(USERS_PICKER_PATH, { schema: usersPage, signal }),
  });

// GET /api/users/{id}/documentsources and /rules: what the user may send from and which rules they receive by.
export const useUserAccess = (userId: string | null) =>
  useQuery({
    queryKey: settingsKeys.userAccess(userId ?? ''),
    queryFn: async ({ signal }) => {
      const [sources, rules] = await Promise.all([
        apiFetch(`/api/users/${userId}/documentsources`, { schema: userDocumentSources, signal }),
        apiFetch(`/api/users/${userId}/rules`, { schema: z.array(intakeRuleView), signal }),
      ]);
      return { documentSourceIds: sources.map((s) => s.documentSourceId), intakeRuleIds: rules.map((r) => r.id) };
    },
    enabled: userId !== null,
  });

export const useSaveUserAccess = () =>
  useInvalidating(
    async ({ userId, organizationId, documentSourceIds, intakeRuleIds }: { userId: string; organizationId: string; documentSourceIds: string[]; intakeRuleIds: string[] }) => {
      await apiFetch(`/api/users/${userId}/documentsources`, {
        method: 'PUT',
        body: documentSourceIds.map((documentSourceId) => ({ organizationId, documentSourceId })),
        schema: userDocumentSources,
      });
      await apiFetch(`/api/users/${userId}/intakerules`, {
        method: 'PUT',
        body: intakeRuleIds.map((intakeRuleId) => ({ organizationId, intakeRuleId })),
        schema: userIntakeRules,
      });
    },
    [[...settingsKeys.all, 'userAccess'], settingsKeys.sources()],
  );
