import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { attachmentMessages, supportedExtensions } from '@clinicrelay/contracts/attachments.ts';
import { respondRequest, type RespondRequest } from '@clinicrelay/contracts/conversations.ts';
import { recipientCheckResult, sendResult, type RecipientCheck } from '@clinicrelay/contracts/delivery.ts';
import {
  attachmentMeta,
  cachedAddress,
  classification,
  message,
  messageList,
  releaseType,
  type DraftSave,
  type Message,
} from '@clinicrelay/contracts/messages.ts';
import { errorResponse, messages } from '@clinicrelay/contracts/errors.ts';
import { ApiError, apiFetch, apiResponse, ensureFreshToken } from '../../api/client.ts';
import { isAccessTokenExpired, readTokens } from '../../api/tokens.ts';
import type { ListState } from '../../components/list-state.ts';
import { responseFileName } from '../../components/save-file.ts';

export type ReleaseView = 'all' | 'sent' | 'drafts';
/** Which server call sends a draft: a new message, a forward or a reply (end-user §7). */
export type SendAction = 'send' | 'forward' | 'reply';

export const releaseKeys = {
  all: ['release'] as const,
  lists: () => [...releaseKeys.all, 'list'] as const,
  list: (state: ListState, view: ReleaseView) => [...releaseKeys.lists(), state, view] as const,
  messages: () => [...releaseKeys.all, 'message'] as const,
  message: (id: string) => [...releaseKeys.messages(), id] as const,
  releaseTypes: () => [...releaseKeys.all, 'releaseTypes'] as const,
  classifications: () => [...releaseKeys.all, 'classifications'] as const,
  addressCache: () => [...releaseKeys.all, 'addressCache'] as const,
  extensions: () => [...releaseKeys.all, 'extensions'] as const,
  recipientCheck: (addresses: readonly string[]) => [...releaseKeys.all, 'recipientCheck', addresses] as const,
};

// GET /api/messages: empty values are dropped from the query (end-user §5).
function listPath(state: ListState, view: ReleaseView) {
  const params = new URLSearchParams({ pageStart: String(state.page), pageSize: String(state.pageSize) });
  if (view !== 'all') params.set('isDraft', String(view === 'drafts'));
  if (state.search) params.set('search', state.search);
  if (state.startDate) params.set('startDate', state.startDate);
  if (state.endDate) params.set('endDate', state.endDate);
  return `/api/messages?${params.toString()}`;
}

export const releaseListQuery = (state: ListState, view: ReleaseView) =>
  queryOptions({
    queryKey: releaseKeys.list(state, view),
    queryFn: ({ signal }) => apiFetch(listPath(state, view), { schema: messageList, signal }),
    placeholderData: keepPreviousData,
  });

export const useReleaseList = (state: ListState, view: ReleaseView) => useQuery(releaseListQuery(state, view));

export const releaseMessageQuery = (id: string) =>
  queryOptions({
    queryKey: releaseKeys.message(id),
    queryFn: ({ signal }) => apiFetch(`/api/messages/${encodeURIComponent(id)}`, { schema: message, signal }),
    // A missing or foreign message stays missing; retrying a 404 only delays the page.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });

/** GET /api/messages/{id}; `null` skips the call (a compose form with no draft yet). */
export const useReleaseMessage = (id: string | null) =>
  useQuery({ ...releaseMessageQuery(id ?? ''), enabled: id !== null });

export const useReleaseTypes = () =>
  useQuery({
    queryKey: releaseKeys.releaseTypes(),
    queryFn: ({ signal }) => apiFetch('/api/releasetypes', { schema: z.array(releaseType), signal }),
    staleTime: 5 * 60_000,
  });

export const useClassifications = () =>
  useQuery({
    queryKey: releaseKeys.classifications(),
    queryFn: ({ signal }) => apiFetch('/api/messages/classifications', { schema: z.array(classification), signal }),
    staleTime: Infinity,
  });

export const useAddressCache = () =>
  useQuery({
    queryKey: releaseKeys.addressCache(),
    queryFn: ({ signal }) => apiFetch('/api/addresscache', { schema: z.array(cachedAddress), signal }),
  });

/** PUT /api/addresscache: the addresses to keep; the rest leave the cache. */
export function useSaveAddressCache() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (addresses: string[]) =>
      apiFetch('/api/addresscache', { method: 'PUT', body: { addresses }, schema: z.array(cachedAddress) }),
    onSuccess: (saved) => queryClient.setQueryData(releaseKeys.addressCache(), saved),
  });
}

// The server's list when it answers, else the contracts' list the server checks uploads against.
export const useAttachmentExtensions = () =>
  useQuery({
    queryKey: releaseKeys.extensions(),
    queryFn: async ({ signal }): Promise<string[]> => {
      try {
        return await apiFetch('/api/attachments/extensions', { schema: z.array(z.string()), signal });
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        return [...supportedExtensions];
      }
    },
    staleTime: Infinity,
  });

// The most addresses one check asks about: recipientCheckRequest refuses more.
const RECIPIENT_CHECK_MAX = 50;

const checksByAddress = (result: z.infer<typeof recipientCheckResult>): ReadonlyMap<string, RecipientCheck> =>
  new Map(result.recipients.map((check) => [check.address.toLowerCase(), check]));

/**
 * POST /api/messages/recipients/check: what each To address is (hosted, trusted, no certificate, fax…), keyed
 * by the lower-cased address. No call for an empty list. The answer is kept while a changed list is being
 * checked, so the addresses already checked do not flicker back to "Checking…".
 */
export function useRecipientCheck(addresses: readonly string[]) {
  const asked = [...new Set(addresses.map((address) => address.toLowerCase()))].sort().slice(0, RECIPIENT_CHECK_MAX);
  return useQuery({
    queryKey: releaseKeys.recipientCheck(asked),
    queryFn: ({ signal }) => apiFetch('/api/messages/recipients/check', { method: 'POST', body: { addresses: asked }, schema: recipientCheckResult, signal }),
    enabled: asked.length > 0,
    select: checksByAddress,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    // Advice only: a failed check shows nothing, and the next change of To asks again.
    retry: false,
  });
}

/** What the last recipient check said of each To address (lower case), from the cache useRecipientCheck fills; no call. */
export function cachedRecipientStatus(queryClient: QueryClient, addresses: readonly string[]): (address: string) => string | undefined {
  const asked = [...new Set(addresses.map((address) => address.toLowerCase()))].sort().slice(0, RECIPIENT_CHECK_MAX);
  const result = queryClient.getQueryData<z.infer<typeof recipientCheckResult>>(releaseKeys.recipientCheck(asked));
  const checks = result ? checksByAddress(result) : new Map<string, RecipientCheck>();
  return (address) => checks.get(address.toLowerCase())?.status;
}

/** PUT /api/messages (first save) or PUT /api/messages/{id}. */
export function useSaveDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: DraftSave }) =>
      apiFetch(id === null ? '/api/messages' : `/api/messages/${encodeURIComponent(id)}`, { method: 'PUT', body, schema: message }),
    onSuccess: (saved: Message) => {
      queryClient.setQueryData(releaseKeys.message(saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: releaseKeys.lists() });
    },
  });
}

// The send's answer; waiting and simulated name the recipients that cannot be reached yet or are reached
// only by the sandbox (an older server leaves them out: none).
const sendResponse = sendResult.partial({ id: true, waiting: true, simulated: true }).transform((answer) => ({
  ...answer,
  waiting: answer.waiting ?? [],
  simulated: answer.simulated ?? [],
}));
export type SendAnswer = z.output<typeof sendResponse>;

/** POST /api/messages/{id}/send, /forward or /reply: a 400 carries the modelState to list. */
export function useSendMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: SendAction }) =>
      apiFetch(`/api/messages/${encodeURIComponent(id)}/${action}`, { method: 'POST', schema: sendResponse }),
    onSuccess: (_result, { id }) => {
      void queryClient.invalidateQueries({ queryKey: releaseKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: releaseKeys.message(id) });
    },
  });
}

export function useDeleteMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch(`/api/messages/${encodeURIComponent(id)}`, { method: 'DELETE', schema: z.object({ message: z.string() }) }),
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: releaseKeys.message(id) });
      void queryClient.invalidateQueries({ queryKey: releaseKeys.lists() });
    },
  });
}

export type AttachmentMeta = z.infer<typeof attachmentMeta>;

/**
 * POST /api/messages/{id}/attachments (multipart file and attachmentMeta) through XMLHttpRequest, the one
 * browser API that reports upload progress (fetch does not). Same bearer and renewal as apiFetch; a
 * 401/403 here is only thrown: the message refetch that follows meets it and signs the user off as usual.
 */
export async function uploadAttachment(messageId: string, file: File, meta: AttachmentMeta, onProgress?: (fraction: number) => void): Promise<unknown> {
  await ensureFreshToken();
  const tokens = readTokens();
  const form = new FormData();
  form.append('attachmentMeta', JSON.stringify(meta));
  form.append('file', file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/messages/${encodeURIComponent(messageId)}/attachments`);
    request.setRequestHeader('Accept', 'application/json');
    if (!isAccessTokenExpired(tokens)) request.setRequestHeader('Authorization', `Bearer ${tokens.accessToken}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      let body: unknown;
      try {
        body = request.responseText ? (JSON.parse(request.responseText) as unknown) : null;
      } catch {
        body = null;
      }
      if (request.status >= 200 && request.status < 300) {
        onProgress?.(1);
        resolve(body);
        return;
      }
      const parsed = errorResponse.safeParse(body);
      reject(new ApiError(request.status, parsed.success ? parsed.data : { message: request.status === 413 ? attachmentMessages.tooLarge : messages.serverError }));
    };
    request.onerror = () => reject(new ApiError(0, { message: messages.serverError }));
    request.send(form);
  });
}

/** uploadAttachment as a mutation: the draft and the lists refresh after each file. */
export function useUploadAttachment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, file, meta, onProgress }: { messageId: string; file: File; meta: AttachmentMeta; onProgress?: (fraction: number) => void }) =>
      uploadAttachment(messageId, file, meta, onProgress),
    onSuccess: (_result, { messageId }) => {
      void queryClient.invalidateQueries({ queryKey: releaseKeys.message(messageId) });
      void queryClient.invalidateQueries({ queryKey: releaseKeys.lists() });
    },
  });
}

/** GET /api/messages/{id}/deliverysummary: the PDF and its file name; 403 when turned off, 409 when not ready. */
export async function fetchDeliverySummary(messageId: string): Promise<{ blob: Blob; fileName: string }> {
  // A 403 here is the organization's setting, not a lost session: no sign-out handling.
  const response = await apiResponse(`/api/messages/${encodeURIComponent(messageId)}/deliverysummary`, { accept: 'application/pdf', reportAuthFailure: false });
  return { blob: await response.blob(), fileName: responseFileName(response, `delivery-summary-${messageId}.pdf`) };
}

/** POST /api/messages/{id}/deliverysummary/sendtointake: the summary is made in the background. */
export function useSendDeliverySummaryToIntake() {
  return useMutation({
    mutationFn: (messageId: string) =>
      apiFetch(`/api/messages/${encodeURIComponent(messageId)}/deliverysummary/sendtointake`, {
        method: 'POST',
        schema: z.object({ message: z.string() }),
      }),
  });
}

/** POST /api/conversations/{id}/respond: the tracked referral's outcome, chosen once. */
export function useRespondToReferral() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ conversationId, body }: { conversationId: string; body: RespondRequest }) =>
      apiFetch(`/api/conversations/${encodeURIComponent(conversationId)}/respond`, { method: 'POST', body: respondRequest.parse(body) }),
    onSuccess: (_result, { body }) => {
      void queryClient.invalidateQueries({ queryKey: releaseKeys.message(body.responseToMessageId) });
      void queryClient.invalidateQueries({ queryKey: releaseKeys.lists() });
    },
  });
}
