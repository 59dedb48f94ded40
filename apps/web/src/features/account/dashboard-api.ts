import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { auditType, messageEvents } from '@clinicrelay/contracts/audit.ts';
import { failedAcknowledged, intakeStatistics } from '@clinicrelay/contracts/intake.ts';
import { failedMessages, neverSignedInUsers } from '@clinicrelay/contracts/dashboard.ts';
import { apiFetch } from '../../api/client.ts';

// The Administrator's dashboard (issue 13 §1): one hook per call; acknowledging invalidates what it changes.
export const RECENT_ACTIVITY_SIZE = 30;
export const RECENT_ACTIVITY_DAYS = 14;
const DAY_MS = 86_400_000;

export const dashboardKeys = {
  all: ['dashboard'] as const,
  activity: () => [...dashboardKeys.all, 'activity'] as const,
  statistics: () => [...dashboardKeys.all, 'statistics'] as const,
  failed: () => [...dashboardKeys.all, 'failed'] as const,
  neverSignedIn: () => [...dashboardKeys.all, 'neverSignedIn'] as const,
  // The same key as the message Activity modal's: the types are fetched once.
  eventTypes: () => ['audit', 'types'] as const,
};

/** The last 14 days, today included: from the UTC start of the day 13 days ago. */
export function recentActivityPath(now = new Date()) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = new Date(today - (RECENT_ACTIVITY_DAYS - 1) * DAY_MS).toISOString();
  return `/api/messages/events?${new URLSearchParams({ pageSize: String(RECENT_ACTIVITY_SIZE), start }).toString()}`;
}

/** GET /api/messages/events: the newest 30 over the last 14 days. */
export const useRecentActivity = () =>
  useQuery({
    queryKey: dashboardKeys.activity(),
    queryFn: ({ signal }) => apiFetch(recentActivityPath(), { schema: messageEvents, signal }),
  });

/** GET /api/audit/types: the names of the event types. */
export const useEventTypes = () =>
  useQuery({
    queryKey: dashboardKeys.eventTypes(),
    queryFn: ({ signal }) => apiFetch('/api/audit/types', { schema: z.array(auditType), signal }),
    staleTime: Infinity,
  });

/** GET /api/messages/statistics: the last 30 days. */
export const useStatistics = () =>
  useQuery({
    queryKey: dashboardKeys.statistics(),
    queryFn: ({ signal }) => apiFetch('/api/messages/statistics', { schema: intakeStatistics, signal }),
  });

/** GET /api/failedmessages (not in the spec): failures nobody has acknowledged. */
export const useFailedMessages = () =>
  useQuery({
    queryKey: dashboardKeys.failed(),
    queryFn: ({ signal }) => apiFetch('/api/failedmessages', { schema: failedMessages, signal }),
  });

/** GET /api/users/neversignedin (not in the spec): members who have never signed in. */
export const useNeverSignedIn = () =>
  useQuery({
    queryKey: dashboardKeys.neverSignedIn(),
    queryFn: ({ signal }) => apiFetch('/api/users/neversignedin', { schema: neverSignedInUsers, signal }),
  });

function useAfterAcknowledging() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.failed() });
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.statistics() });
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.activity() });
  };
}

/** PUT /api/failedmessages/{id}/acknowledge. */
export function useAcknowledgeFailed() {
  const onSuccess = useAfterAcknowledging();
  return useMutation({
    mutationFn: (id: string) => apiFetch(`/api/failedmessages/${encodeURIComponent(id)}/acknowledge`, { method: 'PUT', schema: failedAcknowledged }),
    onSuccess,
  });
}

/** POST /api/failedmessages/acknowledgeall. */
export function useAcknowledgeAllFailed() {
  const onSuccess = useAfterAcknowledging();
  return useMutation({
    mutationFn: () => apiFetch('/api/failedmessages/acknowledgeall', { method: 'POST', schema: failedAcknowledged }),
    onSuccess,
  });
}
