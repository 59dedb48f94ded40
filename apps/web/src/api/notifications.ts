import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationPreferences, notificationSchedule, type NotificationPreferences, type NotificationSchedule } from '@clinicrelay/contracts/notifications.ts';
import { apiFetch } from './client.ts';
import { sessionKeys } from './session.ts';

// Issue 13 §5: a user's notification flags (their own page and their Administrator's edit-user modal) and the
// organization's daily time for reminders and digests. Here rather than in a feature: both features use them.

export const notificationKeys = {
  all: ['notifications'] as const,
  user: (userId: string) => [...notificationKeys.all, 'user', userId] as const,
  schedule: () => [...notificationKeys.all, 'schedule'] as const,
};

// GET /api/users/{id}/preferences.
export const fetchUserNotifications = (userId: string, signal?: AbortSignal) =>
  apiFetch(`/api/users/${userId}/preferences`, { schema: notificationPreferences, signal });

// PUT /api/users/{id}/preferences; the session's own preferences are refreshed when they are the caller's.
export function useSaveUserNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, preferences }: { userId: string; preferences: NotificationPreferences }) =>
      apiFetch(`/api/users/${userId}/preferences`, { method: 'PUT', body: preferences, schema: notificationPreferences }),
    onSuccess: async (saved, { userId }) => {
      queryClient.setQueryData(notificationKeys.user(userId), saved);
      await queryClient.invalidateQueries({ queryKey: sessionKeys.preferences() });
    },
  });
}

export const useNotificationSchedule = (enabled = true) =>
  useQuery({
    queryKey: notificationKeys.schedule(),
    queryFn: ({ signal }) => apiFetch('/api/organizationsettings/notifications', { schema: notificationSchedule, signal }),
    enabled,
  });

export function useSaveNotificationSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedule: NotificationSchedule) => apiFetch('/api/organizationsettings/notifications', { method: 'PUT', body: schedule, schema: notificationSchedule }),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.schedule(), saved),
  });
}
