import { describe, expect, it } from 'vitest';
import { messages } from '../../db/schema/messages.ts';
import { useTestApp } from '../../test/app.ts';
import { DEMO, insertInbound, sourceIdOf, userIdOf } from './test-inbound.ts';

// The calls behind the Administrator's dashboard (issue 13 §1): statistics' sent and unassigned, and the failed
// messages still to acknowledge.
describe('What the dashboard reads: sent and unassigned messages, failures to acknowledge', () => {
  const t = useTestApp();
  const db = () => t.handle.db;

  it('counts the messages sent and received nobody is assigned to, per day for sent ones', async () => {
    const before = (await t.call(DEMO.lakesideAdmin, 'GET', '/api/messages/statistics')).json();
    const leo = await userIdOf(db(), DEMO.lakesideUser);
    await insertInbound(db(), { subject: 'dashboard unassigned', to: DEMO.lakesideDirect });
    await insertInbound(db(), { subject: 'dashboard assigned', to: DEMO.lakesideDirect, assignedUserId: leo });
    const { organizationId } = await sourceIdOf(db(), DEMO.lakesideDirect);
    const now = t.clock.now;
    await db().insert(messages).values([
      { organizationId, direction: 'Outbound', subject: 'dashboard sent', toAddress: DEMO.riverviewDirect, isDraft: false, status: 'Sent', messageDate: now },
      { organizationId, direction: 'Outbound', subject: 'dashboard draft', toAddress: DEMO.riverviewDirect, isDraft: true, status: 'Draft' },
    ]);

    const stats = (await t.call(DEMO.lakesideAdmin, 'GET', '/api/messages/statistics')).json();
    expect(stats.received - before.received).toBe(2);
    expect(stats.unassigned - before.unassigned).toBe(1);
    expect(stats.sent - before.sent).toBe(1);
    expect(stats.perDay.at(-1).sent - before.perDay.at(-1).sent).toBe(1);
    expect(stats.perDay.reduce((sum: number, d: { sent: number }) => sum + d.sent, 0)).toBe(stats.sent);

    // Riverview's figures do not move with Lakeside's.
    const riverview = (await t.call(DEMO.riverviewAdmin, 'GET', '/api/messages/statistics')).json();
    expect(riverview.perDay.at(-1).sent).toBe(0);
  });

  it('lists the failures nobody acknowledged, each gone once acknowledged, and only to who may see them', async () => {
    const failed = await insertInbound(db(), { subject: 'dashboard failure', to: DEMO.lakesideDirect, status: 'Failed' });
    const other = await insertInbound(db(), { subject: 'riverview failure', to: DEMO.riverviewDirect, status: 'Failed' });

    const res = await t.call(DEMO.lakesideAdmin, 'GET', '/api/failedmessages');
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json();
    expect(list.items.map((m: { id: string }) => m.id)).toContain(failed.id);
    expect(list.items.map((m: { id: string }) => m.id)).not.toContain(other.id);
    expect(list.items.find((m: { id: string }) => m.id === failed.id)).toMatchObject({ subject: 'dashboard failure', toAddress: DEMO.lakesideDirect });
    expect(list.totalCount).toBe(list.items.length);

    // Leo receives Lakeside's Direct address, so he sees it too; Riverview's admin never does.
    expect((await t.call(DEMO.lakesideUser, 'GET', '/api/failedmessages')).json().items.map((m: { id: string }) => m.id)).toContain(failed.id);
    expect((await t.call(DEMO.riverviewAdmin, 'GET', '/api/failedmessages')).json().items.map((m: { id: string }) => m.id)).not.toContain(failed.id);

    expect((await t.call(DEMO.lakesideAdmin, 'PUT', `/api/failedmessages/${failed.id}/acknowledge`)).json()).toEqual({ acknowledged: 1 });
    const after = (await t.call(DEMO.lakesideAdmin, 'GET', '/api/failedmessages')).json();
    expect(after.items.map((m: { id: string }) => m.id)).not.toContain(failed.id);
    expect(after.totalCount).toBe(list.totalCount - 1);

    expect((await t.call(null, 'GET', '/api/failedmessages')).statusCode).toBe(401);
  });
});
