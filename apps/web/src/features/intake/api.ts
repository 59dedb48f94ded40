import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { attachmentSummary, documentType, message, type Patient } from '@clinicrelay/contracts/messages.ts';
import { extractionStatus, intakeList, intakeMessages, processedTypes, usersPage, type IntakeFilter, type UserSort } from '@clinicrelay/contracts/intake.ts';
import type { AttachmentMetaInput } from '@clinicrelay/contracts/attachments.ts';
import { ApiError, apiFetch } from '../../api/client.ts';

export type ProcessType = (typeof processedTypes)[number];

export const intakeKeys = {
  all: ['intake'] as const,
  lists: () => [...intakeKeys.all, 'list'] as const,
  list: (filter: IntakeFilter, optimized: boolean) => [...intakeKeys.lists(), filter, optimized] as const,
  messages: () => [...intakeKeys.all, 'message'] as const,
  message: (id: string) => [...intakeKeys.messages(), id] as const,
  documentTypes: () => [...intakeKeys.all, 'documentTypes'] as const,
  users: (search: string) => [...intakeKeys.all, 'users', search] as const,
};

export type IntakeListAnswer = z.infer<typeof intakeList>;
/** Who can assign addresses and rules, when the answer says nothing is assigned to the caller. */
// What an empty Intake says: why a User sees nothing, naming the intake rules (issue 13 §4).
export function emptyIntakeText(answer: IntakeListAnswer | undefined): string {
  const rules = (answer?.ruleNames ?? []).map((name) => `“${name}”`).join(', ');
  if (answer?.nothingAssigned) return [intakeMessages.nothingAssigned((answer.administrators ?? []).join(', ')), rules && intakeMessages.ruleCouldBring(rules)].filter(Boolean).join(' ');
  return [intakeMessages.noMessages, rules && intakeMessages.rulesBring(rules)].filter(Boolean).join(' ');
}

/** POST /api/messages, or POST /api/intake when UseOptimizedIntake is on (end-user §7). */
export const intakeListQuery = (filter: IntakeFilter, optimized: boolean) =>
  queryOptions({
    queryKey: intakeKeys.list(filter, optimized),
    queryFn: ({ signal }) =>
      apiFetch(optimized ? '/api/intake' : '/api/messages', { method: 'POST', body: filter, schema: intakeList, signal }),
    placeholderData: keepPreviousData,
  });

export const useIntakeList = (filter: IntakeFilter, optimized: boolean) => useQuery(intakeListQuery(filter, optimized));

const messagePath = (id: string) => `/api/messages/${encodeURIComponent(id)}`;
const attachmentPath = (messageId: string, attachmentId: string) => `${messagePath(messageId)}/attachments/${encodeURIComponent(attachmentId)}`;

export const useIntakeMessage = (id: string) =>
  useQuery({
    queryKey: intakeKeys.message(id),
    queryFn: ({ signal }) => apiFetch(messagePath(id), { schema: message, signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });

export const useDocumentTypes = () =>
  useQuery({
    queryKey: intakeKeys.documentTypes(),
    queryFn: ({ signal }) => apiFetch('/api/documenttypes', { schema: z.array(documentType), signal }),
    staleTime: 5 * 60_000,
  });

// Triage's picker shows the first 100 matches; a longer organization narrows them by typing.
const USER_PICKER_SIZE = 100;
const USER_PICKER_SORT: UserSort = { col: 'lastName', dir: 'asc' };

/** GET /api/users (Administrator): the organization's members matching a search, for the Triage user picker. */
export const useOrganizationUsers = (search: string, enabled: boolean) =>
  useQuery({
    queryKey: intakeKeys.users(search),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: '1', pageSize: String(USER_PICKER_SIZE), sort: JSON.stringify(USER_PICKER_SORT) });
      if (search) params.set('search', search);
      return apiFetch(`/api/users?${params.toString()}`, { schema: usersPage, signal });
    },
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

const textMessage = z.object({ message: z.string() }).loose();

/** PUT /api/messages/{id}/read; the list's unread state changes with it. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch(`${messagePath(id)}/read`, { method: 'PUT' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: intakeKeys.lists() }),
  });
}

export const markAttachmentRead = (messageId: string, attachmentId: string) =>
  apiFetch(`${attachmentPath(messageId, attachmentId)}/read`, { method: 'PUT' });

export interface ProcessBody {
  isProcessed: boolean;
  processType?: ProcessType | null;
  subject?: string | null;
}

/** PUT /api/messages/{id}/process. */
export const processMessage = (id: string, body: ProcessBody) => apiFetch(`${messagePath(id)}/process`, { method: 'PUT', body });

export function useProcessMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ProcessBody }) => processMessage(id, body),
    onSuccess: (_result, { id }) => {
      void queryClient.invalidateQueries({ queryKey: intakeKeys.message(id) });
      void queryClient.invalidateQueries({ queryKey: intakeKeys.lists() });
    },
  });
}

/** POST /api/messages/{id}/triage: to another of the organization's addresses, or to one of its users. */
export function useTriageMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, documentSourceId, userId }: { id: string; documentSourceId: string | null; userId: string | null }) =>
      apiFetch(`${messagePath(id)}/triage`, { method: 'POST', body: { documentSourceId, userId } }),
    onSuccess: (_result, { id }) => {
      void queryClient.invalidateQueries({ queryKey: intakeKeys.message(id) });
      void queryClient.invalidateQueries({ queryKey: intakeKeys.lists() });
    },
  });
}

export function useDeleteIntakeMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch(messagePath(id), { method: 'DELETE', schema: textMessage }),
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: intakeKeys.message(id) });
      void queryClient.invalidateQueries({ queryKey: intakeKeys.lists() });
    },
  });
}

/** PUT /api/messages/{id}/patient. */
export function useSavePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patient }: { id: string; patient: Patient }) => apiFetch(`${messagePath(id)}/patient`, { method: 'PUT', body: patient, schema: message }),
    onSuccess: (saved) => {
      queryClient.setQueryData(intakeKeys.message(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: intakeKeys.lists() });
    },
  });
}

export interface AttachmentChange {
  id: string;
  isSelected?: boolean;
  fileName?: string;
  attachmentMeta?: AttachmentMetaInput;
}

/** PUT /api/messages/{id}/attachments: selection and meta data of the listed attachments. */
export function useUpdateAttachments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, changes }: { messageId: string; changes: AttachmentChange[] }) =>
      apiFetch(`${messagePath(messageId)}/attachments`, { method: 'PUT', body: changes, schema: z.array(attachmentSummary) }),
    onSuccess: (attachments, { messageId }) => {
      queryClient.setQueryData(intakeKeys.message(messageId), (previous: z.infer<typeof message> | undefined) =>
        previous ? { ...previous, attachments } : previous,
      );
    },
  });
}

/** PUT .../patient/extract starts an extraction (feature PatientExtractionAPI). */
export const startPatientExtraction = (messageId: string, attachmentId: string) =>
  apiFetch(`${attachmentPath(messageId, attachmentId)}/patient/extract`, { method: 'PUT' });

/** GET .../patient: { status, patient }. */
export const fetchExtraction = (messageId: string, attachmentId: string, signal?: AbortSignal) =>
  apiFetch(`${attachmentPath(messageId, attachmentId)}/patient`, { schema: extractionStatus, signal });
