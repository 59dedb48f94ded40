import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../db/schema/messages.ts';
import { workflows } from '../../db/schema/workflows.ts';
import { decodeObjectId, encodeObjectId } from '../../platform/object-id.ts';
import { useTestApp } from '../../test/app.ts';
import { referralDraft } from '../../test/referral.ts';

const SYSADMIN = 'sysadmin@example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';

describe('object ids', () => {
  it('encode a row’s kind and uuid as 23 URL-safe characters and decode back; anything else does not decode', () => {
    const uuid = '0f8e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
    const objectId = encodeObjectId('message', uuid);
    expect(objectId).toMatch(/^[A-Za-z0-9_-]{23}$/);
    expect(decodeObjectId(objectId)).toEqual({ kind: 'message', uuid });
    expect(decodeObjectId(encodeObjectId('workflow', uuid))).toEqual({ kind: 'workflow', uuid });
    for (const bad of ['', uuid, 'not an object id', `${objectId}x`, `_${objectId.slice(1)}`]) expect(decodeObjectId(bad)).toBeUndefined();
  });
});

describe('message utilities (back-office-a §2, §7)', () => {
  const t = useTestApp();
  let messageId: string;
  let workflowId: string;

  beforeAll(async () => {
    const releaseTypeId = (await t.call(LAKESIDE_USER, 'GET', '/api/releasetypes')).json()[0].id;
    messageId = (await t.call(LAKESIDE_USER, 'PUT', '/api/messages', referralDraft(releaseTypeId, 'referrals@riverview.direct.example.org'))).json().id;
    expect((await t.call(LAKESIDE_USER, 'POST', `/api/messages/${messageId}/send`)).statusCode).toBe(200);
    workflowId = (await t.handle.db.select().from(workflows).where(eq(workflows.correlationId, messageId)))[0]!.id;
  });

  it('looks a message up by its id, its object id or its workflow’s id, with the ids to copy', async () => {
    const expected = {
      messageId,
      workflowId,
      objectId: encodeObjectId('message', messageId),
      dbEntityId: messageId,
      uuid: messageId,
      workflowType: 'send-message',
      workflowStatus: 'Pending',
    };
    for (const id of [messageId, encodeObjectId('message', messageId), workflowId, encodeObjectId('workflow', workflowId)]) {
      const res = await t.call(SYSADMIN, 'GET', `/api/utilities?id=${encodeURIComponent(id)}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json(), id).toEqual([expected]);
    }
    expect((await t.call(SYSADMIN, 'GET', '/api/utilities?id=00000000-0000-4000-8000-000000000000')).json()).toEqual([]);
    expect((await t.call(SYSADMIN, 'GET', '/api/utilities?id=')).statusCode).toBe(400);
  });

  it('decodes comma-separated object ids into message and workflow ids, and into database id and uuid', async () => {
    const objectId = encodeObjectId('message', messageId);
    const unknown = encodeObjectId('message', '00000000-0000-4000-8000-000000000000');
    const mail = await t.call(SYSADMIN, 'POST', '/api/utilities/mailmessages/objectids', { objectIds: `${objectId},\n${unknown}, garbage` });
    expect(mail.statusCode, mail.body).toBe(200);
    expect(mail.json()).toEqual([
      { objectId, mailMessageId: messageId, workflowId },
      { objectId: unknown, mailMessageId: null, workflowId: null },
      { objectId: 'garbage', mailMessageId: null, workflowId: null },
    ]);
    const plain = await t.call(SYSADMIN, 'POST', '/api/utilities/objectids', [objectId, 'garbage']);
    expect(plain.json()).toEqual([
      { objectId, dbEntityId: messageId, uuid: messageId, kind: 'message' },
      { objectId: 'garbage', dbEntityId: null, uuid: null, kind: null },
    ]);
    // The message row is what the id names.
    expect(await t.handle.db.select({ id: messages.id }).from(messages).where(eq(messages.id, plain.json()[0].uuid))).toHaveLength(1);
  });

  it('is for system administrators only', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/utilities?id=${messageId}`],
      ['POST', '/api/utilities/mailmessages/objectids', { objectIds: [] }],
      ['POST', '/api/utilities/objectids', []],
    ];
    for (const user of ['reporting@example.org', 'netadmin@example.org', 'admin@lakeside.example.org', LAKESIDE_USER]) {
      for (const [method, url, body] of calls) expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
    }
    for (const [method, url, body] of calls) expect((await t.call(null, method, url, body)).statusCode).toBe(401);
  });
});
