import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { adminDocumentSource, faxNumberOrdered, type documentSourceCreate } from '@clinicrelay/contracts/document-sources.ts';
import { intakeRuleView, userDocumentSources, userIntakeRules, usersPage, type intakeRuleCreate } from '@clinicrelay/contracts/intake.ts';
import { apiFetch } from '../../api/client.ts';

export { settingsKeys, useAllOrganizationSources, useIntakeRules, useOrganizationSources, type IntakeRuleView } from '../../api/organization-access.ts';
import { settingsKeys } from '../../api/organization-access.ts';

export type IntakeRuleValues = z.input<typeof intakeRuleCreate>;

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

// Not in the spec: PUT /api/admin/documentsources/{id}/global (issue 13 §2).
export const useSetSourceGlobal = () =>
  useInvalidating(
    ({ id, isGlobal }: { id: string; isGlobal: boolean }) => apiFetch(`/api/admin/documentsources/${id}/global`, { method: 'PUT', body: { isGlobal }, schema: adminDocumentSource }),
    [settingsKeys.sources()],
  );

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
