import { messageCounts, messagingStats, systemAlerts, workerDiagnostics } from '@clinicrelay/contracts/messaging-dashboard.ts';
import { apiFetch } from './client.ts';

// back-office-b §7 "Diagnostics": the messaging health dashboard's calls.

export const messagingDashboardKeys = {
  all: ['messaging-dashboard'] as const,
  counts: () => [...messagingDashboardKeys.all, 'counts'] as const,
  stats: (hours: number) => [...messagingDashboardKeys.all, 'stats', hours] as const,
  alerts: () => [...messagingDashboardKeys.all, 'alerts'] as const,
  workers: () => [...messagingDashboardKeys.all, 'workers'] as const,
};

export const fetchMessageCounts = (signal?: AbortSignal) => apiFetch('/api/diagnostics/messaging/messageCounts', { schema: messageCounts, signal });
export const fetchMessagingStats = (hours: number, signal?: AbortSignal) => apiFetch(`/api/diagnostics/stats?hours=${hours}`, { schema: messagingStats, signal });
export const fetchSystemAlerts = (signal?: AbortSignal) => apiFetch('/api/diagnostics/messaging/systemalerts', { schema: systemAlerts, signal });
export const fetchWorkerDiagnostics = (signal?: AbortSignal) => apiFetch('/api/diagnostics/worker', { schema: workerDiagnostics, signal });
