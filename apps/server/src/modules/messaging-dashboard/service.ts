import { statfs } from 'node:fs/promises';
import {
  ALERT_THRESHOLDS,
  CHANNEL_ERROR_RATIO,
  CHANNEL_WARN_RATIO,
  failedWorkflowsLink,
  healthColors,
  MESSAGING_CHANNELS,
  type AlertStatus,
  type ChannelFigures,
  type HealthState,
  type MessageCounts,
  type MessagingStats,
  type SystemAlert,
  type SystemAlerts,
  type WorkerDiagnostics,
} from '@clinicrelay/contracts/messaging-dashboard.ts';
import type { Database } from '../../db/client.ts';
import type { Scanner } from '../../platform/antivirus/scanner.ts';
import * as q from './queries.ts';

export interface MessagingDashboardDeps {
  db: Database;
  scanner: Scanner;
  dataDir: string;
  // The data folder's use (0..1); statfs by default, replaced in tests.
  diskUse?: (dataDir: string) => Promise<number>;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

const WORKFLOWS = '/admin/dashboard/messaging/workflows';

type Direction = 'Inbound' | 'Outbound';

// The fixed channels first, then any other channel that carried a message, in name order.
function channelsOf(rows: readonly { channel: string }[]): string[] {
  const later = [...new Set(rows.map((r) => r.channel))].filter((c) => !(MESSAGING_CHANNELS as readonly string[]).includes(c)).sort();
  return [...MESSAGING_CHANNELS, ...later];
}

export function channelState(failure: number, total: number): HealthState {
  if (failure === 0 || total === 0) return 'OK';
  const ratio = failure / total;
  return ratio >= CHANNEL_ERROR_RATIO ? 'Error' : ratio >= CHANNEL_WARN_RATIO ? 'Warn' : 'OK';
}

function figures(rows: readonly q.RollupTotal[], direction: Direction, channel: string): ChannelFigures {
  const count = (outcome: q.RollupTotal['outcome']) =>
    rows.filter((r) => r.direction === direction && r.channel === channel && r.outcome === outcome).reduce((sum, r) => sum + r.count, 0);
  const success = count('Success');
  const failure = count('Failure');
  const other = count('Other');
  const total = success + failure + other;
  const state = channelState(failure, total);
  return { name: channel, state, color: healthColors[state], success, total, failure, other };
}

export async function messageCounts(deps: MessagingDashboardDeps): Promise<MessageCounts> {
  const { now, rows } = await q.rollupTotals(deps.db);
  const channels = channelsOf(rows);
  const to = new Date(now);
  return {
    from: new Date(to.getTime() - 24 * 3600_000).toISOString(),
    to: to.toISOString(),
    inboundMessages: channels.map((c) => figures(rows, 'Inbound', c)),
    outboundMessages: channels.map((c) => figures(rows, 'Outbound', c)),
  };
}

export async function stats(deps: MessagingDashboardDeps, hours: number): Promise<MessagingStats> {
  const { now, rows } = await q.rollupHours(deps.db, hours);
  const current = new Date(now);
  current.setUTCMinutes(0, 0, 0);
  const hourStarts = Array.from({ length: hours }, (_, i) => new Date(current.getTime() - (hours - 1 - i) * 3600_000).toISOString());
  const channels = channelsOf(rows);
  const series = (direction: Direction) =>
    channels.map((channel) => {
      const mine = rows.filter((r) => r.direction === direction && r.channel === channel);
      const byHour = new Map<string, { value: number; failure: number }>();
      for (const r of mine) {
        const hour = iso(r.hour);
        const bucket = byHour.get(hour) ?? { value: 0, failure: 0 };
        bucket.value += r.count;
        if (r.outcome === 'Failure') bucket.failure += r.count;
        byHour.set(hour, bucket);
      }
      const total = mine.reduce((sum, r) => sum + r.count, 0);
      const failure = mine.filter((r) => r.outcome === 'Failure').reduce((sum, r) => sum + r.count, 0);
      return { name: channel, state: channelState(failure, total), dailyStats: hourStarts.map((date) => ({ date, ...(byHour.get(date) ?? { value: 0, failure: 0 }) })) };
    });
  return { hours, inboundMessages: series('Inbound'), outboundMessages: series('Outbound') };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

async function defaultDiskUse(dataDir: string): Promise<number> {
  const s = await statfs(dataDir);
  const used = s.blocks - s.bfree;
  // df's "Use%": what is used over what users may use (the root-reserved blocks excluded).
  return used + s.bavail === 0 ? 0 : used / (used + s.bavail);
}

// Each alert of issue 27 §1 from what the database, the scanner and the disk say now.
export async function systemAlerts(deps: MessagingDashboardDeps): Promise<SystemAlerts> {
  const t = ALERT_THRESHOLDS;
  const date = new Date().toISOString();
  const alert = (a: Omit<SystemAlert, 'date' | 'createdAt'> & { since?: Date | string | null }): SystemAlert => {
    const { since, ...rest } = a;
    return { ...rest, date, createdAt: rest.status === 'OK' ? null : isoOrNull(since ?? null) };
  };
  const [states, failed, waitingWarn, waitingTriggered, mdn, certificates, anchors, bundles, crls, outbox, workers, antivirus, disk] = await Promise.all([
    q.alertStates(deps.db),
    q.failedWorkflowsLastHour(deps.db),
    q.waitingLongerThan(deps.db, t.waitingWarnMinutes),
    q.waitingLongerThan(deps.db, t.waitingTriggeredMinutes),
    q.missingNotifications(deps.db),
    q.expiring(deps.db, 'certificates', t.expiringDays),
    q.expiring(deps.db, 'trust_anchors', t.expiringDays),
    q.failingTrustBundles(deps.db),
    q.failingRevocationLists(deps.db),
    q.outboxTrouble(deps.db, t.waitingTriggeredMinutes),
    q.heartbeats(deps.db, t.workerSilentSeconds),
    deps.scanner.configured ? deps.scanner.ping().catch(() => false) : Promise.resolve(null),
    (deps.diskUse ?? defaultDiskUse)(deps.dataDir).catch(() => null),
  ]);
  const silent = workers.filter((w) => !w.heartbeating);
  const alive = workers.length - silent.length;
  const expiry = (alertType: 'ExpiringCertificates' | 'ExpiringTrustAnchors', name: string, noun: string, found: Awaited<ReturnType<typeof q.expiring>>, link: string) =>
    alert({
      alertType,
      name,
      status: found.expired > 0 ? 'Triggered' : found.count > 0 ? 'Warn' : 'OK',
      since: found.first,
      detail:
        found.count === 0
          ? `No ${noun} expires within ${t.expiringDays} days.`
          : `${plural(found.expired, `${noun} has`, `${noun}s have`)} expired; ${plural(found.count - found.expired, noun)} ${found.count - found.expired === 1 ? 'expires' : 'expire'} within ${t.expiringDays} days.`,
      link,
    });
  const diskStatus: AlertStatus = disk === null ? 'Warn' : disk >= t.diskTriggeredRatio ? 'Triggered' : disk >= t.diskWarnRatio ? 'Warn' : 'OK';
  const items: SystemAlert[] = [
    alert({
      alertType: 'FailedWorkflows',
      name: 'Failed workflows in the last hour',
      status: failed.count > 0 ? 'Triggered' : 'OK',
      since: failed.since,
      detail: `${plural(failed.count, 'workflow')} failed in the last hour.`,
      link: `${WORKFLOWS}?status=Failed`,
    }),
    alert({
      alertType: 'WaitingWork',
      name: 'Work waiting',
      status: waitingTriggered.count > 0 ? 'Triggered' : waitingWarn.count > 0 ? 'Warn' : 'OK',
      since: waitingWarn.since,
      detail:
        waitingWarn.count === 0
          ? `No work has waited longer than ${t.waitingWarnMinutes} minutes.`
          : `${plural(waitingWarn.count, 'workflow')} waiting longer than ${t.waitingWarnMinutes} minutes (${waitingTriggered.count} longer than ${t.waitingTriggeredMinutes}).`,
      link: `${WORKFLOWS}?status=Pending`,
    }),
    alert({
      alertType: 'MissingMdn',
      name: 'Direct recipients without an MDN',
      status: mdn.count > 0 ? 'Triggered' : 'OK',
      since: mdn.since,
      detail: `${plural(mdn.count, 'Direct recipient')} without a delivery notification past the timeout (last 24 hours).`,
      link: failedWorkflowsLink('outbound', 'Direct').replace('status=Failed&', ''),
    }),
    expiry('ExpiringCertificates', 'Certificates expiring', 'certificate', certificates, '/admin/certificates'),
    expiry('ExpiringTrustAnchors', 'Trust anchors expiring', 'trust anchor', anchors, '/admin/trust-anchors'),
    alert({
      alertType: 'TrustBundleRefresh',
      name: 'Trust bundle refresh',
      status: bundles.count > 0 ? 'Triggered' : 'OK',
      since: bundles.since,
      detail: bundles.count > 0 ? `${plural(bundles.count, 'trust bundle')} failed to refresh.` : 'Every trust bundle refreshed.',
      link: '/admin/trust-anchors',
    }),
    alert({
      alertType: 'RevocationLists',
      name: 'Revocation list (CRL) fetch',
      // A Warn, not Triggered: certificates whose CRL cannot be fetched are still used, unchecked (issue 12 §1).
      status: crls.count > 0 ? 'Warn' : 'OK',
      since: crls.since,
      detail: crls.count > 0 ? `${plural(crls.count, 'revocation list')} could not be used in the last 24 hours: ${crls.problem}` : 'Every revocation list fetched could be used.',
      // The lists belong to other HISPs' certificates, which no screen lists: the detail names the list.
      link: null,
    }),
    alert({
      alertType: 'MailOutbox',
      name: 'Mail outbox',
      status: outbox.failed.count > 0 ? 'Triggered' : outbox.stuck.count > 0 ? 'Warn' : 'OK',
      since: outbox.failed.since ?? outbox.stuck.since,
      detail: `${plural(outbox.failed.count, 'mail')} failed in the last hour; ${plural(outbox.stuck.count, 'mail')} queued longer than ${t.waitingTriggeredMinutes} minutes.`,
      link: `${WORKFLOWS}?status=Failed`,
    }),
    alert({
      alertType: 'Antivirus',
      name: 'Virus scanner',
      // Not configured: a standing warning, uploads and received messages are not scanned.
      status: antivirus === null ? 'Warn' : antivirus ? 'OK' : 'Triggered',
      detail: antivirus === null ? 'CLAMD_URL is not set: uploads and received messages are not scanned.' : antivirus ? 'clamd answers.' : 'clamd does not answer: uploads are refused until it does.',
      link: null,
    }),
    alert({
      alertType: 'Workers',
      name: 'Workflow workers',
      status: silent.length > 0 || alive === 0 ? 'Triggered' : 'OK',
      since: silent.length > 0 ? silent.map((w) => iso(w.lastSeenAt)).sort()[0] : null,
      detail:
        alive === 0 && silent.length === 0
          ? 'No worker process is running: nothing is sent or received.'
          : `${plural(alive, 'worker process', 'worker processes')} heartbeating; ${silent.length} silent for more than ${t.workerSilentSeconds} seconds.`,
      link: '/admin/dashboard/messaging#workers',
    }),
    alert({
      alertType: 'DiskSpace',
      name: 'Data folder disk',
      status: diskStatus,
      detail: disk === null ? 'The data folder’s disk could not be read.' : `${Math.round(disk * 100)} % of the data folder’s disk is used.`,
      link: null,
    }),
  ];
  // An alert whose condition has no date of its own is dated by when it took its status, as last recorded.
  const known = new Map(states.map((s) => [s.alertType, s]));
  const changed = items.filter((a) => known.get(a.alertType)?.status !== a.status);
  await q.recordAlertChanges(deps.db, changed, new Date(date));
  return {
    items: items.map((a) => (a.status === 'OK' || a.createdAt !== null ? a : { ...a, createdAt: changed.includes(a) ? date : iso(known.get(a.alertType)!.since) })),
  };
}

export async function workerDiagnostics(deps: MessagingDashboardDeps): Promise<WorkerDiagnostics> {
  const [workers, queues] = await Promise.all([q.heartbeats(deps.db, ALERT_THRESHOLDS.workerSilentSeconds), q.queues(deps.db)]);
  return {
    workers: workers.map((w) => ({ ...w, startedAt: iso(w.startedAt), lastSeenAt: iso(w.lastSeenAt) })),
    queues: queues.map((row) => ({ ...row, oldestDueAt: isoOrNull(row.oldestDueAt) })),
  };
}
