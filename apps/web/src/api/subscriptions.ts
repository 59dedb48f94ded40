import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  cancelled,
  currentSubscription,
  planChanged,
  reactivated,
  upgradeRequested,
  type PlanChangeRequest,
  type UpgradeFeature,
} from '@clinicrelay/contracts/subscriptions.ts';
import { apiFetch } from './client.ts';
import { sessionKeys } from './session.ts';

export const subscriptionKeys = {
  current: () => ['subscriptions', 'current'] as const,
};

/** GET /api/subscriptionplans/subscriptions: the current organization's plan and the plans on offer (Administrators). */
export function useCurrentSubscription(enabled: boolean) {
  return useQuery({
    queryKey: subscriptionKeys.current(),
    queryFn: ({ signal }) => apiFetch('/api/subscriptionplans/subscriptions', { schema: currentSubscription, signal }),
    enabled,
    retry: false,
  });
}

// A plan, cancel or reactivation changes what the profile says (canceled, grace period, plan).
function useRefreshAfter() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: subscriptionKeys.current() }), queryClient.invalidateQueries({ queryKey: sessionKeys.profile() })]);
}

/** POST /api/subscriptionplans/reactivate with the current plan: the sandbox charges the card on file at once. */
export function useReactivate() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (planId: string | null) => apiFetch('/api/subscriptionplans/reactivate', { method: 'POST', body: { planId }, schema: reactivated }),
    // end-user §4: the profile is refreshed after a reactivation.
    onSuccess: refresh,
  });
}

/** POST /api/subscriptionplans/subscriptions: change the plan, paying with the card given. */
export function useChangePlan() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (body: PlanChangeRequest) => apiFetch('/api/subscriptionplans/subscriptions', { method: 'POST', body, schema: planChanged }),
    onSuccess: refresh,
  });
}

/** POST /api/subscriptionplans/cancel with the reason. */
export function useCancelSubscription() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (cancelReason: string) => apiFetch('/api/subscriptionplans/cancel', { method: 'POST', body: { cancelReason }, schema: cancelled }),
    onSuccess: refresh,
  });
}

/** POST /api/subscriptionplans/upgraderequest: a User asks the Administrators for a plan upgrade. */
export function useRequestUpgrade() {
  return useMutation({
    mutationFn: (feature: UpgradeFeature) => apiFetch('/api/subscriptionplans/upgraderequest', { method: 'POST', body: { feature }, schema: upgradeRequested }),
  });
}
