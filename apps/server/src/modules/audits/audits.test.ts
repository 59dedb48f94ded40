import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { writeAudit } from '../../platform/audit.ts';
import { verifyAuditChain } from '../../platform/audit-chain.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { useTestApp } from '../../test/app.ts';
import { exportCsv } from './service.ts';

const SYSADMIN = 'sysadmin@example.org';
const REPORTING = 'reporting@example.org';
const NETWORK_ADMIN = 'netadmin@example.org';
const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_ADMIN = 'admin@riverview.example.org';

describe('Audits (back-office-b) and the end-user audit calls', () => {
  const t = useTestApp();
  let lakeside: string;
  let riverview: string;
  let lakesideUserId: string;

  beforeAll(async () => {
    const orgs = await queryRows<{ id: string; subdomain: string }>(t.handle.db, sql`select id, subdomain from organizations`);
    lakeside = orgs.find((o) => o.subdomain === 'lakeside')!.id;
    riverview = orgs.find((o) => o.subdomain === 'riverview')!.id;
    lakesideUserId = (await queryRows<{ id: string }>(t.handle.db, sql`select id from users where user_name = ${LAKESIDE_USER}`))[0]!.id;
    // A March of events: Leo views a message on the 1st and the 2nd, an admin of Riverview reads one on the 3rd.
    const audit = (eventType: string, at: string, extra: object) => writeAudit(t.handle.db, { eventType, ...extra }, new Date(at));
    await audit('MessageViewed', '2026-03-01T10:00:00Z', { userId: lakesideUserId, userName: LAKESIDE_USER, organizationId: lakeside, correlationId: 'msg-1', details: { list: 'Intake' } });
    await audit('AttachmentViewed', '2026-03-02T23:59:00Z', { userId: lakesideUserId, userName: LAKESIDE_USER, organizationId: lakeside, correlationId: 'msg-1' });
    await audit('MessageRead', '2026-03-03T08:00:00Z', { userName: RIVERVIEW_ADMIN, organizationId: riverview, correlationId: 'msg-9' });
    for (let i = 0; i < 30; i++) await audit('Login', `2026-02-10T00:00:${String(i).padStart(2, '0')}Z`, { userName: `bulk${i}@example.org`, organizationId: riverview });
  });

  const search = (user: string, body: object) => t.call(user, 'POST', '/api/admin/audits', body);

  it('finds every organization’s entries by date range and user name, newest first, 25 a page', async () => {
    const march = await search(SYSADMIN, { startDate: '2026-03-01', endDate: '2026-03-02', username: 'USER@lakeside' });
    expect(march.statusCode, march.body).toBe(200);
    expect(march.json()).toEqual({
      totalCount: 2,
      items: [
        { id: expect.any(String), eventType: 'AttachmentViewed', eventData: null, createdBy: LAKESIDE_USER, organizationId: lakeside, ip: null, timestamp: '2026-03-02T23:59:00.000Z', createdOn: '2026-03-02T23:59:00.000Z' },
        { id: expect.any(String), eventType: 'MessageViewed', eventData: '{"list":"Intake"}', createdBy: LAKESIDE_USER, organizationId: lakeside, ip: null, timestamp: '2026-03-01T10:00:00.000Z', createdOn: '2026-03-01T10:00:00.000Z' },
      ],
    });
    const february = (await search(SYSADMIN, { startDate: '2026-02-01', endDate: '2026-02-28' })).json();
    expect(february.totalCount).toBe(30);
    expect(february.items).toHaveLength(25);
    expect((await search(SYSADMIN, { startDate: '2026-02-01', endDate: '2026-02-28', pageStart: 2 })).json().items).toHaveLength(5);
    // A user name is matched as text, not as a pattern.
    expect((await search(SYSADMIN, { username: '%' })).json()).toEqual({ totalCount: 0, items: [] });
  });

  it('refuses a range that ends before it starts and dates that are not dates', async () => {
    const backwards = await search(SYSADMIN, { startDate: '2026-03-02', endDate: '2026-03-01' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().modelState).toEqual({ endDate: ['End date must be on or after the start date.'] });
    expect((await search(SYSADMIN, { startDate: '03/01/2026' })).json().modelState).toEqual({ startDate: ['Date is invalid.'] });
    expect((await search(SYSADMIN, { endDate: '2026-02-31' })).json().modelState).toEqual({ endDate: ['Date is invalid.'] });
    expect((await t.call(LAKESIDE_ADMIN, 'GET', '/api/audit/user?startDate=2026-13-01')).statusCode).toBe(400);
  });

  it('exports the search as a CSV file named by its start and end dates, and audits the export', async () => {
    const { accessToken } = await t.login(SYSADMIN);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/audits',
      headers: { authorization: `Bearer ${accessToken}`, accept: 'text/csv' },
      payload: { startDate: '2026-03-01', endDate: '2026-03-03' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="ClinicRelay_Audits_2026-03-01_2026-03-03_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv"$/);
    expect(res.body.split('\r\n')).toEqual([
      'Timestamp,Event Type,Created By,Organization Id,IP Address,Event Data',
      `2026-03-03T08:00:00.000Z,MessageRead,${RIVERVIEW_ADMIN},${riverview},,`,
      `2026-03-02T23:59:00.000Z,AttachmentViewed,${LAKESIDE_USER},${lakeside},,`,
      `2026-03-01T10:00:00.000Z,MessageViewed,${LAKESIDE_USER},${lakeside},,"{""list"":""Intake""}"`,
      '',
    ]);
    const exported = await queryRows<{ details: object }>(t.handle.db, sql`select details from audit_events where event_type = 'AuditsExported'`);
    expect(exported.map((e) => e.details)).toEqual([{ startDate: '2026-03-01', endDate: '2026-03-03', username: null }]);
    expect((await verifyAuditChain(t.handle.db)).broken).toEqual([]);
  });

  it('streams the export page by page: rows sharing a timestamp each come once, newest first', async () => {
    // Five entries written in the same microsecond, beside February's thirty; pages of four cross them.
    await t.handle.db.execute(sql`insert into audit_events (event_type, user_name, created_at) select 'Tied', 'tie' || g || '@example.org', '2026-02-15T12:00:00.123456Z' from generate_series(1, 5) g`);
    const caller = { session: { userId: lakesideUserId, userName: SYSADMIN, sessionId: 'test', organizationId: null, roles: ['SysAdmin'], organizationCancelled: false } } as AdminCaller;
    const file = await exportCsv({ db: t.handle.db, now: () => new Date(), batchSize: 4 }, caller, { startDate: '2026-02-01', endDate: '2026-02-28', pageStart: 1, pageSize: 25 });
    let text = '';
    for await (const chunk of file.chunks) text += chunk;
    const who = text.trim().split('\r\n').slice(1).map((line) => line.split(',')[2]);
    expect(who).toHaveLength(35);
    expect(new Set(who).size).toBe(35);
    // The 15th of February first, then the bulk sign-ins of the 10th, latest second first.
    expect(who.slice(0, 5).every((w) => w!.startsWith('tie'))).toBe(true);
    expect(who.slice(5)).toEqual(Array.from({ length: 30 }, (_, i) => `bulk${29 - i}@example.org`));
  });

  it('is for system administrators only: SysAdminReporting, a network administrator and organization users get 403', async () => {
    for (const user of [REPORTING, NETWORK_ADMIN, LAKESIDE_ADMIN, LAKESIDE_USER]) {
      const res = await search(user, {});
      expect(res.statusCode, user).toBe(403);
    }
    expect((await t.call(null, 'POST', '/api/admin/audits', {})).statusCode).toBe(401);
  });

  describe('end-user calls (Administrator, own organization only)', () => {
    const entryId = async (eventType: string) =>
      (await queryRows<{ id: string }>(t.handle.db, sql`select id from audit_events where event_type = ${eventType} and created_at < '2026-04-01' order by created_at limit 1`))[0]!.id;

    it('GET /api/audit/{id} and /{id}/events: an entry and what else happened to its subject', async () => {
      const viewed = await entryId('MessageViewed');
      const one = await t.call(LAKESIDE_ADMIN, 'GET', `/api/audit/${viewed}`);
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json()).toEqual({ id: viewed, eventType: 'MessageViewed', eventData: '{"list":"Intake"}', correlationId: 'msg-1', createdBy: 'Leo Shore', createdOn: '2026-03-01T10:00:00.000Z' });
      const events = (await t.call(LAKESIDE_ADMIN, 'GET', `/api/audit/${viewed}/events`)).json();
      expect(events.totalCount).toBe(2);
      expect(events.items.map((e: { eventType: string }) => e.eventType)).toEqual(['AttachmentViewed', 'MessageViewed']);
    });

    it('GET /api/audit/entries/{type} and /user: by event type and the caller’s own', async () => {
      const byType = (await t.call(LAKESIDE_ADMIN, 'GET', '/api/audit/entries/AttachmentViewed')).json();
      expect(byType).toMatchObject({ totalCount: 1, items: [{ eventType: 'AttachmentViewed', createdBy: 'Leo Shore' }] });
      const ranged = (await t.call(LAKESIDE_ADMIN, 'GET', '/api/audit/entries/AttachmentViewed?startDate=2026-03-03')).json();
      expect(ranged).toEqual({ totalCount: 0, items: [] });
      // Riverview's entries of the same type are not Lakeside's.
      expect((await t.call(LAKESIDE_ADMIN, 'GET', '/api/audit/entries/MessageRead')).json()).toEqual({ totalCount: 0, items: [] });

      const before = (await t.call(LAKESIDE_ADMIN, 'GET', '/api/audit/user')).json();
      expect(before.items.every((e: { createdBy: string }) => e.createdBy === 'Laura Lake')).toBe(true);
    });

    it('answers 404 for another organization’s entry, 403 to a User and to system administrators', async () => {
      const riverviewEntry = await entryId('MessageRead');
      expect((await t.call(LAKESIDE_ADMIN, 'GET', `/api/audit/${riverviewEntry}`)).statusCode).toBe(404);
      expect((await t.call(LAKESIDE_ADMIN, 'GET', `/api/audit/${riverviewEntry}/events`)).statusCode).toBe(404);
      expect((await t.call(RIVERVIEW_ADMIN, 'GET', `/api/audit/${riverviewEntry}`)).statusCode).toBe(200);
      for (const url of [`/api/audit/${riverviewEntry}`, `/api/audit/${riverviewEntry}/events`, '/api/audit/entries/MessageRead', '/api/audit/user']) {
        for (const user of [LAKESIDE_USER, SYSADMIN, REPORTING]) expect((await t.call(user, 'GET', url)).statusCode, `${user} ${url}`).toBe(403);
      }
    });
  });
});
