import type { NotificationPreferences, NotificationSchedule } from '@clinicrelay/contracts/notifications.ts';
import type { Database } from '../../db/client.ts';
import { auditedBy, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { scheduleOf } from './daily.ts';
import * as q from './queries.ts';

export interface NotificationsDeps {
  db: Database;
  now: () => Date;
}

// The user_preferences column defaults, for users who never saved theirs.
const DEFAULTS: NotificationPreferences = {
  emailNewMessages: true,
  emailUnprocessedMessages: false,
  emailSystemNotifications: true,
  emailUnassignedMessages: false,
  emailFailedMessagesDigest: false,
};

const pick = (row: NotificationPreferences): NotificationPreferences => ({
  emailNewMessages: row.emailNewMessages,
  emailUnprocessedMessages: row.emailUnprocessedMessages,
  emailSystemNotifications: row.emailSystemNotifications,
  emailUnassignedMessages: row.emailUnassignedMessages,
  emailFailedMessagesDigest: row.emailFailedMessagesDigest,
});

// The user themself, or an Administrator of the caller's current organization for one of its members; a User asking
// for someone else is refused (403), a user outside the organization is not found (404).
async function checkAccess(deps: NotificationsDeps, caller: OrgCaller, userId: string) {
  const target = await q.findMembership(deps.db, caller.organizationId, userId);
  if (userId === caller.session.userId && target) return;
  if (!caller.session.roles.includes('Administrator')) throw forbidden();
  if (!target) throw notFound();
}

// GET /api/users/{id}/preferences.
export async function getPreferences(deps: NotificationsDeps, caller: OrgCaller, userId: string): Promise<NotificationPreferences> {
  await checkAccess(deps, caller, userId);
  const row = await q.findPreferences(deps.db, userId);
  return row ? pick(row) : DEFAULTS;
}

// PUT /api/users/{id}/preferences.
export async function savePreferences(deps: NotificationsDeps, caller: OrgCaller, userId: string, body: NotificationPreferences): Promise<NotificationPreferences> {
  await checkAccess(deps, caller, userId);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const row = await q.upsertPreferences(tx, userId, pick(body), now);
    await writeAudit(tx, { eventType: 'UserNotificationsUpdated', ...auditedBy(caller), correlationId: userId, details: { userId, ...pick(body) } }, now);
    return pick(row);
  });
}

// GET /api/organizationsettings/notifications.
export async function getSchedule(deps: NotificationsDeps, caller: OrgCaller): Promise<NotificationSchedule> {
  return scheduleOf(await q.findSettings(deps.db, caller.organizationId));
}

// PUT /api/organizationsettings/notifications: kept beside the other organization settings (organizations.settings).
export async function saveSchedule(deps: NotificationsDeps, caller: OrgCaller, body: NotificationSchedule): Promise<NotificationSchedule> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const current = (await q.findSettings(tx, caller.organizationId)) ?? {};
    await q.updateSettings(tx, caller.organizationId, { ...current, dailyNotificationTime: body.dailyTime, dailyNotificationTimeZone: body.timeZone }, caller.session.userId, now);
    await writeAudit(tx, { eventType: 'NotificationScheduleUpdated', ...auditedBy(caller), correlationId: caller.organizationId, details: { ...body } }, now);
  });
  return getSchedule(deps, caller);
}
