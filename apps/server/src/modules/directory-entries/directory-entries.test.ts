import { describe, expect, it } from 'vitest';
import { directoryEntryMessages as text } from '@clinicrelay/contracts/directory-entries.ts';
import { useTestApp } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';
const BASE = '/api/kno2directory';
const OTHERS = ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org'];

const clinic = {
  entryType: 'Organization',
  organizationName: 'Cascade Wound Care Partners',
  directAddress: 'Intake@Direct.CascadeWound.example.net',
  standardizedCity: 'Bend',
  standardizedState: 'or',
  standardizedZip: '97701-1234',
  phonePrimary: '(541) 555-0100',
  tags: ['wound care', 'hyperbaric'],
  hisp: { name: 'Example HISP', trustBundle: 'DirectTrust' },
};

describe('directory entries of the directory service (/api/kno2directory)', () => {
  const t = useTestApp();

  it('keeps an entry as free JSON with its service fields, and publishes it to every organization’s directory search', async () => {
    const created = await t.call(ADMIN, 'POST', BASE, clinic);
    expect(created.statusCode, created.body).toBe(200);
    const entry = created.json();
    expect(entry).toMatchObject({ ...clinic, entryType: 'Organization', tenantId: 'platform', isSystemGenerated: false });
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);

    // Found by the end users' Find Provider search, as a published organization, in every organization.
    for (const user of ['user@lakeside.example.org', 'user@riverview.example.org']) {
      const found = (await t.call(user, 'POST', '/api/directory/search', { organizationName: 'cascade wound' })).json();
      expect(found.organizations).toEqual([
        expect.objectContaining({ id: entry.id, source: 'Published', directAddress: 'intake@direct.cascadewound.example.net', standardizedState: 'OR', standardizedZip: '977011234', phonePrimary: '5415550100' }),
      ]);
    }

    expect((await t.call(ADMIN, 'GET', `${BASE}/platform/${entry.id}`)).json()).toEqual(entry);
    expect((await t.call(ADMIN, 'GET', `${BASE}/other-tenant/${entry.id}`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'GET', `${BASE}?search=cascade`)).json()).toMatchObject({ totalCount: 1, items: [{ id: entry.id }] });
    expect((await t.call(ADMIN, 'GET', `${BASE}/search/${encodeURIComponent('intake@direct.cascadewound.example.net')}`)).json()).toEqual([expect.objectContaining({ id: entry.id })]);
    expect((await t.call(ADMIN, 'GET', `${BASE}/search/zzz`)).json()).toEqual([]);

    // PUT replaces the JSON: a key left out is gone.
    const { tags: _tags, ...withoutTags } = entry;
    const updated = await t.call(ADMIN, 'PUT', BASE, { ...withoutTags, organizationName: 'Cascade Wound & Hyperbaric' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ id: entry.id, organizationName: 'Cascade Wound & Hyperbaric' });
    expect(updated.json()).not.toHaveProperty('tags');

    expect((await t.call(ADMIN, 'DELETE', `${BASE}/platform/${entry.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'DELETE', `${BASE}/platform/${entry.id}`)).statusCode).toBe(404);
    expect((await t.call('user@lakeside.example.org', 'POST', '/api/directory/search', { organizationName: 'cascade wound' })).json().totalOrganizationsCount).toBe(0);
  });

  it('finds a published provider by last name on the Providers tab', async () => {
    const created = (await t.call(ADMIN, 'POST', BASE, { entryType: 'Provider', lastName: 'Quillfeather', firstName: 'Ines', tenantId: 'hisp-42' })).json();
    expect(created.tenantId).toBe('hisp-42');
    const found = (await t.call('user@lakeside.example.org', 'POST', '/api/directory/search', { lastName: 'quill' })).json();
    expect(found.providers).toEqual([expect.objectContaining({ id: created.id, source: 'Published', firstName: 'Ines' })]);
    expect((await t.call(ADMIN, 'DELETE', `${BASE}/hisp-42/${created.id}`)).statusCode).toBe(200);
  });

  it('refuses what is not a directory entry, naming the field', async () => {
    const cases: [unknown, string, string][] = [
      [{ organizationName: 'No type' }, 'entryType', text.entryTypeRequired],
      [{ entryType: 'Department', organizationName: 'X' }, 'entryType', text.entryTypeRequired],
      [{ entryType: 'Organization' }, 'organizationName', text.nameRequired],
      [{ entryType: 'Provider', firstName: 'Only' }, 'lastName', text.nameRequired],
      [{ ...clinic, directAddress: 'not-an-address' }, 'directAddress', text.directAddressInvalid],
      [{ ...clinic, npi: '123' }, 'npi', text.npiInvalid],
      [{ ...clinic, standardizedState: 'ZZ' }, 'standardizedState', text.stateInvalid],
      [{ ...clinic, isSystemGenerated: true }, 'isSystemGenerated', text.systemGeneratedReadOnly],
      [{ ...clinic, notes: 'x'.repeat(17 * 1024) }, 'entry', text.tooLarge],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.call(ADMIN, 'POST', BASE, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ message, modelState: { [field]: [message] } });
    }
    // Not a JSON object at all.
    expect((await t.call(ADMIN, 'POST', BASE, [1, 2])).statusCode).toBe(400);
    const noId = await t.call(ADMIN, 'PUT', BASE, clinic);
    expect(noId.json()).toMatchObject({ message: text.idRequired });
    const unknown = await t.call(ADMIN, 'PUT', BASE, { ...clinic, id: '00000000-0000-4000-8000-000000000000', tenantId: 'platform' });
    expect(unknown.statusCode).toBe(404);
  });

  it('lists the entry types and pages the list', async () => {
    expect((await t.call(ADMIN, 'GET', `${BASE}/entrytypes`)).json()).toEqual([{ id: 1, name: 'Provider' }, { id: 2, name: 'Organization' }]);
    for (const name of ['Alder Clinic', 'Birch Clinic', 'Cedar Clinic']) await t.call(ADMIN, 'POST', BASE, { entryType: 'Organization', organizationName: name });
    const page = (await t.call(ADMIN, 'GET', `${BASE}?search=clinic&pageNumber=2&pageSize=2`)).json();
    expect(page.totalCount).toBe(3);
    expect(page.items.map((e: { organizationName: string }) => e.organizationName)).toEqual(['Cedar Clinic']);
  });

  it('answers system administrators only', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const calls: [string, string, unknown?][] = [
      ['GET', BASE],
      ['POST', BASE, clinic],
      ['PUT', BASE, { ...clinic, id, tenantId: 'platform' }],
      ['GET', `${BASE}/entrytypes`],
      ['GET', `${BASE}/platform/${id}`],
      ['DELETE', `${BASE}/platform/${id}`],
      ['GET', `${BASE}/search/clinic`],
    ];
    for (const user of OTHERS) {
      for (const [method, url, body] of calls) expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
    }
    expect((await t.call(null, 'GET', BASE)).statusCode).toBe(401);
  });
});
