import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { namedValue, webhookDetail, webhookSaved, webhookSummary, type WebhookBody } from '@clinicrelay/contracts/webhooks.ts';
import { apiFetch } from '../../api/client.ts';

// Issue 13 §6: the organization's webhooks (end-user §7 "Fax and other").
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  detail: (id: string) => [...webhookKeys.all, 'detail', id] as const,
  events: () => [...webhookKeys.all, 'events'] as const,
  authenticationTypes: () => [...webhookKeys.all, 'authenticationtypes'] as const,
};

export const useWebhooks = () =>
  useQuery({ queryKey: webhookKeys.list(), queryFn: ({ signal }) => apiFetch('/api/webhooks/', { schema: z.array(webhookSummary), signal }) });

export const useWebhook = (id: string | null) =>
  useQuery({
    queryKey: webhookKeys.detail(id ?? ''),
    queryFn: ({ signal }) => apiFetch(`/api/webhooks/${id}`, { schema: webhookDetail, signal }),
    enabled: id !== null,
  });

export const useWebhookEvents = (enabled = true) =>
  useQuery({ queryKey: webhookKeys.events(), queryFn: ({ signal }) => apiFetch('/api/webhooks/events', { schema: z.array(namedValue), signal }), enabled, staleTime: Infinity });

export const useWebhookAuthenticationTypes = (enabled = true) =>
  useQuery({
    queryKey: webhookKeys.authenticationTypes(),
    queryFn: ({ signal }) => apiFetch('/api/webhooks/authenticationtypes', { schema: z.array(namedValue), signal }),
    enabled,
    staleTime: Infinity,
  });

function useInvalidating<A, R>(call: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }) });
}

export const useSaveWebhook = () => useInvalidating((body: WebhookBody) => apiFetch('/api/webhooks/', { method: 'PUT', body, schema: webhookSaved }));

export const useDeleteWebhook = () => useInvalidating((id: string) => apiFetch(`/api/webhooks/${id}`, { method: 'DELETE', schema: okResponse }));
