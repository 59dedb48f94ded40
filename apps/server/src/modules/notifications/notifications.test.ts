import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notificationScheduleMessages } from '@clinicrelay/contracts/notifications.ts';
import type { Database } from '../../db/client.ts';
import { intakeRules, userIntakeRules } from '../../db/schema/intake.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { messages } from '../../db/schema/messages.ts';
import { dailyNotificationRuns, newMessageNotices } from '../../db/schema/notifications.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { userPreferences } from '../../db/schema/users.ts';
import { workflows } from '../../db/schema/workflows.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { workflowContext, type WorkflowHandler, type WorkflowLogger } from '../../platform/workflows/context.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { useTestApp } from '../../test/app.ts';
import { receiveHere } from '../../transports/local.ts';
import { DEMO, userIdOf } from '../intake/test-inbound.ts';
import { DAILY_NOTIFICATIONS_WORKFLOW, dailyNotificationsWorkflow, localDayAndTime, startDueDailyRuns } from './daily.ts';
import { NEW_MESSAGE_GROUPING_MS, NEW_MESSAGE_NOTICES_WORKFLOW, newMessageNoticesWorkflow } from './new-messages.ts';

const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const ADMIN = DEMO.lakesideAdmin;
const USER = DEMO.lakesideUser;
const MULTI = DEMO.multi;
const NETADMIN = 'netadmin@example.org';
const OTHER_ADMIN = DEMO.riverviewAdmin;
const OTHER_USER = DEMO.riverviewUser;

// What must never appear in a notification mail (issue 13 §5: no PHI, only counts and a link).
const SUBJECT = 'Cardiology referral for Thomas Nguyen';
const SENDER = 'dr.house@princeton-plainsboro.direct.example.com';
const FILE_NAME = 'nguyen-thomas-echo-report.pdf';
const PATIENT = { firstName: 'Thomas', lastName: 'Nguyen' };

describe('notifications (issue 13 §5)', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  let lakeside: string;
  let ids: Record<string, string>;
  let serial = 0;

  const handlers = (database: Database = db()): Map<string, WorkflowHandler> =>
    new Map([
      [NEW_MESSAGE_NOTICES_WORKFLOW, newMessageNoticesWorkflow({ db: database, now: () => t.clock.now, mailFrom: t.config.mailFrom, publicUrl: 'https://relay.example.org' })],
      [DAILY_NOTIFICATIONS_WORKFLOW, dailyNotificationsWorkflow({ db: database, now: () => t.clock.now, mailFrom: t.config.mailFrom, publicUrl: 'https://relay.example.org' })],
    ]);
  // The grouping minute has passed: the pending runs are due in the database's time.
  const makeDue = () => db().update(workflows).set({ runAfter: sql`now()` }).where(and(inArray(workflows.type, [NEW_MESSAGE_NOTICES_WORKFLOW, DAILY_NOTIFICATIONS_WORKFLOW]), eq(workflows.status, 'Pending')));
  const runNotifications = async () => {
    await makeDue();
    return runOnce({ db: db(), handlers: handlers(), logger: quiet });
  };
  const mailsTo = (userName: string, kind?: string) =>
    db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, userName), kind ? eq(mailOutbox.kind, kind) : sql`${mailOutbox.kind} in ('NewMessages', 'UnprocessedReminder', 'FailedMessagesDigest', 'UnassignedMessages')`));
  const receive = (to: string = DEMO.lakesideDirect, extra: { sourceType?: 'Direct' | 'Fax'; deliveryKey?: string } = {}) =>
    receiveHere(
      { db: db(), blobs: createBlobStore({ db: db(), dataDir: t.config.dataDir, key: t.config.blobEncryptionKey }), now: () => t.clock.now },
      {
        organizationId: lakeside,
        sourceType: extra.sourceType ?? 'Direct',
        sentMessageId: null,
        deliveryKey: extra.deliveryKey ?? `notifications-test-${++serial}`,
        recipient: to,
        fromAddress: SENDER,
        subject: SUBJECT,
        body: 'Echo shows reduced ejection fraction.',
        isUrgent: false,
        patient: PATIENT,
        properties: null,
        attachments: [{ fileName: FILE_NAME, mimeType: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.4 test'), preview: null, previewStatus: 'NotApplicable', meta: null }],
      },
    );
  const setPreferences = (userName: string, values: Partial<typeof userPreferences.$inferInsert>) =>
    db().update(userPreferences).set(values).where(eq(userPreferences.userId, ids[userName]!));

  beforeAll(async () => {
    [{ id: lakeside }] = (await db().select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside'))) as [{ id: string }];
    ids = Object.fromEntries(await Promise.all([ADMIN, USER, MULTI, NETADMIN, OTHER_ADMIN, OTHER_USER].map(async (u) => [u, await userIdOf(db(), u)] as const)));
  });
  beforeEach(async () => {
    // Every test starts from a quiet organization: nothing pending, nothing mailed, the preferences' defaults.
    await db().delete(newMessageNotices);
    await db().delete(dailyNotificationRuns);
    await db().delete(mailOutbox);
    await db().delete(workflows).where(inArray(workflows.type, [NEW_MESSAGE_NOTICES_WORKFLOW, DAILY_NOTIFICATIONS_WORKFLOW, 'send-mail']));
    await db().update(userPreferences).set({ emailNewMessages: true, emailUnprocessedMessages: false, emailUnassignedMessages: false, emailFailedMessagesDigest: false });
    await db().update(messages).set({ deletedAt: t.clock.now }).where(eq(messages.organizationId, lakeside));
    t.clock.now = new Date();
  });

  it('groups the messages of a minute into one mail per user, with their count and a link to Intake', async () => {
    const first = t.clock.now;
    for (let i = 0; i < 5; i++) {
      await receive();
      t.clock.now = new Date(t.clock.now.getTime() + 10_000);
    }
    const runs = await db().select().from(workflows).where(eq(workflows.type, NEW_MESSAGE_NOTICES_WORKFLOW));
    // One run for the organization, a minute after the first message.
    expect(runs).toHaveLength(1);
    expect(runs[0]!.runAfter.getTime() - first.getTime()).toBe(NEW_MESSAGE_GROUPING_MS);

    expect(await runNotifications()).toBe(1);
    const [mail, ...more] = await mailsTo(USER, 'NewMessages');
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ subject: 'You have 5 new messages in ClinicRelay', organizationId: lakeside, toName: 'Leo Shore' });
    expect(mail!.textBody).toContain('https://relay.example.org/intake');
    expect(mail!.htmlBody).toContain('href="https://relay.example.org/intake"');

    // The next message starts a new minute and a new mail with its own count.
    await receive();
    expect(await runNotifications()).toBe(1);
    expect((await mailsTo(USER, 'NewMessages')).map((m) => m.subject).sort()).toEqual(['You have 1 new message in ClinicRelay', 'You have 5 new messages in ClinicRelay']);
  });

  it('tells only the users the message reaches: a user without a rule or address for it, and an Administrator by role alone, get nothing', async () => {
    // Lakeside's Administrators lose their rules: being an Administrator does not bring notices.
    await db().delete(userIntakeRules).where(inArray(userIntakeRules.userId, [ids[ADMIN]!, ids[NETADMIN]!]));
    await receive();
    await runNotifications();
    expect(await mailsTo(USER, 'NewMessages')).toHaveLength(1);
    // multi@example.org receives Lakeside's fax number, not its Direct address.
    expect(await mailsTo(MULTI)).toEqual([]);
    expect(await mailsTo(ADMIN)).toEqual([]);
    expect(await mailsTo(NETADMIN)).toEqual([]);

    // A rule on the fax number brings the Administrator the faxes, and only those.
    const [rule] = await db().insert(intakeRules).values({ organizationId: lakeside, name: 'Faxes to the front desk', toAddresses: [DEMO.lakesideFax] }).returning();
    await db().insert(userIntakeRules).values({ userId: ids[ADMIN]!, organizationId: lakeside, intakeRuleId: rule!.id });
    await receive(DEMO.lakesideFax, { sourceType: 'Fax' });
    await runNotifications();
    expect((await mailsTo(ADMIN, 'NewMessages')).map((m) => m.subject)).toEqual(['You have 1 new message in ClinicRelay']);
    expect((await mailsTo(MULTI, 'NewMessages')).map((m) => m.subject)).toEqual(['You have 1 new message in ClinicRelay']);
    expect(await mailsTo(USER, 'NewMessages')).toHaveLength(1);
    await db().delete(intakeRules).where(eq(intakeRules.id, rule!.id));
  });

  it('sends nothing to a user who turned new-message mails off', async () => {
    const off = await t.call(USER, 'PUT', `/api/users/${ids[USER]}/preferences`, {
      emailNewMessages: false,
      emailUnprocessedMessages: false,
      emailSystemNotifications: true,
      emailUnassignedMessages: false,
      emailFailedMessagesDigest: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    await receive();
    expect(await db().select().from(newMessageNotices).where(eq(newMessageNotices.userId, ids[USER]!))).toEqual([]);

    // Turned off between the message and the mail: the notice is settled without a mail.
    await setPreferences(USER, { emailNewMessages: true });
    await receive();
    await setPreferences(USER, { emailNewMessages: false });
    await runNotifications();
    expect(await mailsTo(USER)).toEqual([]);
    expect((await db().select().from(newMessageNotices).where(eq(newMessageNotices.userId, ids[USER]!)))[0]).toMatchObject({ mailId: null });
  });

  it('never loses a notice when the worker dies before its commit, and never mails it twice when it dies after', async () => {
    await receive(DEMO.lakesideDirect, { deliveryKey: 'redelivered' });
    await receive();
    await makeDue();
    const [run] = await db().select().from(workflows).where(and(eq(workflows.type, NEW_MESSAGE_NOTICES_WORKFLOW), eq(workflows.status, 'Pending')));
    // The worker's process dies inside the transaction that would queue the mail and mark the notices.
    const dying = new Proxy(db(), {
      get: (target, key, receiver) => (key === 'transaction' ? () => Promise.reject(new Error('worker killed')) : (Reflect.get(target, key, receiver) as unknown)),
    });
    const context = (database: Database) => workflowContext({ db: database, workflow: run!, now: () => t.clock.now, signal: new AbortController().signal });
    await expect(handlers(dying).get(NEW_MESSAGE_NOTICES_WORKFLOW)!(context(dying))).rejects.toThrow('worker killed');
    expect(await mailsTo(USER)).toEqual([]);
    expect((await db().select().from(newMessageNotices).where(eq(newMessageNotices.userId, ids[USER]!))).every((n) => n.sentAt === null)).toBe(true);

    // Taken over: the mail goes out once, with both messages.
    expect(await runNotifications()).toBe(1);
    expect((await mailsTo(USER)).map((m) => m.subject)).toEqual(['You have 2 new messages in ClinicRelay']);
    // A worker that committed but died before recording the run: running it again mails nothing more.
    await handlers().get(NEW_MESSAGE_NOTICES_WORKFLOW)!(context(db()));
    expect(await mailsTo(USER)).toHaveLength(1);
    // The same message stored again (a retried delivery) is not announced again.
    await receive(DEMO.lakesideDirect, { deliveryKey: 'redelivered' });
    expect(await db().select().from(newMessageNotices).where(eq(newMessageNotices.userId, ids[USER]!))).toHaveLength(2);
    expect(await runNotifications()).toBe(0);
    expect(await mailsTo(USER)).toHaveLength(1);
  });

  it('sends the daily reminder, digest and unassigned notice at the organization’s time, once a day, skipping counts of 0', async () => {
    const put = await t.call(ADMIN, 'PUT', '/api/organizationsettings/notifications', { dailyTime: '09:30', timeZone: 'America/Chicago' });
    expect(put.json()).toEqual({ dailyTime: '09:30', timeZone: 'America/Chicago' });
    expect((await t.call(ADMIN, 'GET', '/api/organizationsettings/notifications')).json()).toEqual({ dailyTime: '09:30', timeZone: 'America/Chicago' });

    // 09:00 in Chicago (15:00 UTC in winter) on a Tuesday.
    const morning = new Date('2026-11-24T15:00:00Z');
    t.clock.now = new Date(morning.getTime() - 2 * 24 * 60 * 60_000);
    // Two days old and unprocessed: one on the Direct address (the User's), one fax (not the User's), failed.
    const direct = await receive();
    const fax = await receive(DEMO.lakesideFax, { sourceType: 'Fax' });
    await db().update(messages).set({ status: 'Failed' }).where(eq(messages.id, fax));
    t.clock.now = morning;
    await receive(); // received today: not yet a reminder
    await db().delete(newMessageNotices);
    await db().delete(workflows).where(eq(workflows.type, NEW_MESSAGE_NOTICES_WORKFLOW));
    await setPreferences(ADMIN, { emailUnprocessedMessages: true, emailFailedMessagesDigest: true, emailUnassignedMessages: true });
    await setPreferences(USER, { emailUnprocessedMessages: true, emailFailedMessagesDigest: true, emailUnassignedMessages: true });
    await setPreferences(MULTI, { emailUnprocessedMessages: false });
    const lakesideRuns = () => db().select().from(dailyNotificationRuns).where(eq(dailyNotificationRuns.organizationId, lakeside));

    // Before 09:30 in Chicago: nothing for Lakeside.
    await startDueDailyRuns(db(), morning);
    expect(await lakesideRuns()).toEqual([]);

    const due = new Date('2026-11-24T15:31:00Z');
    t.clock.now = due;
    await startDueDailyRuns(db(), due);
    expect((await lakesideRuns()).map((r) => r.day)).toEqual(['2026-11-24']);
    await runNotifications();

    const subjects = async (userName: string) => (await mailsTo(userName)).map((m) => `${m.kind}: ${m.subject}`).sort();
    // The Administrator sees everything: 2 unprocessed older than a day, 1 failed, 3 unassigned.
    expect(await subjects(ADMIN)).toEqual([
      'FailedMessagesDigest: 1 failed message needs your attention',
      'UnassignedMessages: 3 messages in your organization are unassigned',
      'UnprocessedReminder: 2 messages in your Intake are waiting to be processed',
    ]);
    // The User sees the Direct address's: 1 old unprocessed, no failure (count 0: no mail), and is no Administrator.
    expect(await subjects(USER)).toEqual(['UnprocessedReminder: 1 message in your Intake is waiting to be processed']);
    expect(await subjects(MULTI)).toEqual([]);

    // Later the same day, and after a restart: not again.
    await startDueDailyRuns(db(), new Date(due.getTime() + 3 * 60 * 60_000));
    expect(await runNotifications()).toBe(0);
    expect(await mailsTo(ADMIN)).toHaveLength(3);
    // Processed meanwhile: tomorrow's reminder counts what is left.
    await db().update(messages).set({ isProcessed: true }).where(eq(messages.id, direct));
    const tomorrow = new Date(due.getTime() + 24 * 60 * 60_000);
    t.clock.now = tomorrow;
    await startDueDailyRuns(db(), tomorrow);
    expect((await lakesideRuns()).map((r) => r.day).sort()).toEqual(['2026-11-24', '2026-11-25']);
    await runNotifications();
    expect((await mailsTo(USER)).map((m) => m.subject).sort()).toEqual([
      '1 message in your Intake is waiting to be processed',
      // today's third message is now older than a day
      '1 message in your Intake is waiting to be processed',
    ]);
  });

  it('keeps the day’s mails when the worker dies before its commit, and sends them once', async () => {
    await setPreferences(ADMIN, { emailUnassignedMessages: true });
    await receive();
    const due = new Date(Date.now() + 60_000);
    t.clock.now = due;
    await db().update(organizations).set({ settings: sql`${organizations.settings} || '{"dailyNotificationTime":"00:00","dailyNotificationTimeZone":"UTC"}'::jsonb` }).where(eq(organizations.id, lakeside));
    await startDueDailyRuns(db(), due);
    await makeDue();
    const [run] = await db().select().from(workflows).where(and(eq(workflows.type, DAILY_NOTIFICATIONS_WORKFLOW), eq(workflows.organizationId, lakeside)));
    const dying = new Proxy(db(), {
      get: (target, key, receiver) => (key === 'transaction' ? () => Promise.reject(new Error('worker killed')) : (Reflect.get(target, key, receiver) as unknown)),
    });
    const context = (database: Database) => workflowContext({ db: database, workflow: run!, now: () => t.clock.now, signal: new AbortController().signal });
    await expect(handlers(dying).get(DAILY_NOTIFICATIONS_WORKFLOW)!(context(dying))).rejects.toThrow('worker killed');
    expect(await mailsTo(ADMIN, 'UnassignedMessages')).toEqual([]);
    // A restarted process does not start the day again: the run waits for its retry.
    await startDueDailyRuns(db(), due);
    expect(await db().select().from(workflows).where(and(eq(workflows.type, DAILY_NOTIFICATIONS_WORKFLOW), eq(workflows.organizationId, lakeside)))).toHaveLength(1);
    await runNotifications();
    expect((await mailsTo(ADMIN, 'UnassignedMessages')).map((m) => m.subject)).toEqual(['1 message in your organization is unassigned']);
    await handlers().get(DAILY_NOTIFICATIONS_WORKFLOW)!(context(db()));
    expect(await mailsTo(ADMIN, 'UnassignedMessages')).toHaveLength(1);
    await db().update(organizations).set({ settings: sql`${organizations.settings} - 'dailyNotificationTime' - 'dailyNotificationTimeZone'` }).where(eq(organizations.id, lakeside));
  });

  it('puts no PHI in any mail: no subject, patient, sender or file name', async () => {
    for (const userName of [ADMIN, USER]) await setPreferences(userName, { emailUnprocessedMessages: true, emailFailedMessagesDigest: true, emailUnassignedMessages: true });
    t.clock.now = new Date(Date.now() - 2 * 24 * 60 * 60_000);
    const failed = await receive();
    await db().update(messages).set({ status: 'Failed' }).where(eq(messages.id, failed));
    t.clock.now = new Date();
    await receive();
    await db().update(organizations).set({ settings: sql`${organizations.settings} || '{"dailyNotificationTime":"00:00","dailyNotificationTimeZone":"UTC"}'::jsonb` }).where(eq(organizations.id, lakeside));
    await startDueDailyRuns(db(), t.clock.now);
    await runNotifications();
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.organizationId, lakeside));
    expect(new Set(mails.map((m) => m.kind))).toEqual(new Set(['NewMessages', 'UnprocessedReminder', 'FailedMessagesDigest', 'UnassignedMessages']));
    for (const mail of mails) {
      const everything = `${mail.subject}\n${mail.textBody}\n${mail.htmlBody}\n${JSON.stringify(mail.headers ?? {})}`.toLowerCase();
      for (const secret of [SUBJECT, 'cardiology', SENDER, 'princeton', FILE_NAME, 'echo', PATIENT.firstName, PATIENT.lastName, 'ejection']) {
        expect(everything, `${mail.kind} mail mentions "${secret}"`).not.toContain(secret.toLowerCase());
      }
    }
    await db().update(organizations).set({ settings: sql`${organizations.settings} - 'dailyNotificationTime' - 'dailyNotificationTimeZone'` }).where(eq(organizations.id, lakeside));
  });

  it('lets a user read and change their own preferences, and their Administrator too; others get 403 or 404', async () => {
    const prefs = { emailNewMessages: false, emailUnprocessedMessages: true, emailSystemNotifications: true, emailUnassignedMessages: false, emailFailedMessagesDigest: true };
    const url = `/api/users/${ids[USER]}/preferences`;
    expect((await t.call(USER, 'GET', url)).json()).toEqual({ emailNewMessages: true, emailUnprocessedMessages: false, emailSystemNotifications: true, emailUnassignedMessages: false, emailFailedMessagesDigest: false });
    expect((await t.call(USER, 'PUT', url, prefs)).json()).toEqual(prefs);
    // The same flags the session's own call and the back office read.
    expect((await t.call(USER, 'GET', '/api/users/preferences')).json()).toMatchObject(prefs);
    expect((await t.call(ADMIN, 'GET', url)).json()).toEqual(prefs);
    expect((await t.call(ADMIN, 'PUT', url, { ...prefs, emailNewMessages: true })).json()).toMatchObject({ emailNewMessages: true });

    // A User may not touch a colleague's (403); another organization's Administrator finds no such user (404).
    expect((await t.call(USER, 'GET', `/api/users/${ids[ADMIN]}/preferences`)).statusCode).toBe(403);
    expect((await t.call(USER, 'PUT', `/api/users/${ids[ADMIN]}/preferences`, prefs)).statusCode).toBe(403);
    expect((await t.call(OTHER_ADMIN, 'GET', url)).statusCode).toBe(404);
    expect((await t.call(OTHER_ADMIN, 'PUT', url, prefs)).statusCode).toBe(404);
    expect((await t.call(null, 'GET', url)).statusCode).toBe(401);
    const bad = await t.call(USER, 'PUT', url, { emailNewMessages: 'yes' });
    expect(bad.statusCode).toBe(400);

    // The daily time is the Administrators' to set.
    expect((await t.call(USER, 'GET', '/api/organizationsettings/notifications')).statusCode).toBe(403);
    expect((await t.call(USER, 'PUT', '/api/organizationsettings/notifications', { dailyTime: '07:00', timeZone: 'UTC' })).statusCode).toBe(403);
    const badTime = await t.call(ADMIN, 'PUT', '/api/organizationsettings/notifications', { dailyTime: '25:00', timeZone: 'Mars/Olympus' });
    expect(badTime.json()).toMatchObject({ modelState: { dailyTime: [notificationScheduleMessages.timeInvalid], timeZone: [notificationScheduleMessages.timeZoneInvalid] } });
    // Another organization's schedule is its own.
    expect((await t.call(OTHER_ADMIN, 'GET', '/api/organizationsettings/notifications')).json()).toEqual({ dailyTime: '08:00', timeZone: 'America/New_York' });
  });

  it('works out the organization’s local day and time', () => {
    expect(localDayAndTime(new Date('2026-11-25T03:30:00Z'), 'America/Los_Angeles')).toEqual({ day: '2026-11-24', time: '19:30' });
    expect(localDayAndTime(new Date('2026-07-01T12:05:00Z'), 'America/New_York')).toEqual({ day: '2026-07-01', time: '08:05' });
    expect(localDayAndTime(new Date('2026-11-24T23:59:00Z'), 'UTC')).toEqual({ day: '2026-11-24', time: '23:59' });
  });
});
