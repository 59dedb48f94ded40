import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { currentSubscription, reactivationRequested } from '@clinicrelay/contracts/subscriptions.ts';
import { apiFetch } from './client.ts';
import { sessionKeys } from './session.ts';

export const subscriptionKeys = {
  current: () => ['subscriptions', 'current'] as const,
};

/** GET /api/subscriptionplans/subscriptions: the current organization's plan (Administrators). */
export function useCurrentSubscription(enabled: boolean) {
  return useQuery({
    queryKey: subscriptionKeys.current(),
    queryFn: ({ signal }) => apiFetch('/api/subscriptionplans/subscriptions', { schema: currentSubscription, signal }),
    enabled,
    retry: false,
  });
}

/** POST /api/subscriptionplans/reactivate with the current plan; records the request for support. */
export function useRequestReactivation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (planId: string | null) =>
      apiFetch('/api/subscriptionplans/reactivate', { method: 'POST', body: { planId }, schema: reactivationRequested }),
    // end-user §4: the profile is refreshed after a reactivation (it stays canceled until support acts).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.current() }),
        queryClient.invalidateQueries({ queryKey: sessionKeys.profile() }),
      ]),
  });
}
