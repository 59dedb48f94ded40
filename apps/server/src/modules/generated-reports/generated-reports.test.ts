import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, messages } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { useTestApp } from '../../test/app.ts';
import { MONTHLY_USAGE_WORKFLOW, monthlyUsageWorkflow, previousMonth, startDueMonthlyUsage } from './monthly-usage.ts';

const quiet = { info() {}, warn() {}, error() {} };
const LIST = '/api/admin/generated_reports';

describe('generated reports (monthly usage per organization)', () => {
  const t = useTestApp();
  const runWorkers = () =>
    runOnce({
      db: t.handle.db,
      handlers: new Map([[MONTHLY_USAGE_WORKFLOW, monthlyUsageWorkflow({ blobs: createBlobStore({ db: t.handle.db, dataDir: t.config.dataDir, key: t.config.blobEncryptionKey }) })]]),
      logger: quiet,
      now: () => t.clock.now,
    });

  it('makes last month\'s usage report of every organization once, lists it and serves its file to SysAdmin', async () => {
    const [lakeside] = await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    const organizationId = lakeside!.id;
    const october = new Date('2026-10-12T09:00:00Z');
    const [sent] = await t.handle.db.insert(messages).values({ organizationId, direction: 'Outbound', isDraft: false, status: 'Sent', createdDate: october }).returning({ id: messages.id });
    await t.handle.db.insert(deliveries).values([
      { messageId: sent!.id, organizationId, recipient: 'a@peer.direct.example.org', channel: 'Direct', status: 'Delivered', createdAt: october },
      { messageId: sent!.id, organizationId, recipient: '5035550199', channel: 'Fax', status: 'Failed', createdAt: october },
    ]);
    await t.handle.db.insert(messages).values([
      { organizationId, direction: 'Inbound', isDraft: false, status: 'Received', sourceType: 'Direct', systemReceivedDate: october },
      // September: another month's report.
      { organizationId, direction: 'Inbound', isDraft: false, status: 'Received', sourceType: 'Fax', systemReceivedDate: new Date('2026-09-30T23:59:00Z') },
    ]);

    t.clock.now = new Date('2026-11-01T00:30:00Z');
    expect(previousMonth(t.clock.now)).toBe('2026-10');
    expect(await startDueMonthlyUsage(t.handle.db, t.clock.now)).toBe(true);
    // A second process, or the next tick: the month is started already.
    expect(await startDueMonthlyUsage(t.handle.db, new Date('2026-11-01T01:30:00Z'))).toBe(false);
    expect(await runWorkers()).toBe(1);

    const list = await t.call('sysadmin@example.org', 'GET', `${LIST}?pageNumber=1&pageSize=100`);
    expect(list.statusCode).toBe(200);
    const page = list.json<{ items: { id: string; name: string; fileName: string; createDate: string }[]; totalCount: number }>();
    const organizationsCount = (await t.handle.db.select({ id: organizations.id }).from(organizations)).length;
    expect(page.totalCount).toBe(organizationsCount);
    const report = page.items.find((r) => r.fileName === 'ClinicRelay_MonthlyUsage_lakeside_2026-10.csv')!;
    expect(report).toMatchObject({ name: 'Monthly usage: Lakeside Family Medicine, October 2026', createDate: '2026-11-01T00:30:00.000Z' });

    const file = await t.call('sysadmin@example.org', 'GET', `${LIST}/${report.id}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="ClinicRelay_MonthlyUsage_lakeside_2026-10.csv"');
    const rows = file.body.split('\r\n').filter(Boolean).map((l) => l.split(',').slice(3).join(','));
    expect(rows[0]).toBe('Measure,Channel,Value');
    expect(rows).toEqual(expect.arrayContaining(['Messages sent,Direct,1', 'Messages sent,Fax,1', 'Messages delivered,Direct,1', 'Messages failed,Fax,1', 'Messages received,Direct,1', 'Direct addresses,,1']));
    expect(rows.some((r) => r.startsWith('Messages received,Fax'))).toBe(false);
    expect(rows.find((r) => r.startsWith('Users,,'))).toMatch(/^Users,,[1-9]\d*$/);

    const searched = (await t.call('sysadmin@example.org', 'GET', `${LIST}?search=lakeside`)).json<{ items: { id: string }[]; totalCount: number }>();
    expect(searched).toEqual({ items: [expect.objectContaining({ id: report.id })], totalCount: 1 });

    // Run again (a retried workflow): no second report.
    await runWorkers();
    expect((await t.call('sysadmin@example.org', 'GET', LIST)).json<{ totalCount: number }>().totalCount).toBe(organizationsCount);
  });

  it('is for SysAdmin only: SysAdminReporting, a network administrator and organization users get 403; an unknown id 404', async () => {
    const [any] = (await t.call('sysadmin@example.org', 'GET', LIST)).json<{ items: { id: string }[] }>().items;
    for (const user of ['reporting@example.org', 'netadmin@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) {
      expect((await t.call(user, 'GET', LIST)).statusCode, user).toBe(403);
      expect((await t.call(user, 'GET', `${LIST}/${any!.id}`)).statusCode, user).toBe(403);
    }
    expect((await t.call(null, 'GET', LIST)).statusCode).toBe(401);
    expect((await t.call('sysadmin@example.org', 'GET', `${LIST}/00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
  });
});
