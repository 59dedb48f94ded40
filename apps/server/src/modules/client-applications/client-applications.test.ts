import { describe, expect, it } from 'vitest';
import { clientApplicationMessages as text } from '@clinicrelay/contracts/client-applications.ts';
import { useTestApp } from '../../test/app.ts';

const base = '/api/admin/clientapplications';
const form = { name: 'Acme EHR', logoUrl: 'https://acme.example.com/logo.png', redirectURI: 'https://acme.example.com/callback', applicationUrl: 'https://acme.example.com' };

describe('client applications (back-office-b, issue 29 §1)', () => {
  const t = useTestApp();

  it('refuses every call to Administrator, User and SysAdminReporting', async () => {
    for (const user of ['admin@lakeside.example.org', 'user@lakeside.example.org', 'reporting@example.org']) {
      for (const [method, url] of [['GET', base], ['POST', base], ['GET', `${base}/00000000-0000-4000-8000-000000000000`], ['PUT', `${base}/00000000-0000-4000-8000-000000000000`], ['DELETE', `${base}/00000000-0000-4000-8000-000000000000`], ['POST', `${base}/00000000-0000-4000-8000-000000000000/credentials`]] as const) {
        const res = await t.call(user, method, url, method === 'GET' || method === 'DELETE' ? undefined : form);
        expect(res.statusCode, `${user} ${method} ${url}`).toBe(403);
      }
    }
  });

  it('lets a SysAdmin add an application: the secret is in the first answer only', async () => {
    const created = await t.call('sysadmin@example.org', 'POST', base, form);
    expect(created.statusCode).toBe(200);
    const app = created.json();
    expect(app).toMatchObject({ ...form, organizationId: null });
    expect(app.clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(app.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const read = (await t.call('sysadmin@example.org', 'GET', `${base}/${app.id}`)).json();
    expect(read.secret).toBeUndefined();
    expect(read.clientId).toBe(app.clientId);
    const list = (await t.call('sysadmin@example.org', 'GET', `${base}?search=acme&pageSize=10`)).json();
    expect(list.totalCount).toBe(1);
    expect(list.items[0].secret).toBeUndefined();
    expect(list.items[0]).toMatchObject({ name: 'Acme EHR', clientId: app.clientId });
  });

  it('requires the four fields and answers the exceptionMessage the screen shows', async () => {
    const empty = await t.call('sysadmin@example.org', 'POST', base, { name: '', logoUrl: '', redirectURI: '', applicationUrl: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().modelState).toMatchObject({ name: ['Name is required.'], logoUrl: ['Logo URL is required.'], redirectURI: ['Redirect URL is required.'], applicationUrl: ['Application URL is required.'] });
    const badUrl = await t.call('sysadmin@example.org', 'POST', base, { ...form, name: 'Other', redirectURI: 'not a url' });
    expect(badUrl.json().modelState.redirectURI).toEqual([text.invalidUrl]);
    const duplicate = await t.call('sysadmin@example.org', 'POST', base, { ...form, name: 'acme ehr' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toMatchObject({ message: text.nameExists, exceptionMessage: text.nameExists });
    const missing = await t.call('sysadmin@example.org', 'GET', `${base}/00000000-0000-4000-8000-000000000000`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ exceptionMessage: text.notFound });
    const badOrg = await t.call('sysadmin@example.org', 'POST', base, { ...form, name: 'Bound', organizationId: '00000000-0000-4000-8000-000000000000' });
    expect(badOrg.json()).toMatchObject({ exceptionMessage: text.organizationNotFound });
  });

  it('edits, regenerates credentials (a new secret, shown once) and deletes', async () => {
    const app = (await t.call('sysadmin@example.org', 'POST', base, { ...form, name: 'Edit me' })).json();
    const updated = await t.call('sysadmin@example.org', 'PUT', `${base}/${app.id}`, { ...form, name: 'Edited', applicationUrl: 'https://edited.example.com' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Edited', applicationUrl: 'https://edited.example.com', clientId: app.clientId });
    expect(updated.json().secret).toBeUndefined();
    const reset = await t.call('sysadmin@example.org', 'POST', `${base}/${app.id}/credentials`);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().clientId).toBe(app.clientId);
    expect(reset.json().secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(reset.json().secret).not.toBe(app.secret);
    const removed = await t.call('sysadmin@example.org', 'DELETE', `${base}/${app.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await t.call('sysadmin@example.org', 'GET', `${base}/${app.id}`)).statusCode).toBe(404);
    expect((await t.call('sysadmin@example.org', 'DELETE', `${base}/${app.id}`)).statusCode).toBe(404);
  });
});
