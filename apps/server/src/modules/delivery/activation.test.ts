import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activationMessages } from '@clinicrelay/contracts/delivery.ts';
import { deliveries, messages } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { useTestApp } from '../../test/app.ts';
import { localFaxLine } from '../../transports/local.ts';

// Issue 26: organization activation was enforced only by the web's /release/new guard. The send API refuses an
// organization that is not activated, and what is sent to one (or to a canceled one) here fails with the reason.

const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
const RIVERVIEW_FAX = '5035550202';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const patient = { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' };

describe('organization activation on the send and receive paths', () => {
  const t = useTestApp();
  let releaseTypeId: string;
  const db = () => t.handle.db;
  const setOrg = (subdomain: string, values: Partial<typeof organizations.$inferInsert>) => db().update(organizations).set(values).where(eq(organizations.subdomain, subdomain));
  const runWorkers = () => runOnce({ db: db(), handlers: workflowHandlers({ config: t.config, db: db(), now: () => t.clock.now }), logger: quiet });

  beforeAll(async () => {
    releaseTypeId = (await t.call(LAKESIDE_USER, 'GET', '/api/releasetypes')).json()[0].id;
  });

  const draft = async (subject: string) => {
    const res = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', { subject, fromAddress: 'intake@lakeside.direct.example.org', toAddress: RIVERVIEW_DIRECT, body: 'Please see this patient.', releaseTypeId, patient });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };

  it('refuses a send from an organization that is not activated, with the Release page’s words, and sends once it is', async () => {
    const id = await draft('Before activation');
    await setOrg('lakeside', { isActivated: false });
    try {
      const refused = await t.call(LAKESIDE_USER, 'POST', `/api/messages/${id}/send`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ message: activationMessages.sendNotActivated });
      expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json()).toMatchObject({ isDraft: true });
    } finally {
      await setOrg('lakeside', { isActivated: true });
    }
    expect((await t.call(LAKESIDE_USER, 'POST', `/api/messages/${id}/send`)).statusCode).toBe(200);
  });

  it.each([
    ['not activated', { isActivated: false }, activationMessages.receiveNotActivated],
    ['canceled', { cancelledAt: new Date(Date.now() - 86_400_000) }, activationMessages.receiveCancelled],
  ] as const)('fails a Direct delivery to an organization here that is %s, with the reason, and stores nothing', async (label, values, reason) => {
    const id = await draft(`To a recipient ${label}`);
    expect((await t.call(LAKESIDE_USER, 'POST', `/api/messages/${id}/send`)).statusCode).toBe(200);
    await setOrg('riverview', values);
    try {
      await runWorkers();
    } finally {
      await setOrg('riverview', { isActivated: true, cancelledAt: null });
    }
    expect(await db().select().from(deliveries).where(eq(deliveries.messageId, id))).toEqual([expect.objectContaining({ status: 'Failed', reason })]);
    expect(await db().select().from(messages).where(and(eq(messages.originalObjectId, id), eq(messages.direction, 'Inbound')))).toHaveLength(0);
  });

  it('refuses a fax to a number of an organization that is not activated', async () => {
    const line = localFaxLine({ db: db(), blobs: createBlobStore({ db: db(), dataDir: t.config.dataDir, key: t.config.blobEncryptionKey }), now: () => t.clock.now });
    await setOrg('riverview', { isActivated: false });
    try {
      const result = await line({ to: RIVERVIEW_FAX, from: '5035550101', pages: new Uint8Array([37, 80, 68, 70]), pageCount: 1, sentMessageId: '00000000-0000-4000-8000-000000000009' });
      expect(result).toEqual({ refused: activationMessages.receiveNotActivated });
    } finally {
      await setOrg('riverview', { isActivated: true });
    }
  });
});
