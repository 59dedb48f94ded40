import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';

describe('brands and contacts (back-office-a §7 "Utilities and diagnostics")', () => {
  const t = useTestApp();

  it('lists the brands with their settings', async () => {
    const res = await t.call(ADMIN, 'GET', '/api/admin/brands?pageSize=100');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ totalCount: 1, items: [{ id: 'clinicrelay', name: 'ClinicRelay', settings: expect.objectContaining({ showFax: 'true' }) }] });
    expect((await t.call(ADMIN, 'GET', '/api/admin/brands?pageSize=101')).statusCode).toBe(400);
  });

  it('finds the people of the organizations from the second character, one row per organization', async () => {
    const find = async (query: string) => {
      const res = await t.call(ADMIN, 'GET', `/api/contacts${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ items: { userName: string; organizationName: string; name: string }[]; totalCount: number }>();
    };
    expect(await find('?search=m')).toEqual({ items: [], totalCount: 0 });
    const morgan = await find('?search=MORGAN');
    expect(morgan.items.map((c) => [c.name, c.organizationName])).toEqual([
      ['Morgan Multi', 'Lakeside Family Medicine'],
      ['Morgan Multi', 'Riverview Cardiology'],
    ]);
    expect((await find('?search=lakeside.example')).items.map((c) => c.userName)).toEqual(['admin@lakeside.example.org', 'user@lakeside.example.org']);
    // System administrators belong to no organization: they are not contacts.
    expect((await find('?search=sysadmin')).totalCount).toBe(0);
    const all = await find('?search=example.org');
    expect(all.totalCount).toBe(10);
    expect(all.items).toHaveLength(10);
    expect((await find(`?search=example.org&pageStart=2&pageSize=3`)).items).toEqual(all.items.slice(3, 6));
  });

  it('describes the partner, reseller, brand and contact calls in the OpenAPI document', async () => {
    const paths = Object.keys((await t.call(ADMIN, 'GET', '/api/openapi.json')).json<{ paths: object }>().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/partners', '/api/partners/{id}/logo', '/api/resellers/{id}', '/api/resellers/urlexists', '/api/admin/brands', '/api/contacts']));
  });

  it('answers system administrators only', async () => {
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org']) {
      expect((await t.call(user, 'GET', '/api/admin/brands')).statusCode, user).toBe(403);
      expect((await t.call(user, 'GET', '/api/contacts?search=lake')).statusCode, user).toBe(403);
    }
  });
});
