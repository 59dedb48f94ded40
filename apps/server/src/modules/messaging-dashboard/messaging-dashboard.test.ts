import { sql } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveryReasons } from '@clinicrelay/contracts/delivery.ts';
import type { ChannelFigures, MessageCounts, MessagingStats, SystemAlert, WorkerDiagnostics } from '@clinicrelay/contracts/messaging-dashboard.ts';
import { queryRows } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { workerHeartbeats, messagingRollups } from '../../db/schema/messaging-rollups.ts';
import { certificates as certificatesTable, trustAnchors, trustBundles } from '../../db/schema/certificates.ts';
import { workflows } from '../../db/schema/workflows.ts';
import { noScanner } from '../../platform/antivirus/scanner.ts';
import { workflowContext, type WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce, startWorkers } from '../../platform/workflows/runner.ts';
import { retentionRules, startRetentionSweep } from '../../platform/retention.ts';
import { receiveTally } from '../../transports/direct/inbound.ts';
import { recordRevocationList } from '../../transports/direct/revocation-lists.ts';
import { attachReadyPdf } from '../../test/attach-pdf.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { referralDraft } from '../../test/referral.ts';
import * as service from './service.ts';

const SYSADMIN = 'sysadmin@example.org';
const REPORTING = 'reporting@example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
const RIVERVIEW_FAX = '5035550202';
const OTHER_DIRECT = 'someone@other.example.com';
const EXTERNAL_FAX = '5551234567';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const ROUTES = ['/api/diagnostics/messaging/messageCounts', '/api/diagnostics/stats?hours=24', '/api/diagnostics/messaging/systemalerts', '/api/diagnostics/worker'];

async function onePagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText('Referral letter', { x: 72, y: 700, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

describe('Messaging health dashboard', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const runWorkers = () => runOnce({ db: db(), handlers: workflowHandlers({ config: t.config, db: db(), now: () => t.clock.now }), logger: quiet });
  const get = async <T>(url: string, user = SYSADMIN): Promise<T> => {
    const res = await t.call(user, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const alerts = async () => Object.fromEntries((await get<{ items: SystemAlert[] }>('/api/diagnostics/messaging/systemalerts')).items.map((a) => [a.alertType, a]));
  const figure = (list: ChannelFigures[], name: string) => list.find((c) => c.name === name)!;

  beforeAll(async () => {
    // Lakeside sends one referral to a Riverview Direct address and fax line (both hosted here), a Direct address
    // of another HISP (no certificate to be found: it fails) and an outside fax number (the sandbox delivers it).
    const releaseTypeId = (await t.call(LAKESIDE_USER, 'GET', '/api/releasetypes')).json()[0].id;
    const draft = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', referralDraft(releaseTypeId, [RIVERVIEW_DIRECT, RIVERVIEW_FAX, OTHER_DIRECT, EXTERNAL_FAX].join('; ')));
    expect(draft.statusCode, draft.body).toBe(200);
    const [lakeside] = await db().select().from(documentSources).where(sql`${documentSources.fullAddress} = 'intake@lakeside.direct.example.org'`);
    await attachReadyPdf(db(), t.config, { messageId: draft.json().id, organizationId: lakeside!.organizationId }, await onePagePdf());
    const sent = await t.call(LAKESIDE_USER, 'POST', `/api/messages/${draft.json().id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    await runWorkers();
  });

  it('shows each recipient of a send on its channel, from the rollups written with the workflow steps', async () => {
    const counts = await get<MessageCounts>('/api/diagnostics/messaging/messageCounts');
    expect(counts.outboundMessages.map((c) => c.name)).toEqual(['Direct', 'Local', 'Fax']);
    expect(figure(counts.outboundMessages, 'Local')).toEqual({ name: 'Local', state: 'OK', color: 'blue', success: 1, total: 1, failure: 0, other: 0 });
    // Every Direct message to another HISP failed: red (back-office-b §4).
    expect(figure(counts.outboundMessages, 'Direct')).toEqual({ name: 'Direct', state: 'Error', color: 'red', success: 0, total: 1, failure: 1, other: 0 });
    expect(figure(counts.outboundMessages, 'Fax')).toMatchObject({ success: 2, total: 2, failure: 0, state: 'OK' });
    // The local copy is also an inbound message of Riverview.
    expect(figure(counts.inboundMessages, 'Local')).toMatchObject({ success: 1, total: 1 });
    // So is the fax to Riverview's line, which the sandbox provider hands to Riverview's Intake.
    expect(figure(counts.inboundMessages, 'Fax')).toMatchObject({ success: 1, total: 1 });
    expect(figure(counts.inboundMessages, 'Direct')).toMatchObject({ total: 0, state: 'OK', color: 'blue' });
    expect(Date.parse(counts.to) - Date.parse(counts.from)).toBe(24 * 3600_000);

    // The rollups hold exactly what the steps say (the raw scan they replace).
    const [steps] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from workflow_steps where name = 'deliver'`);
    const rolled = await db().select().from(messagingRollups).where(sql`${messagingRollups.direction} = 'Outbound'`);
    expect(rolled.reduce((n, r) => n + r.count, 0)).toBe(steps!.n);
  });

  it('gives 24 hourly figures per channel for the charts', async () => {
    const stats = await get<MessagingStats>('/api/diagnostics/stats?hours=24');
    expect(stats.hours).toBe(24);
    const direct = stats.outboundMessages.find((s) => s.name === 'Direct')!;
    expect(direct.dailyStats).toHaveLength(24);
    expect(direct.state).toBe('Error');
    expect(direct.dailyStats.at(-1)).toMatchObject({ value: 1, failure: 1 });
    expect(direct.dailyStats.slice(0, -1).every((h) => h.value === 0)).toBe(true);
    expect(new Date(direct.dailyStats.at(-1)!.date).getUTCMinutes()).toBe(0);
    expect((await t.call(SYSADMIN, 'GET', '/api/diagnostics/stats?hours=999')).statusCode).toBe(400);
  });

  it('counts a step that fails on the workflow’s last try once, and earlier failures not at all', async () => {
    const tally = () => [{ direction: 'Outbound' as const, channel: 'Carrier pigeon', outcome: 'Failure' as const }];
    for (const attempts of [1, 5]) {
      const [workflow] = await db().insert(workflows).values({ type: 'test-tally', status: 'Running', attempts, maxAttempts: 5 }).returning();
      const ctx = workflowContext({ db: db(), workflow: workflow!, now: () => t.clock.now, signal: new AbortController().signal });
      await expect(ctx.step('deliver', 'somewhere', () => Promise.reject(new Error('lost')), tally)).rejects.toThrow('lost');
    }
    const counts = await get<MessageCounts>('/api/diagnostics/messaging/messageCounts');
    // A channel added later appears after the fixed ones.
    expect(counts.outboundMessages.map((c) => c.name)).toEqual(['Direct', 'Local', 'Fax', 'Carrier pigeon']);
    expect(figure(counts.outboundMessages, 'Carrier pigeon')).toMatchObject({ failure: 1, total: 1, state: 'Error' });
  });

  it('records a delivered step even when its tally cannot be stored: a missed count never repeats a delivery', async () => {
    const [workflow] = await db().insert(workflows).values({ type: 'test-tally', status: 'Running', attempts: 1 }).returning();
    const ctx = workflowContext({ db: db(), workflow: workflow!, now: () => t.clock.now, signal: new AbortController().signal });
    let calls = 0;
    // PostgreSQL stores no NUL character: the rollup insert fails.
    const broken = () => [{ direction: 'Outbound' as const, channel: 'Broken\u0000channel', outcome: 'Success' as const }];
    const run = () => ctx.step('deliver', 'once', async () => ({ calls: ++calls }), broken);
    expect(await run()).toEqual({ calls: 1 });
    expect(await run()).toEqual({ calls: 1 });
    expect(calls).toBe(1);
  });

  it('counts a Direct message received as inbound Direct, never a delivery notification', () => {
    expect(receiveTally({ result: { inboundId: 'x', from: 'a@b.example' } })).toEqual([{ direction: 'Inbound', channel: 'Direct', outcome: 'Success' }]);
    expect(receiveTally({ result: { refused: 'Untrusted', code: '5.7.1' } })).toEqual([{ direction: 'Inbound', channel: 'Direct', outcome: 'Failure' }]);
    expect(receiveTally({ result: { notification: 'processed', matched: true } })).toEqual([]);
    expect(receiveTally({ error: new Error('lost') })).toEqual([{ direction: 'Inbound', channel: 'Direct', outcome: 'Failure' }]);
  });

  it('has each process running workflow workers write its heartbeat, and remove it when it stops', async () => {
    const workers = await startWorkers({ db: db(), handlers: new Map([['test-idle', async () => undefined]]), logger: quiet, workerId: 'test-host:99', pollIntervalMs: 50 });
    const [beat] = await db().select().from(workerHeartbeats).where(sql`${workerHeartbeats.workerId} = 'test-host:99'`);
    expect(beat).toMatchObject({ pid: process.pid, lanes: [{ name: 'all', concurrency: 2 }] });
    await workers.stop();
    expect(await db().select().from(workerHeartbeats).where(sql`${workerHeartbeats.workerId} = 'test-host:99'`)).toEqual([]);
  });

  it('raises each system alert from the real condition, with since when and a link', async () => {
    let a = await alerts();
    expect(Object.keys(a)).toEqual(['FailedWorkflows', 'WaitingWork', 'MissingMdn', 'ExpiringCertificates', 'ExpiringTrustAnchors', 'TrustBundleRefresh', 'RevocationLists', 'MailOutbox', 'Antivirus', 'Workers', 'DiskSpace']);
    // The send of beforeAll failed for the other HISP's Direct address, so its workflow ended Failed; the failed test
    // steps above left theirs Running (not their last try).
    expect(a.FailedWorkflows).toMatchObject({ status: 'Triggered', detail: '1 workflow failed in the last hour.', link: '/admin/dashboard/messaging/workflows?status=Failed' });
    expect(a.WaitingWork!.status).toBe('OK');
    expect(a.MissingMdn!.status).toBe('OK');
    expect(a.RevocationLists).toMatchObject({ status: 'OK', detail: 'Every revocation list fetched could be used.' });
    // No CLAMD_URL in tests: a standing warning. No worker runs in this test app.
    expect(a.Antivirus).toMatchObject({ status: 'Warn', detail: expect.stringContaining('not scanned') });
    expect(a.Workers).toMatchObject({ status: 'Triggered', detail: expect.stringContaining('No worker process') });

    const failedAt = new Date(Date.now() - 10 * 60_000);
    await db().insert(workflows).values({ type: 'send-message', status: 'Failed', updatedAt: failedAt, lastError: 'boom' });
    await db().insert(workflows).values({ type: 'send-message', status: 'Pending', runAfter: new Date(Date.now() - 20 * 60_000) });
    await db().insert(trustBundles).values({ name: 'Broken bundle', url: 'https://bundles.example.com/x.p7b', lastError: 'HTTP 404' });
    // A Direct recipient whose MDN did not come: the sweep marked it failed.
    await db().execute(sql`update deliveries set status = 'Failed', reason = ${deliveryReasons.noNotification} where recipient = ${RIVERVIEW_DIRECT}`);
    await db().insert(workerHeartbeats).values({ workerId: 'host:1/a', host: 'host', pid: 1 });
    // Another HISP's CRL could not be fetched (what the Direct engine's revocation checker reports), another fetched.
    await recordRevocationList(db(), 'http://crl.other.example/ca.crl', 'The revocation list at http://crl.other.example/ca.crl could not be reached.');
    await recordRevocationList(db(), 'http://crl.fine.example/ca.crl', null);
    a = await alerts();
    expect(a.RevocationLists).toMatchObject({ status: 'Warn', detail: '1 revocation list could not be used in the last 24 hours: The revocation list at http://crl.other.example/ca.crl could not be reached.' });
    // Fetched again: the alert clears.
    await recordRevocationList(db(), 'http://crl.other.example/ca.crl', null);
    expect((await alerts()).RevocationLists!.status).toBe('OK');
    expect(a.FailedWorkflows).toMatchObject({ status: 'Triggered', detail: '2 workflows failed in the last hour.' });
    // Since the earliest of them.
    expect(Math.abs(Date.parse(a.FailedWorkflows!.createdAt!) - failedAt.getTime())).toBeLessThan(1000);
    expect(a.WaitingWork).toMatchObject({ status: 'Triggered', link: '/admin/dashboard/messaging/workflows?status=Pending' });
    expect(a.TrustBundleRefresh).toMatchObject({ status: 'Triggered', link: '/admin/trust-anchors' });
    expect(a.MissingMdn).toMatchObject({ status: 'Triggered', link: '/admin/dashboard/messaging/workflows?type=release&channel=Direct' });
    expect(a.Workers).toMatchObject({ status: 'OK', detail: expect.stringContaining('1 worker process heartbeating') });

    await db().update(workerHeartbeats).set({ lastSeenAt: new Date(Date.now() - 5 * 60_000) });
    expect((await alerts()).Workers).toMatchObject({ status: 'Triggered', detail: expect.stringContaining('1 silent') });
  });

  it('warns about certificates and trust anchors expiring within 30 days, and triggers once expired', async () => {
    const before = await alerts();
    expect(before.ExpiringTrustAnchors!.status).toBe('OK');
    const anchor = { subject: 'CN=Expiring CA', thumbprintSha256: 'ab'.repeat(32), certificateDer: new Uint8Array([48, 0]) };
    await db().insert(trustAnchors).values({ ...anchor, name: 'Expiring CA', notAfter: new Date(Date.now() + 10 * 86_400_000) });
    expect((await alerts()).ExpiringTrustAnchors).toMatchObject({ status: 'Warn', detail: '0 trust anchors have expired; 1 trust anchor expires within 30 days.', link: '/admin/trust-anchors' });
    await db().insert(trustAnchors).values({ ...anchor, name: 'Expired CA', notAfter: new Date(Date.now() - 86_400_000) });
    expect((await alerts()).ExpiringTrustAnchors!.status).toBe('Triggered');
    // Certificates are read the same way (enabled ones only).
    const certificates = (await db().select({ notAfter: certificatesTable.notAfter, enabled: certificatesTable.enabled }).from(certificatesTable)).filter((c) => c.enabled);
    const expiringCertificates = certificates.filter((c) => c.notAfter.getTime() < Date.now() + 30 * 86_400_000);
    expect((await alerts()).ExpiringCertificates!.status).toBe(expiringCertificates.length > 0 ? expect.stringMatching(/Warn|Triggered/) : 'OK');
  });

  it('reads the data folder’s disk: warning from 85 %, triggered from 95 %', async () => {
    const deps = { db: db(), scanner: noScanner, dataDir: t.config.dataDir };
    const disk = async (use: number) => (await service.systemAlerts({ ...deps, diskUse: async () => use })).items.find((a) => a.alertType === 'DiskSpace')!;
    expect(await disk(0.5)).toMatchObject({ status: 'OK', createdAt: null, detail: '50 % of the data folder’s disk is used.' });
    // Since when: the first look that saw the status, kept while it lasts.
    const warned = await disk(0.9);
    expect(warned.status).toBe('Warn');
    expect(Math.abs(Date.parse(warned.createdAt!) - Date.now())).toBeLessThan(5000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await disk(0.88)).createdAt).toBe(warned.createdAt);
    const triggered = await disk(0.97);
    expect(triggered.status).toBe('Triggered');
    expect(Date.parse(triggered.createdAt!)).toBeGreaterThan(Date.parse(warned.createdAt!));
    // The real disk of the test's data folder is read without error.
    expect((await service.systemAlerts(deps)).items.find((a) => a.alertType === 'DiskSpace')!.detail).toMatch(/% of the data folder’s disk is used/);
  });

  it('lists worker processes with their heartbeat and the work waiting per type', async () => {
    await db().insert(workerHeartbeats).values({ workerId: 'host:2/b', host: 'host', pid: 2, lanes: [{ name: 'delivery', concurrency: 2 }] });
    const workers = await get<WorkerDiagnostics>('/api/diagnostics/worker', REPORTING);
    expect(workers.workers.find((w) => w.workerId === 'host:2/b')).toMatchObject({ heartbeating: true, lanes: [{ name: 'delivery', concurrency: 2 }] });
    expect(workers.queues.find((q) => q.type === 'send-message')).toMatchObject({ pending: 1, oldestDueAt: expect.any(String) });
  });

  it('sweeps rollup minutes older than MESSAGING_ROLLUP_RETENTION_DAYS (31 by default), never the last week', async () => {
    const rule = retentionRules(t.config).find((r) => r.what === 'messaging rollups')!;
    expect(rule.days).toBe(31);
    const day = 86_400_000;
    const old = new Date(Date.now() - 32 * day);
    const kept = new Date(Date.now() - 30 * day);
    for (const minute of [old, kept]) await db().insert(messagingRollups).values({ minute, direction: 'Outbound', channel: 'Retention test', outcome: 'Success', count: 1 });
    const sweep = startRetentionSweep({ db: db(), rules: [rule], logger: quiet });
    sweep.stop();
    await expect.poll(async () => (await db().select().from(messagingRollups).where(sql`${messagingRollups.channel} = 'Retention test'`)).map((r) => r.minute.getTime())).toEqual([kept.getTime()]);
    expect(() => testConfig({ MESSAGING_ROLLUP_RETENTION_DAYS: '6' })).toThrow(/MESSAGING_ROLLUP_RETENTION_DAYS/);
  });

  it('answers SysAdmin and SysAdminReporting only: a network administrator and organization users get 403', async () => {
    for (const url of ROUTES) {
      expect((await t.call(SYSADMIN, 'GET', url)).statusCode, url).toBe(200);
      expect((await t.call(REPORTING, 'GET', url)).statusCode, url).toBe(200);
      for (const user of ['netadmin@example.org', 'admin@lakeside.example.org', LAKESIDE_USER]) {
        const res = await t.call(user, 'GET', url);
        expect(res.statusCode, `${user} ${url}`).toBe(403);
      }
      expect((await t.call(null, 'GET', url)).statusCode).toBe(401);
    }
  });
});
