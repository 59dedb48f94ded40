import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { workflowMessages } from '@clinicrelay/contracts/workflows.ts';
import { deliveries, deliveryEvents, messages } from '../../db/schema/messages.ts';
import { workflows } from '../../db/schema/workflows.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, useTestApp } from '../../test/app.ts';
import { referralDraft } from '../../test/referral.ts';
import { encodeObjectId } from '../../platform/object-id.ts';

const SYSADMIN = 'sysadmin@example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
// No certificate can be discovered for it (DNS answers nowhere in tests): refused for good at sealing.
const OUTSIDE_DIRECT = 'someone@other.example.com';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('workflows grid and retry (back-office-b §2, back-office-a §2)', () => {
  const t = useTestApp();
  const config = testConfig();
  const db = () => t.handle.db;
  const runWorkers = (workerId?: string) =>
    runOnce({ db: db(), handlers: workflowHandlers({ config, db: db(), now: () => t.clock.now }), logger: quiet, ...(workerId ? { workerId } : {}) });
  let messageId: string;
  let workflowId: string;

  beforeAll(async () => {
    const releaseTypeId = (await t.call(LAKESIDE_USER, 'GET', '/api/releasetypes')).json()[0].id;
    const saved = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', referralDraft(releaseTypeId, `${RIVERVIEW_DIRECT}; ${OUTSIDE_DIRECT}`));
    expect(saved.statusCode, saved.body).toBe(200);
    messageId = saved.json().id;
    const sent = await t.call(LAKESIDE_USER, 'POST', `/api/messages/${messageId}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    await runWorkers();
    workflowId = (await db().select().from(workflows).where(eq(workflows.correlationId, messageId)))[0]!.id;
  });

  const grid = (query: string) => t.call(SYSADMIN, 'GET', `/api/diagnostics/messaging/workflows?${query}`);

  it('shows the failed Direct send under the dashboard’s link, with its steps, timings and why, and no patient data', async () => {
    const res = await grid('status=Failed&type=release&channel=Direct');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    const row = page.items.find((w: { id: string }) => w.id === workflowId);
    expect(row).toMatchObject({
      type: 'send-message',
      kind: 'send',
      status: 'Failed',
      objectId: encodeObjectId('workflow', workflowId),
      command: { name: 'send-message', messageId },
      mailMessage: { mailMessageId: messageId, objectId: encodeObjectId('message', messageId), sender: 'intake@lakeside.direct.example.org', status: 'Failed' },
      lastError: expect.stringContaining('No certificate found'),
    });
    expect(row.channel.sort()).toEqual(['Direct', 'Local']);
    expect(row.duration).toBeGreaterThanOrEqual(0);
    const steps = Object.fromEntries(row.steps.map((s: { stepName: string; key: string }) => [`${s.stepName} ${s.key}`, s]));
    expect(steps[`deliver ${RIVERVIEW_DIRECT}`]).toMatchObject({ status: 'Completed', attempts: 1, lastError: null });
    expect(steps[`deliver ${OUTSIDE_DIRECT}`]).toMatchObject({ status: 'Failed', attempts: 1, lastError: expect.any(String) });
    expect(steps[`direct-seal ${OUTSIDE_DIRECT}`]).toMatchObject({ status: 'Failed', startTime: expect.any(String), endTime: expect.any(String), elapsed: expect.any(Number) });
    // PHI-free: the patient and the message's text are nowhere in the grid.
    for (const phi of ['Maria', 'Alvarez', '1958', 'Referral: cardiology', 'Please see this patient']) expect(res.body).not.toContain(phi);

    // Filters: another channel, status or type leaves it out; the tab of attachment work does not list it.
    for (const other of ['status=Completed', 'type=intake', 'channel=Fax', 'category=attachments']) {
      expect((await grid(other)).json().items.map((w: { id: string }) => w.id)).not.toContain(workflowId);
    }
    for (const named of ['Direct%20over%20SMTP', 'direct', 'Local%20delivery']) {
      expect((await grid(`status=Failed&type=release&channel=${named}`)).json().items.map((w: { id: string }) => w.id)).toContain(workflowId);
    }
    // Found by its id, its message's id or object id.
    for (const search of [workflowId, messageId, encodeObjectId('message', messageId)]) {
      expect((await grid(`search=${encodeURIComponent(search)}`)).json().items.map((w: { id: string }) => w.id)).toEqual([workflowId]);
    }
    // The Events tab lists the other work, whose correlation ids are not message ids.
    const [daily] = await db().insert(workflows).values({ type: 'daily-notifications', correlationId: 'lakeside:2026-11-28', payload: { day: '2026-11-28' }, status: 'Completed' }).returning();
    const events = await grid('category=events&channel=Direct');
    expect(events.statusCode, events.body).toBe(200);
    expect((await grid('category=events')).json().items.find((w: { id: string }) => w.id === daily!.id)).toMatchObject({ type: 'daily-notifications', kind: null, channel: [], mailMessage: null, command: { name: 'daily-notifications', day: '2026-11-28' } });
    const searched = await t.call(SYSADMIN, 'POST', '/api/diagnostics/messaging/workflows/_search', { status: 'Failed', type: 'send', pageSize: 5 });
    expect(searched.json().items.map((w: { id: string }) => w.id)).toContain(workflowId);
    expect((await grid('pageSize=1')).json().items).toHaveLength(1);

    const one = await t.call(SYSADMIN, 'GET', `/api/workflows/${workflowId}?type=send`);
    expect(one.json()).toMatchObject({ id: workflowId, status: 'Failed' });
    expect((await t.call(SYSADMIN, 'GET', `/api/workflows/${workflowId}?type=receive`)).statusCode).toBe(404);
  });

  it('retries the failed recipient exactly once when two operators press Retry together; the delivered one is not sent again', async () => {
    const body = { type: 'send', retryStep: 'direct-seal', id: workflowId, key: OUTSIDE_DIRECT };
    const [a, b] = await Promise.all([t.call(SYSADMIN, 'PUT', `/api/workflows/${workflowId}`, body), t.call(SYSADMIN, 'PUT', `/api/workflows/${workflowId}`, body)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([a.json().result, b.json().result].sort()).toEqual(['AlreadyRetrying', 'Retried']);
    const marked = a.json().workflow;
    expect(marked.status).toBe('Pending');
    const statusOf = (w: { steps: { stepName: string; key: string; status: string }[] }, name: string, key: string) => w.steps.find((s) => s.stepName === name && s.key === key)?.status;
    expect(statusOf(marked, 'direct-seal', OUTSIDE_DIRECT)).toBe('Retry');
    expect(statusOf(marked, 'deliver', OUTSIDE_DIRECT)).toBe('Retry');
    expect(statusOf(marked, 'deliver', RIVERVIEW_DIRECT)).toBe('Completed');

    const ran = await Promise.all([runWorkers('worker-a'), runWorkers('worker-b')]);
    expect(ran[0] + ran[1]).toBe(1);
    const after = (await t.call(SYSADMIN, 'GET', `/api/workflows/${workflowId}`)).json();
    // Still no certificate: failed again, after exactly one more try.
    expect(after.status).toBe('Failed');
    expect(after.steps.find((s: { stepName: string; key: string }) => s.stepName === 'direct-seal' && s.key === OUTSIDE_DIRECT)).toMatchObject({ status: 'Failed', attempts: 2 });
    expect(after.steps.find((s: { stepName: string; key: string }) => s.stepName === 'deliver' && s.key === RIVERVIEW_DIRECT)).toMatchObject({ status: 'Completed', attempts: 1 });
    expect(await db().select().from(messages).where(and(eq(messages.originalObjectId, messageId), eq(messages.direction, 'Inbound')))).toHaveLength(1);
    const [outside] = await db().select().from(deliveries).where(and(eq(deliveries.messageId, messageId), eq(deliveries.recipient, OUTSIDE_DIRECT)));
    expect(outside).toMatchObject({ status: 'Failed' });
    expect(await db().select().from(deliveryEvents).where(eq(deliveryEvents.deliveryId, outside!.id))).toHaveLength(1);

    // A completed step cannot be retried; an unknown workflow is 404; a mismatched body id is refused.
    const completed = await t.call(SYSADMIN, 'PUT', `/api/workflows/${workflowId}`, { type: 'send', retryStep: 'deliver', key: RIVERVIEW_DIRECT });
    expect(completed.statusCode).toBe(400);
    expect(completed.json().message).toBe(workflowMessages.nothingToRetry);
    expect((await t.call(SYSADMIN, 'PUT', `/api/workflows/00000000-0000-4000-8000-000000000000`, { type: 'send', retryStep: 'deliver' })).statusCode).toBe(404);
    expect((await t.call(SYSADMIN, 'PUT', `/api/workflows/${workflowId}`, { type: 'send', retryStep: 'deliver', id: messageId })).statusCode).toBe(400);
    expect((await t.call(SYSADMIN, 'PUT', `/api/workflows/${workflowId}`, { type: 'send' })).json()).toMatchObject({ modelState: { retryStep: [workflowMessages.stepMissing] } });
  });

  it('bulk retry reports what happened to each id', async () => {
    const res = await t.call(SYSADMIN, 'POST', '/api/workflows/retry', {
      type: 'send',
      retryStep: 'deliver',
      workflowIds: `${workflowId}, not-an-id,\n00000000-0000-4000-8000-000000000000`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toEqual([
      { workflowId, result: 'Retried', message: workflowMessages.retried },
      { workflowId: 'not-an-id', result: 'NotFound', message: workflowMessages.notFound },
      { workflowId: '00000000-0000-4000-8000-000000000000', result: 'NotFound', message: workflowMessages.notFound },
    ]);
    const again = await t.call(SYSADMIN, 'POST', '/api/workflows/retry', { type: 'send', retryStep: 'deliver', workflowIds: [encodeObjectId('workflow', workflowId)] });
    expect(again.json().results).toEqual([{ workflowId: encodeObjectId('workflow', workflowId), result: 'AlreadyRetrying', message: workflowMessages.alreadyRetrying }]);
    // The receive workflow type does not name a send workflow.
    const wrongType = await t.call(SYSADMIN, 'POST', '/api/workflows/retry', { type: 'receive', retryStep: 'deliver', workflowIds: [workflowId] });
    expect(wrongType.json().results[0].result).toBe('NotFound');
    await runWorkers();

    const missing = await t.call(SYSADMIN, 'POST', '/api/workflows/retry', { workflowIds: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().modelState).toMatchObject({
      type: [workflowMessages.typeMissing],
      retryStep: [workflowMessages.stepMissing],
      workflowIds: [workflowMessages.idsMissing],
    });
  });

  it('is for system administrators only: SysAdminReporting, a network administrator and an organization Administrator are refused', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/diagnostics/messaging/workflows'],
      ['POST', '/api/diagnostics/messaging/workflows/_search', {}],
      ['GET', `/api/workflows/${workflowId}`],
      ['PUT', `/api/workflows/${workflowId}`, { type: 'send', retryStep: 'deliver' }],
      ['POST', '/api/workflows/retry', { type: 'send', retryStep: 'deliver', workflowIds: [workflowId] }],
    ];
    for (const user of ['reporting@example.org', 'netadmin@example.org', 'admin@lakeside.example.org']) {
      for (const [method, url, body] of calls) expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
    }
    for (const [method, url, body] of calls) expect((await t.call(null, method, url, body)).statusCode).toBe(401);
    expect((await t.call(SYSADMIN, 'GET', '/api/diagnostics/messaging/workflows')).statusCode).toBe(200);
  });
});
