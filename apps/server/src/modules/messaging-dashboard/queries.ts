import { sql } from 'drizzle-orm';
import { deliveryReasons } from '@clinicrelay/contracts/delivery.ts';
import { queryRows, type DbOrTx } from '../../db/client.ts';
import { systemAlertStates } from '../../db/schema/messaging-rollups.ts';

// Data access of the messaging dashboard. Every query reads an index range (the rollups' minute key, the workflows'
// (status, run_after), deliveries' notification index) so the dashboard stays fast however many steps there are.

type Timestamp = Date | string;

export interface RollupTotal {
  direction: 'Inbound' | 'Outbound';
  channel: string;
  outcome: 'Success' | 'Failure' | 'Other';
  count: number;
}

// The last 24 hours per direction, channel and outcome, and the database's clock they were read at.
export async function rollupTotals(db: DbOrTx): Promise<{ now: Timestamp; rows: RollupTotal[] }> {
  const rows = await queryRows<RollupTotal & { now: Timestamp }>(
    db,
    sql`select now() as now, r.direction, r.channel, r.outcome, r.count from (select direction, channel, outcome, sum(count)::int as count from messaging_rollups
      where minute > now() - interval '24 hours' group by direction, channel, outcome) r right join (select 1) one on true`,
  );
  return { now: rows[0]!.now, rows: rows.filter((r) => r.direction !== null) };
}

// Per hour (the hour's start) over the last `hours` hours, the current one included.
export async function rollupHours(db: DbOrTx, hours: number): Promise<{ now: Timestamp; rows: (RollupTotal & { hour: Timestamp })[] }> {
  const rows = await queryRows<RollupTotal & { hour: Timestamp; now: Timestamp }>(
    db,
    sql`select now() as now, r.hour, r.direction, r.channel, r.outcome, r.count from (select date_trunc('hour', minute) as hour, direction, channel, outcome, sum(count)::int as count
      from messaging_rollups where minute >= date_trunc('hour', now()) - make_interval(hours => ${hours - 1})
      group by 1, 2, 3, 4) r right join (select 1) one on true`,
  );
  return { now: rows[0]!.now, rows: rows.filter((r) => r.direction !== null) };
}

// The raw scan the rollups replace (bench/dashboard.ts measures both): the same figures counted from the steps.
export async function scanStepTotals(db: DbOrTx): Promise<{ type: string; status: string; count: number }[]> {
  return queryRows(
    db,
    sql`select w.type, s.status, count(*)::int as count from workflow_steps s join workflows w on w.id = s.workflow_id
      where s.completed_at > now() - interval '24 hours' or (s.status <> 'Completed' and s.started_at > now() - interval '24 hours')
      group by w.type, s.status`,
  );
}

export interface ConditionRow {
  count: number;
  since: Timestamp | null;
}

const condition = async (db: DbOrTx, query: ReturnType<typeof sql>): Promise<ConditionRow> => (await queryRows<ConditionRow>(db, query))[0] ?? { count: 0, since: null };

// Workflows failed in the last hour (the claim index (status, run_after) reads the failed ones only).
export const failedWorkflowsLastHour = (db: DbOrTx) =>
  condition(db, sql`select count(*)::int as count, min(updated_at) as since from workflows where status = 'Failed' and updated_at > now() - interval '1 hour'`);

// Work due for longer than `minutes` and not picked up: Pending past its run_after, or Running with an expired lease.
export const waitingLongerThan = (db: DbOrTx, minutes: number) =>
  condition(
    db,
    sql`select count(*)::int as count, min(since) as since from (
      select run_after as since from workflows where status = 'Pending' and run_after < now() - make_interval(mins => ${minutes})
      union all
      select locked_until from workflows where status = 'Running' and locked_until < now() - make_interval(mins => ${minutes})) w`,
  );

// Direct recipients whose delivery notification is overdue: still waiting past the timeout, or failed for it in the last 24 hours.
export const missingNotifications = (db: DbOrTx) =>
  condition(
    db,
    sql`select count(*)::int as count, min(since) as since from (
      select notification_due_at as since from deliveries where notification_due_at < now() and status = 'Pending'
      union all
      select updated_at from deliveries where status = 'Failed' and reason = ${deliveryReasons.noNotification} and updated_at > now() - interval '24 hours') d`,
  );

// Enabled certificates and trust anchors expired or expiring within `days`: how many, how many expired, the first expiry.
export async function expiring(db: DbOrTx, table: 'certificates' | 'trust_anchors', days: number): Promise<{ count: number; expired: number; first: Timestamp | null }> {
  const enabled = table === 'certificates' ? sql`and enabled` : sql``;
  const [row] = await queryRows<{ count: number; expired: number; first: Timestamp | null }>(
    db,
    sql`select count(*)::int as count, (count(*) filter (where not_after < now()))::int as expired, min(not_after) as first
      from ${sql.identifier(table)} where not_after < now() + make_interval(days => ${days}) ${enabled}`,
  );
  return row ?? { count: 0, expired: 0, first: null };
}

// Trust bundles whose last refresh failed.
export const failingTrustBundles = (db: DbOrTx) =>
  condition(db, sql`select count(*)::int as count, min(coalesce(last_refreshed_at, created_at)) as since from trust_bundles where last_error is not null`);

// CRL distribution points whose last fetch in the last 24 hours failed, with the first one's problem.
export const failingRevocationLists = async (db: DbOrTx) =>
  (await queryRows<ConditionRow & { problem: string | null }>(
    db,
    sql`select count(*)::int as count, min(failing_since) as since, (array_agg(last_error order by failing_since))[1] as problem
      from revocation_lists where last_error is not null and last_error_at > now() - interval '24 hours'`,
  ))[0] ?? { count: 0, since: null, problem: null };

// The mail outbox: failed mails in the last hour, and mails queued for longer than `minutes`.
export async function outboxTrouble(db: DbOrTx, minutes: number): Promise<{ failed: ConditionRow; stuck: ConditionRow }> {
  const [failed, stuck] = await Promise.all([
    condition(db, sql`select count(*)::int as count, min(created_at) as since from mail_outbox where status = 'Failed' and created_at > now() - interval '1 hour'`),
    condition(db, sql`select count(*)::int as count, min(created_at) as since from mail_outbox where status = 'Queued' and created_at < now() - make_interval(mins => ${minutes})`),
  ]);
  return { failed, stuck };
}

export interface HeartbeatRow {
  workerId: string;
  host: string;
  pid: number;
  lanes: { name: string; concurrency: number }[];
  startedAt: Timestamp;
  lastSeenAt: Timestamp;
  heartbeating: boolean;
}

// Worker processes seen in the last day, and whether each beat within `silentSeconds`.
export const heartbeats = (db: DbOrTx, silentSeconds: number) =>
  queryRows<HeartbeatRow>(
    db,
    sql`select worker_id as "workerId", host, pid, lanes, started_at as "startedAt", last_seen_at as "lastSeenAt",
      last_seen_at > now() - make_interval(secs => ${silentSeconds}) as heartbeating
      from worker_heartbeats where last_seen_at > now() - interval '24 hours' order by started_at`,
  );

// Work waiting and running per workflow type (the claim index reads only Pending and Running rows).
export const queues = (db: DbOrTx) =>
  queryRows<{ type: string; pending: number; running: number; oldestDueAt: Timestamp | null }>(
    db,
    sql`select type, (count(*) filter (where status = 'Pending'))::int as pending, (count(*) filter (where status = 'Running'))::int as running,
      min(run_after) filter (where status = 'Pending') as "oldestDueAt"
      from workflows where status in ('Pending', 'Running') group by type order by type`,
  );

export const alertStates = (db: DbOrTx) => db.select().from(systemAlertStates);

// Records the alerts whose status changed since the last look (one statement; usually none).
export async function recordAlertChanges(db: DbOrTx, changed: readonly { alertType: string; status: 'Triggered' | 'Warn' | 'OK' }[], since: Date): Promise<void> {
  if (changed.length === 0) return;
  await db
    .insert(systemAlertStates)
    .values(changed.map((c) => ({ alertType: c.alertType, status: c.status, since })))
    .onConflictDoUpdate({ target: systemAlertStates.alertType, set: { status: sql`excluded.status`, since: sql`excluded.since` }, where: sql`${systemAlertStates.status} <> excluded.status` });
}
