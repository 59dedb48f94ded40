import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { referenceDataMessages as text } from '@clinicrelay/contracts/reference-data.ts';
import { queryRows } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';
const REPORTING = 'reporting@example.org';

describe('reserved words (back-office-a §7)', () => {
  const t = useTestApp();
  const list = (query = '') => t.call(ADMIN, 'GET', `/api/reservedwords${query}`);

  it('lists the words every installation starts with, searched, filtered by profanity, sorted and paged', async () => {
    const first = await list('?pageSize=5');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().items).toHaveLength(5);
    expect(first.json().totalCount).toBeGreaterThan(30);
    expect(first.json().items.map((w: { name: string }) => w.name)).toEqual(['admin', 'administrator', 'api', 'app', 'assets']);
    expect((await list('?sortDir=desc&pageSize=1')).json().items[0].name).toBe('www');
    expect((await list('?search=MAIL')).json()).toEqual({ totalCount: 2, items: [expect.objectContaining({ name: 'mail' }), expect.objectContaining({ name: 'webmail' })] });
    // % and _ are letters here, not patterns.
    expect((await list('?search=%25')).json().totalCount).toBe(0);
    expect((await list('?profanity=true')).json().totalCount).toBe(0);
    expect((await list('?pageNumber=2&pageSize=10')).json().items[0].name).toBe((await list('?pageSize=11')).json().items[10].name);
  });

  it('creates, reads, edits and deletes a word, once per name whatever its case, with an audit event each', async () => {
    const created = await t.call(ADMIN, 'POST', '/api/reservedwords/0', { name: '  Darn ', profanity: true });
    expect(created.statusCode, created.body).toBe(200);
    const word = created.json();
    expect(word).toMatchObject({ name: 'Darn', profanity: true });
    expect((await t.call(ADMIN, 'GET', `/api/reservedwords/${word.id}`)).json()).toEqual(word);
    expect((await list('?profanity=true')).json().items).toEqual([word]);

    const again = await t.call(ADMIN, 'POST', '/api/reservedwords', { name: 'DARN' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: text.reservedWordExists, modelState: { name: [text.reservedWordExists] } });
    const rename = await t.call(ADMIN, 'PUT', `/api/reservedwords/${word.id}`, { name: 'Admin', profanity: false });
    expect(rename.json()).toEqual({ message: text.reservedWordExists, modelState: { name: [text.reservedWordExists] } });

    expect((await t.call(ADMIN, 'GET', `/api/reservedwords/exists?name=darn`)).json()).toBe(true);
    expect((await t.call(ADMIN, 'GET', `/api/reservedwords/exists?name=darn&id=${word.id}`)).json()).toBe(false);
    expect((await t.call(ADMIN, 'GET', '/api/reservedwords/isreservedword?name=WWW')).json()).toBe(true);
    expect((await t.call(ADMIN, 'GET', '/api/reservedwords/isreservedword?name=lakeside')).json()).toBe(false);

    const edited = await t.call(ADMIN, 'PUT', `/api/reservedwords/${word.id}`, { name: 'Heck', profanity: false });
    expect(edited.json()).toEqual({ id: word.id, name: 'Heck', profanity: false });
    expect((await t.call(ADMIN, 'DELETE', `/api/reservedwords/${word.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `/api/reservedwords/${word.id}`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'DELETE', `/api/reservedwords/${word.id}`)).statusCode).toBe(404);

    const audit = await t.handle.db.select({ eventType: auditEvents.eventType, details: auditEvents.details }).from(auditEvents).where(sql`${auditEvents.details}->>'id' = ${word.id}`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['ReservedWordCreated', 'ReservedWordDeleted', 'ReservedWordUpdated']);
  });

  it('says what is wrong with a name at its field', async () => {
    for (const [body, message] of [
      [{ name: '   ' }, 'Name is required.'],
      [{ name: 'x'.repeat(256) }, 'Name must be at most 255 characters.'],
      [{}, 'Name is required.'],
    ] as const) {
      const res = await t.call(ADMIN, 'POST', '/api/reservedwords', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().modelState, JSON.stringify(body)).toEqual({ name: [message] });
    }
  });

  it('keeps one word when two administrators add it at the same moment', async () => {
    const both = await Promise.all([t.call(ADMIN, 'POST', '/api/reservedwords', { name: 'race' }), t.call(ADMIN, 'POST', '/api/reservedwords', { name: 'RACE' })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const [row] = await queryRows<{ n: number }>(t.handle.db, sql`select count(*)::int as n from reserved_words where name_key = 'race'`);
    expect(row!.n).toBe(1);
  });

  it('answers system administrators only: SysAdminReporting and organization users get 403', async () => {
    for (const user of [REPORTING, 'admin@lakeside.example.org']) {
      expect((await t.call(user, 'GET', '/api/reservedwords')).statusCode, user).toBe(403);
      expect((await t.call(user, 'POST', '/api/reservedwords', { name: 'nope' })).statusCode, user).toBe(403);
    }
  });
});

describe('organization specialties (back-office-a §7)', () => {
  const t = useTestApp();
  const BASE = '/api/admin/organizationspecialties';

  it('lists the specialties with search and paging, and the whole list for the organization form', async () => {
    const names = async (query: string) => {
      const res = await t.call(ADMIN, 'GET', `${BASE}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ items: { id: number; name: string }[]; totalCount: number }>();
      return { names: body.items.map((s) => s.name), totalCount: body.totalCount };
    };
    expect(await names('?pageStart=1&pageSize=2&search=CARE')).toEqual({ names: ['Long-Term Care', 'Primary Care'], totalCount: 3 });
    expect(await names('?pageStart=2&pageSize=2&search=care')).toEqual({ names: ['Urgent Care'], totalCount: 3 });
    const all = (await t.call(ADMIN, 'GET', '/api/organizations/specialties')).json();
    expect(all.length).toBe((await t.call(ADMIN, 'GET', `${BASE}?pageSize=5000`)).json().totalCount);
  });

  it('creates, edits and deletes a specialty, once per name, with an audit event each', async () => {
    const created = await t.call(ADMIN, 'POST', BASE, { name: 'Sleep Medicine' });
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json();
    expect((await t.call(ADMIN, 'GET', `${BASE}/${id}`)).json()).toEqual({ id, name: 'Sleep Medicine' });
    expect((await t.call(ADMIN, 'POST', `${BASE}/0`, { name: 'sleep medicine' })).json()).toEqual({ message: text.specialtyExists, modelState: { name: [text.specialtyExists] } });
    expect((await t.call(ADMIN, 'PUT', `${BASE}/${id}`, { name: 'Cardiology' })).json().modelState).toEqual({ name: [text.specialtyExists] });
    expect((await t.call(ADMIN, 'PUT', `${BASE}/${id}`, { name: 'Sleep and Pulmonary Medicine' })).json()).toEqual({ id, name: 'Sleep and Pulmonary Medicine' });
    expect((await t.call(ADMIN, 'DELETE', `${BASE}/${id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `${BASE}/${id}`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'PUT', `${BASE}/${id}`, { name: 'Gone' })).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'GET', `${BASE}/abc`)).statusCode).toBe(400);
    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(eq(sql`${auditEvents.details}->>'id'`, String(id)));
    expect(audit.map((a) => a.eventType).sort()).toEqual(['SpecialtyCreated', 'SpecialtyDeleted', 'SpecialtyUpdated']);
  });

  it('keeps a specialty an organization is filed under', async () => {
    const [lakeside] = await t.handle.db.select({ specialtyId: organizations.organizationSpecialtyId }).from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    const res = await t.call(ADMIN, 'DELETE', `${BASE}/${lakeside!.specialtyId}`);
    expect(res.statusCode).toBe(400);
    // Lakeside and Oakwood are both Family Medicine in the demo world.
    expect(res.json()).toEqual({ message: text.specialtyInUse(2) });
    expect((await t.call(ADMIN, 'GET', `${BASE}/${lakeside!.specialtyId}`)).statusCode).toBe(200);
  });

  it('answers system administrators only', async () => {
    expect((await t.call(REPORTING, 'GET', BASE)).statusCode).toBe(403);
    expect((await t.call('admin@lakeside.example.org', 'GET', '/api/organizations/specialties')).statusCode).toBe(403);
  });
});
