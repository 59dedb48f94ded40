import { z } from 'zod';
import { text } from './text.ts';

// The messaging health dashboard (back-office-b §2, §3 "Messaging health", §4 health colours, §9 refresh; issue 27 §1):
// GET /api/diagnostics/messaging/messageCounts, /api/diagnostics/stats?hours, /api/diagnostics/messaging/systemalerts
// and /api/diagnostics/worker, for SysAdmin and SysAdminReporting (§6).

export const DASHBOARD_REFRESH_MS = 10_000;
export const DASHBOARD_STATS_REFRESH_MS = 30_000;

// The channels shown even before they carried a message; a channel added later appears once it has figures.
// Direct: S/MIME over SMTP with another HISP. Local: delivered to an organization on this installation. Fax.
export const MESSAGING_CHANNELS = ['Direct', 'Local', 'Fax'] as const;
export const messagingChannelLabels: Record<string, string> = { Direct: 'Direct (SMTP)', Local: 'Local delivery', Fax: 'Fax' };

// Not in the spec (it names the states, not when they apply): a channel is in Error when at least 20 % of its last
// 24 hours' messages failed, in Warn from 5 % (and at least one failure), otherwise OK.
export const CHANNEL_ERROR_RATIO = 0.2;
export const CHANNEL_WARN_RATIO = 0.05;
export const healthStates = ['Error', 'Warn', 'OK'] as const;
export type HealthState = (typeof healthStates)[number];
// §4: state Error red, Warn orange, otherwise blue.
export const healthColors: Record<HealthState, 'red' | 'orange' | 'blue'> = { Error: 'red', Warn: 'orange', OK: 'blue' };

export const channelFigures = z.object({
  name: text(),
  state: z.enum(healthStates),
  color: z.enum(['red', 'orange', 'blue']),
  success: z.number().int(),
  total: z.number().int(),
  failure: z.number().int(),
  // Neither delivered nor failed yet (a fax queued at the provider).
  other: z.number().int(),
});
export type ChannelFigures = z.infer<typeof channelFigures>;

// GET /api/diagnostics/messaging/messageCounts: the last 24 hours per channel. `from`/`to` are ISO times.
export const messageCounts = z.object({
  from: text(),
  to: text(),
  inboundMessages: z.array(channelFigures),
  outboundMessages: z.array(channelFigures),
});
export type MessageCounts = z.infer<typeof messageCounts>;

// GET /api/diagnostics/stats?hours=24: messages per hour and channel (dailyStats: date is the hour's start, ISO).
export const STATS_MAX_HOURS = 168;
export const statsQuery = z.object({ hours: z.coerce.number().int().min(1).max(STATS_MAX_HOURS).default(24) });
export const dailyStat = z.object({ date: text(), value: z.number().int(), failure: z.number().int() });
export const channelSeries = z.object({ name: text(), state: z.enum(healthStates), dailyStats: z.array(dailyStat) });
export const messagingStats = z.object({ hours: z.number().int(), inboundMessages: z.array(channelSeries), outboundMessages: z.array(channelSeries) });
export type MessagingStats = z.infer<typeof messagingStats>;

// §4: alert status Triggered is danger, Warn warning, otherwise success.
export const alertStatuses = ['Triggered', 'Warn', 'OK'] as const;
export type AlertStatus = (typeof alertStatuses)[number];
export const alertStatusColors: Record<AlertStatus, 'red' | 'yellow' | 'green'> = { Triggered: 'red', Warn: 'yellow', OK: 'green' };

// Thresholds of the alerts (not in the spec; issue 27 §1 names the conditions).
export const ALERT_THRESHOLDS = {
  // Work due but not picked up for this long: Warn, then Triggered.
  waitingWarnMinutes: 5,
  waitingTriggeredMinutes: 15,
  // Certificates and trust anchors expiring within this many days: Warn; expired: Triggered.
  expiringDays: 30,
  // A worker silent for this long is not heartbeating (it beats every 15 s).
  workerSilentSeconds: 60,
  // Data folder use: Warn, then Triggered.
  diskWarnRatio: 0.85,
  diskTriggeredRatio: 0.95,
} as const;

export const alertTypes = ['FailedWorkflows', 'WaitingWork', 'MissingMdn', 'ExpiringCertificates', 'ExpiringTrustAnchors', 'TrustBundleRefresh', 'RevocationLists', 'MailOutbox', 'Antivirus', 'Workers', 'DiskSpace'] as const;
export type AlertType = (typeof alertTypes)[number];

// One alert of the System Alerts list (§3: createdAt, status, alertType, date, name, link). createdAt: since when the
// condition holds (null when OK); date: when it was evaluated; detail: what was found, PHI-free; link: where to look.
export const systemAlert = z.object({
  alertType: z.enum(alertTypes),
  name: text(),
  status: z.enum(alertStatuses),
  createdAt: text().nullable(),
  date: text(),
  detail: text(),
  link: text().nullable(),
});
export type SystemAlert = z.infer<typeof systemAlert>;
export const systemAlerts = z.object({ items: z.array(systemAlert) });
export type SystemAlerts = z.infer<typeof systemAlerts>;

// GET /api/diagnostics/worker: the processes running workflow workers, and the work waiting per workflow type.
export const workerProcess = z.object({
  workerId: text(),
  host: text(),
  pid: z.number().int(),
  lanes: z.array(z.object({ name: text(), concurrency: z.number().int() })),
  startedAt: text(),
  lastSeenAt: text(),
  heartbeating: z.boolean(),
});
export const workflowQueue = z.object({ type: text(), pending: z.number().int(), running: z.number().int(), oldestDueAt: text().nullable() });
export const workerDiagnostics = z.object({ workers: z.array(workerProcess), queues: z.array(workflowQueue) });
export type WorkerDiagnostics = z.infer<typeof workerDiagnostics>;

// The workflows grid link of a channel figure (§2): failed intake (inbound) or release (outbound) workflows of the channel.
export const failedWorkflowsLink = (direction: 'inbound' | 'outbound', channel: string) =>
  `/admin/dashboard/messaging/workflows?status=Failed&type=${direction === 'inbound' ? 'intake' : 'release'}&channel=${encodeURIComponent(channel)}`;
