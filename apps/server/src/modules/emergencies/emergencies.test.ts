import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emergencyMessages as text } from '@clinicrelay/contracts/emergencies.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { seedDemoEmergencies } from '../../db/seed/demo-emergencies.ts';
import { useTestApp } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';
const BASE = '/api/admin/emergencies';
const LAKESIDE = { name: 'Lakeside Family Medicine', oid: '2.16.840.1.113883.3.9001.1' };
const CASCADE = { name: 'Cascade Regional Hospital', oid: '2.16.840.1.113883.3.9001.10' };

describe('emergencies (back-office-b §4, §5, §7)', () => {
  const t = useTestApp();
  // Noon UTC on 11/29/2026: "today" is 2026-11-29 in UTC.
  const at = (iso: string) => (t.clock.now = new Date(iso));
  const create = (body: object) => t.call(ADMIN, 'POST', BASE, body);

  it('creates an emergency with its organizations, reads it back and lists it, searched and paged', async () => {
    at('2026-11-29T12:00:00Z');
    const created = await create({ name: '  Flood Response ', disabledDate: '', organizations: [CASCADE, LAKESIDE, { ...LAKESIDE, name: 'Lakeside again' }] });
    expect(created.statusCode, created.body).toBe(200);
    const flood = created.json();
    // One organization per OID (the last one sent wins), in name order.
    expect(flood).toEqual({ id: expect.any(String), name: 'Flood Response', disabledDate: null, isDisabled: false, organizations: [CASCADE, { ...LAKESIDE, name: 'Lakeside again' }] });
    expect((await t.call(ADMIN, 'GET', `${BASE}/${flood.id}`)).json()).toEqual(flood);

    await create({ name: 'Zebra outbreak' });
    await create({ name: 'avalanche' });
    const all = await t.call(ADMIN, 'GET', `${BASE}?pageSize=100`);
    expect(all.statusCode, all.body).toBe(200);
    const names = all.json().items.map((e: { name: string }) => e.name);
    expect(names).toEqual(['avalanche', 'Flood Response', 'Zebra outbreak']);
    expect((await t.call(ADMIN, 'GET', `${BASE}?sortDir=desc&pageSize=1`)).json()).toEqual({ totalCount: 3, items: [expect.objectContaining({ name: 'Zebra outbreak' })] });
    expect((await t.call(ADMIN, 'GET', `${BASE}?pageNumber=2&pageSize=2`)).json().items.map((e: { name: string }) => e.name)).toEqual(['Zebra outbreak']);
    expect((await t.call(ADMIN, 'GET', `${BASE}?search=FLOOD`)).json()).toEqual({ totalCount: 1, items: [flood] });
    expect((await t.call(ADMIN, 'GET', `${BASE}?search=%25`)).json().totalCount).toBe(0);
  });

  it('updates the name, the disabled date and the organizations with PUT on the collection', async () => {
    at('2026-11-29T12:00:00Z');
    const { id } = (await create({ name: 'Heat wave', organizations: [LAKESIDE] })).json();
    const updated = await t.call(ADMIN, 'PUT', BASE, { id, name: 'Heat wave 2026', disabledDate: '12/31/26', organizations: [CASCADE] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toEqual({ id, name: 'Heat wave 2026', disabledDate: '2026-12-31', isDisabled: false, organizations: [CASCADE] });
    const cleared = await t.call(ADMIN, 'PUT', BASE, { id, name: 'Heat wave 2026', disabledDate: null, organizations: [] });
    expect(cleared.json()).toMatchObject({ disabledDate: null, organizations: [] });
    const missing = await t.call(ADMIN, 'PUT', BASE, { id: '00000000-0000-4000-8000-000000000000', name: 'Nothing' });
    expect(missing.statusCode).toBe(404);
    expect((await t.call(ADMIN, 'GET', `${BASE}/00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'GET', `${BASE}/not-an-id`)).statusCode).toBe(400);
  });

  it('accepts the disabled date in each format of §5 and says so at the field for any other', async () => {
    at('2026-11-29T12:00:00Z');
    for (const typed of ['3/4/2027', '3/4/27', '03042027', '030427', '2027-03-04']) {
      const res = await create({ name: `Dated ${typed}`, disabledDate: typed });
      expect(res.json().disabledDate, typed).toBe('2027-03-04');
    }
    for (const typed of ['2/30/2027', '2027/03/04', 'soon']) {
      const res = await create({ name: 'Bad date', disabledDate: typed });
      expect(res.statusCode, typed).toBe(400);
      expect(res.json().modelState, typed).toEqual({ disabledDate: [text.invalidDate] });
    }
  });

  it('needs a name of at most 1000 characters and organizations with a name and an OID', async () => {
    for (const [body, field, message] of [
      [{ name: '' }, 'name', 'Name is required.'],
      [{ name: '   ' }, 'name', 'Name is required.'],
      [{}, 'name', 'Name is required.'],
      [{ name: 'x'.repeat(1001) }, 'name', 'Name must be at most 1000 characters.'],
      [{ name: 'A', organizations: [{ name: '', oid: '1.2.3' }] }, 'organizations.0.name', 'Name is required.'],
      [{ name: 'A', organizations: [{ name: 'X', oid: 'abc' }] }, 'organizations.0.oid', text.oidInvalid],
    ] as const) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().modelState?.[field], JSON.stringify(body)).toEqual([message]);
    }
    expect((await create({ name: 'x'.repeat(1000) })).statusCode).toBe(200);
  });

  it('derives the state from the disabled date: active, pending disable, disabled once the date is reached (§4)', async () => {
    at('2026-11-29T12:00:00Z');
    const active = (await create({ name: 'State active' })).json();
    const pending = (await create({ name: 'State pending', disabledDate: '11/30/2026' })).json();
    const today = (await create({ name: 'State today', disabledDate: '11/29/2026' })).json();
    const past = (await create({ name: 'State past', disabledDate: '1/1/2026' })).json();
    expect([active, pending, today, past].map((e) => e.isDisabled)).toEqual([false, false, true, true]);
    // The next day the pending one is reached.
    at('2026-11-30T00:30:00Z');
    expect((await t.call(ADMIN, 'GET', `${BASE}/${pending.id}`)).json().isDisabled).toBe(true);
    // The 1st of next month is pending on the 29th: the date reached, not the day of the month.
    at('2026-11-29T12:00:00Z');
    expect((await create({ name: 'State next month', disabledDate: '12/1/2026' })).json().isDisabled).toBe(false);
  });

  it('disables now (also a pending one) and enables again, with an audit event each', async () => {
    at('2026-11-29T12:00:00Z');
    const pending = (await create({ name: 'Toggle me', disabledDate: '2027-01-15' })).json();
    const disabled = await t.call(ADMIN, 'PUT', `${BASE}/${pending.id}/disable`);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ disabledDate: '2026-11-29', isDisabled: true });
    // Disabling again keeps the day it stopped.
    at('2026-12-05T12:00:00Z');
    expect((await t.call(ADMIN, 'PUT', `${BASE}/${pending.id}/disable`)).json()).toMatchObject({ disabledDate: '2026-11-29', isDisabled: true });
    const enabled = await t.call(ADMIN, 'PUT', `${BASE}/${pending.id}/enable`);
    expect(enabled.json()).toMatchObject({ disabledDate: null, isDisabled: false });
    expect((await t.call(ADMIN, 'PUT', `${BASE}/${pending.id}/enable`)).json()).toMatchObject({ disabledDate: null, isDisabled: false });
    expect((await t.call(ADMIN, 'PUT', `${BASE}/00000000-0000-4000-8000-000000000000/enable`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'PUT', `${BASE}/00000000-0000-4000-8000-000000000000/disable`)).statusCode).toBe(404);

    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'id' = ${pending.id}`).orderBy(auditEvents.createdAt);
    expect(audit.map((a) => a.eventType)).toEqual(['EmergencyCreated', 'EmergencyDisabled', 'EmergencyEnabled']);
  });

  it('tells the web app where the emergency-organization service is', async () => {
    expect((await t.call(ADMIN, 'GET', `${BASE}/service`)).json()).toEqual({ baseUrl: 'http://localhost:8090' });
  });

  it('answers system administrators only: others 403, anonymous 401', async () => {
    const { id } = (await create({ name: 'Roles' })).json();
    const calls: [string, string, object?][] = [
      ['GET', BASE],
      ['POST', BASE, { name: 'Nope' }],
      ['PUT', BASE, { id, name: 'Nope' }],
      ['GET', `${BASE}/${id}`],
      ['PUT', `${BASE}/${id}/enable`],
      ['PUT', `${BASE}/${id}/disable`],
      ['GET', `${BASE}/service`],
    ];
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) {
      for (const [method, url, body] of calls) expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
    }
    for (const [method, url, body] of calls) expect((await t.call(null, method, url, body)).statusCode, `${method} ${url}`).toBe(401);
  });
});

describe('the demo emergencies', () => {
  const t = useTestApp();

  it('shows one emergency of each state and is seeded once', async () => {
    await seedDemoEmergencies(t.handle.db, new Date());
    await seedDemoEmergencies(t.handle.db, new Date());
    const items = (await t.call(ADMIN, 'GET', `${BASE}?pageSize=100`)).json().items as { name: string; disabledDate: string | null; isDisabled: boolean }[];
    expect(items.map((e) => [e.name, e.disabledDate === null, e.isDisabled])).toEqual([
      ['COVID-19 Public Health Emergency', false, true],
      ['Pacific Northwest Wildfire Smoke Response', true, false],
      ['Winter Storm Response', false, false],
    ]);
  });
});
