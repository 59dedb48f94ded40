import { DEFAULT_DAILY_NOTIFICATION_TIME, DEFAULT_DAILY_NOTIFICATION_TIME_ZONE } from '@clinicrelay/contracts/notifications.ts';
import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import { queryRows, type Database, type DbOrTx } from '../../db/client.ts';
import { messages } from '../../db/schema/messages.ts';
import { dailyNotificationRuns } from '../../db/schema/notifications.ts';
import { organizations, type OrganizationSettingsColumn } from '../../db/schema/organizations.ts';
import { memberships, userPreferences, users } from '../../db/schema/users.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import type { WorkflowHandler } from '../../platform/workflows/context.ts';
import { enqueue } from '../../platform/workflows/enqueue.ts';
import { visibleInIntakeOf } from './audience.ts';
import { notificationMail, type NotificationKind } from './mails.ts';
import type { NotificationMailDeps } from './new-messages.ts';

export const DAILY_NOTIFICATIONS_WORKFLOW = 'daily-notifications';

const DAY_MS = 24 * 60 * 60_000;
// The unassigned notice counts what the dashboard shows: messages of the last 30 days.
const UNASSIGNED_WINDOW_MS = 30 * DAY_MS;

export interface DailySchedule {
  dailyTime: string;
  timeZone: string;
}

export const scheduleOf = (settings: OrganizationSettingsColumn | null | undefined): DailySchedule => ({
  dailyTime: settings?.dailyNotificationTime ?? DEFAULT_DAILY_NOTIFICATION_TIME,
  timeZone: settings?.dailyNotificationTimeZone ?? DEFAULT_DAILY_NOTIFICATION_TIME_ZONE,
});

// The organization's local date (YYYY-MM-DD) and time (HH:MM) at `at`; an unknown zone counts as the default one.
export function localDayAndTime(at: Date, timeZone: string): { day: string; time: string } {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  } catch {
    return localDayAndTime(at, DEFAULT_DAILY_NOTIFICATION_TIME_ZONE);
  }
  const part = (type: string) => format.formatToParts(at).find((p) => p.type === type)!.value;
  return { day: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}` };
}

// The schedule's tick (every minute, in every process): each organization whose daily time has passed today, in its
// zone, and whose day has no run yet gets one, recorded with its workflow in one transaction. The day's row is the
// guard: another process, or this one after a restart, finds it and starts nothing. Returns the runs started.
export async function startDueDailyRuns(db: Database, now: Date): Promise<number> {
  const orgs = await db
    .select({ id: organizations.id, settings: organizations.settings })
    .from(organizations)
    .where(and(eq(organizations.isEnabled, true), isNull(organizations.cancelledAt)));
  // Local dates are within a day of UTC's: runs from two days back cover every zone.
  const since = new Date(now.getTime() - 2 * DAY_MS).toISOString().slice(0, 10);
  const done = new Set((await db.select({ organizationId: dailyNotificationRuns.organizationId, day: dailyNotificationRuns.day }).from(dailyNotificationRuns).where(gte(dailyNotificationRuns.day, since))).map((r) => `${r.organizationId} ${r.day}`));
  let started = 0;
  for (const org of orgs) {
    const schedule = scheduleOf(org.settings);
    const { day, time } = localDayAndTime(now, schedule.timeZone);
    if (time < schedule.dailyTime || done.has(`${org.id} ${day}`)) continue;
    const began = await db.transaction(async (tx) => {
      const [run] = await tx.insert(dailyNotificationRuns).values({ organizationId: org.id, day, createdAt: now }).onConflictDoNothing().returning({ day: dailyNotificationRuns.day });
      if (!run) return false;
      await enqueue(tx, { type: DAILY_NOTIFICATIONS_WORKFLOW, organizationId: org.id, correlationId: `${org.id}:${day}`, payload: { organizationId: org.id, day } });
      return true;
    });
    if (began) started++;
  }
  return started;
}

interface MemberCounts extends Record<string, unknown> {
  userId: string;
  email: string;
  fullName: string;
  unprocessed: number;
  failed: number;
  unassigned: number;
}

// Per enabled member with any daily mail on: the counts of the mails they want (0 for the others).
async function memberCounts(db: DbOrTx, organizationId: string, now: Date): Promise<MemberCounts[]> {
  const visible = visibleInIntakeOf(sql`${memberships.userId}`, sql`${memberships.role}`);
  const inbound = sql`${messages.organizationId} = ${organizationId} and ${messages.direction} = 'Inbound' and ${messages.deletedAt} is null`;
  const wantsUnprocessed = sql`coalesce(${userPreferences.emailUnprocessedMessages}, false)`;
  const wantsFailed = sql`coalesce(${userPreferences.emailFailedMessagesDigest}, false)`;
  const wantsUnassigned = sql`(coalesce(${userPreferences.emailUnassignedMessages}, false) and ${memberships.role} = 'Administrator')`;
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const windowStart = new Date(now.getTime() - UNASSIGNED_WINDOW_MS);
  return queryRows<MemberCounts>(
    db,
    sql`select ${users.id} as "userId", ${users.email} as "email", trim(${users.firstName} || ' ' || ${users.lastName}) as "fullName",
      case when ${wantsUnprocessed} then (select count(*)::int from ${messages} where ${inbound} and not ${messages.isProcessed}
        and ${messages.systemReceivedDate} < ${dayAgo.toISOString()}::timestamptz and ${visible}) else 0 end as "unprocessed",
      case when ${wantsFailed} then (select count(*)::int from ${messages} where ${inbound} and ${messages.status} = 'Failed'
        and ${messages.failedAcknowledgedAt} is null and ${visible}) else 0 end as "failed",
      case when ${wantsUnassigned} then (select count(*)::int from ${messages} where ${inbound} and ${messages.assignedUserId} is null
        and ${messages.systemReceivedDate} >= ${windowStart.toISOString()}::timestamptz) else 0 end as "unassigned"
    from ${memberships}
    inner join ${users} on ${users.id} = ${memberships.userId}
    left join ${userPreferences} on ${userPreferences.userId} = ${memberships.userId}
    where ${memberships.organizationId} = ${organizationId} and not ${users.isDisabled} and (${wantsUnprocessed} or ${wantsFailed} or ${wantsUnassigned})`,
  );
}

// The 'daily-notifications' workflow: the day's mails of one organization, queued in the transaction that marks its
// run sent (a retry after a crash before the commit sends them; one after it finds the run sent). A count of 0 sends nothing.
export function dailyNotificationsWorkflow(deps: NotificationMailDeps): WorkflowHandler {
  return async (ctx) => {
    const { organizationId, day } = ctx.workflow.payload as { organizationId?: string; day?: string };
    if (!organizationId || !day) return;
    await deps.db.transaction(async (tx) => {
      const byRun = and(eq(dailyNotificationRuns.organizationId, organizationId), eq(dailyNotificationRuns.day, day));
      const [run] = await tx.select({ sentAt: dailyNotificationRuns.sentAt }).from(dailyNotificationRuns).where(byRun).for('update');
      if (!run || run.sentAt) return;
      const now = deps.now();
      for (const member of await memberCounts(tx, organizationId, now)) {
        const mails: [NotificationKind, number][] = [
          ['UnprocessedReminder', member.unprocessed],
          ['FailedMessagesDigest', member.failed],
          ['UnassignedMessages', member.unassigned],
        ];
        for (const [kind, count] of mails) {
          if (count <= 0) continue;
          await queueMail(tx, { kind, organizationId, from: deps.mailFrom, to: { name: member.fullName, address: member.email }, ...notificationMail(kind, count, deps.publicUrl), queuedAt: now });
        }
      }
      await tx.update(dailyNotificationRuns).set({ sentAt: now }).where(byRun);
    });
  };
}
