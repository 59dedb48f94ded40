import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { logoMessages } from '@clinicrelay/contracts/logos.ts';
import { resellerMessages as text } from '@clinicrelay/contracts/resellers.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { pngBomb } from '../../platform/files/sample-files.ts';
import { useTestApp } from '../../test/app.ts';
import { notAnImage, sendLogoForm, svgLogo } from '../../test/logo-form.ts';

const ADMIN = 'sysadmin@example.org';
const REPORTING = 'reporting@example.org';
const ORG_ADMIN = 'admin@lakeside.example.org';
const BASE = 'https://relay.example.org/';

const full = { type: 1, name: 'Northwest Health IT', affiliateUrlTag: 'nwhit', sponsor: 'NW Sponsor', registrationText: 'Register with us.', welcomeText: 'Welcome!', urlCode: 'NW-Health', logoBackgroundColor: 'e6e9ed', bypassTos: true, faxHandledByReseller: true };

describe('resellers (back-office-a §7 "Resellers")', () => {
  const t = useTestApp({ config: { PUBLIC_URL: BASE } });
  const create = (body: unknown) => t.call(ADMIN, 'POST', '/api/resellers', body);
  const modelStateOf = async (body: unknown) => {
    const res = await create(body);
    expect(res.statusCode, JSON.stringify(body)).toBe(400);
    return res.json().modelState;
  };

  it('creates a reseller from the multipart form with its logo, reads, edits and deletes it, with an audit event each', async () => {
    const created = await sendLogoForm(t, ADMIN, 'POST', '/api/resellers', { json: ['reseller', full], file: ['logo', 'nw.png', pngBomb(300, 40)] });
    expect(created.statusCode, created.body).toBe(200);
    const reseller = created.json();
    expect(reseller).toMatchObject({ ...full, fullUrl: 'https://relay.example.org/register/NW-Health', logoFileName: 'nw.png', welcomeMessageId: null });
    expect(reseller.logoUrl).toMatch(new RegExp(`^/api/resellers/${reseller.id}/logo\\?v=`));
    // Public: the register page shows it to visitors.
    const logo = await t.call(null, 'GET', reseller.logoUrl);
    expect([logo.statusCode, logo.headers['content-type']]).toEqual([200, 'image/png']);
    expect((await t.call(ADMIN, 'GET', `/api/resellers/${reseller.id}`)).json()).toEqual(reseller);

    // Plain JSON too; the logo stays when none is sent.
    const edited = await t.call(ADMIN, 'PUT', `/api/resellers/${reseller.id}`, { ...full, type: 0, name: 'NW Health', urlCode: 'nw-health', sponsor: '' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ type: 0, name: 'NW Health', urlCode: 'nw-health', sponsor: null, logoUrl: reseller.logoUrl, fullUrl: 'https://relay.example.org/register/nw-health' });
    const relogo = await sendLogoForm(t, ADMIN, 'PUT', `/api/resellers/${reseller.id}`, { json: ['reseller', { ...full, urlCode: 'nw-health' }], file: ['logo', 'nw2.png', pngBomb(200, 40)] });
    expect(relogo.json().logoUrl).not.toBe(reseller.logoUrl);

    expect((await t.call(ADMIN, 'DELETE', `/api/resellers/${reseller.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `/api/resellers/${reseller.id}`)).statusCode).toBe(404);
    expect((await t.call(null, 'GET', `/api/resellers/${reseller.id}/logo`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'PUT', `/api/resellers/${reseller.id}`, full)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'DELETE', `/api/resellers/${reseller.id}`)).statusCode).toBe(404);

    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'id' = ${reseller.id}`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['ResellerCreated', 'ResellerDeleted', 'ResellerUpdated', 'ResellerUpdated']);
  });

  it('lists resellers as resellers and totalResellersCount, searched, sorted and paged, the whole list with pageSize=5000', async () => {
    for (const [name, urlCode] of [['Zenith Partners', 'zenith'], ['acme Resale', 'acme'], ['Bravo Health', 'bravo-care']]) expect((await create({ name, urlCode })).statusCode).toBe(200);
    const list = async (query: string) => {
      const res = await t.call(ADMIN, 'GET', `/api/resellers${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return { names: res.json<{ resellers: { name: string }[] }>().resellers.map((r) => r.name), total: res.json<{ totalResellersCount: number }>().totalResellersCount };
    };
    expect(await list('?pageSize=2')).toEqual({ names: ['acme Resale', 'Bravo Health'], total: 3 });
    expect(await list('?pageSize=2&pageNumber=2')).toEqual({ names: ['Zenith Partners'], total: 3 });
    expect((await list('?sortDir=desc')).names).toEqual(['Zenith Partners', 'Bravo Health', 'acme Resale']);
    expect(await list('?search=CARE')).toEqual({ names: ['Bravo Health'], total: 1 });
    expect((await list('?pageSize=5000')).total).toBe(3);
    expect((await t.call(ADMIN, 'GET', '/api/resellers?pageSize=5001')).statusCode).toBe(400);
  });

  it('says what is wrong with a URL code in the four texts of §5, and with the other fields', async () => {
    await create({ name: 'Taken', urlCode: 'taken-code' });
    for (const [urlCode, message] of [
      ['', text.urlCodeCharacters],
      ['has space', text.urlCodeCharacters],
      ['slash/path', text.urlCodeCharacters],
      ['ünïcode', text.urlCodeCharacters],
      ['double--dash', text.urlConsecutive],
      ['mixed-_mark', text.urlConsecutive],
      ['under__score', text.urlConsecutive],
      ['-leading', text.urlInvalid],
      ['trailing_', text.urlInvalid],
      ['x'.repeat(256), text.urlInvalid],
      ['admin', text.urlReserved],
      ['WWW', text.urlReserved],
      ['my-admin_portal', text.urlReserved],
      ['TAKEN-code', text.urlCodeExists],
    ] as const) {
      expect(await modelStateOf({ name: 'Reseller', urlCode }), urlCode).toEqual({ urlCode: [message] });
    }
    // A reserved word inside a word is not a reserved word.
    expect((await create({ name: 'Happy', urlCode: 'happy_apps' })).statusCode).toBe(200);

    expect(await modelStateOf({ urlCode: 'fine' })).toEqual({ name: ['Name is required.'] });
    expect(await modelStateOf({ name: 'x'.repeat(256), urlCode: 'fine' })).toEqual({ name: ['Name must be at most 255 characters.'] });
    expect(await modelStateOf({ name: 'R', urlCode: 'fine', affiliateUrlTag: 'x'.repeat(256), sponsor: 'x'.repeat(256) })).toEqual({
      affiliateUrlTag: ['Affiliate Url Tag must be at most 255 characters.'],
      sponsor: ['Sponsor must be at most 255 characters.'],
    });
    expect(await modelStateOf({ name: 'R', urlCode: 'fine', registrationText: 'x'.repeat(1001), welcomeText: 'x'.repeat(1001) })).toEqual({
      registrationText: ['Registration text must be at most 1000 characters.'],
      welcomeText: ['Welcome text must be at most 1000 characters.'],
    });
    expect(await modelStateOf({ name: 'R', urlCode: 'fine', type: 2, logoBackgroundColor: 'ff0000' })).toEqual({
      type: ['Type must be one of: 0, 1.'],
      logoBackgroundColor: ['Background colour must be one of: ffffff, e6e9ed, 3f4449.'],
    });
    const edge = await create({ name: 'x'.repeat(255), urlCode: 'edge', registrationText: 'y'.repeat(1000), welcomeText: 'z'.repeat(1000), logoBackgroundColor: '3f4449' });
    expect(edge.statusCode, edge.body).toBe(200);
    // The form's own code is not a duplicate of itself.
    expect((await t.call(ADMIN, 'PUT', `/api/resellers/${edge.json().id}`, { name: 'Edge', urlCode: 'EDGE' })).statusCode).toBe(200);
  });

  it('refuses a logo that is not a PNG, JPEG or GIF, or is too wide', async () => {
    for (const [fileName, bytes, message] of [
      ['logo.png', notAnImage, logoMessages.type],
      ['logo.svg', svgLogo, logoMessages.type],
      ['wide.png', pngBomb(1200, 20), logoMessages.tooWide],
    ] as const) {
      const res = await sendLogoForm(t, ADMIN, 'POST', '/api/resellers', { json: ['reseller', { name: 'Logo', urlCode: `logo-${fileName.length}` }], file: ['logo', fileName, bytes] });
      expect(res.json(), fileName).toEqual({ message, modelState: { logo: [message] } });
    }
    const noJson = await sendLogoForm(t, ADMIN, 'POST', '/api/resellers', { json: ['other', {}], file: ['logo', 'a.png', pngBomb(10, 10)] });
    expect(noJson.json()).toEqual({ message: 'The request is invalid.', modelState: { reseller: ['reseller is required.'] } });
  });

  it('answers whether a URL code is taken, and the register URL a code gives', async () => {
    const { id } = (await create({ name: 'Exists', urlCode: 'exists-here' })).json();
    expect((await t.call(ADMIN, 'GET', '/api/resellers/urlexists?code=EXISTS-HERE')).json()).toBe(true);
    expect((await t.call(ADMIN, 'GET', `/api/resellers/urlexists?code=exists-here&id=${id}`)).json()).toBe(false);
    expect((await t.call(ADMIN, 'GET', '/api/resellers/urlexists?code=free-code&id=')).json()).toBe(false);
    expect((await t.call(ADMIN, 'GET', '/api/resellers/urlcode?urlCode=new-code')).json()).toEqual({ urlCode: 'new-code', fullUrl: 'https://relay.example.org/register/new-code' });
    const bad = await t.call(ADMIN, 'GET', '/api/resellers/urlcode?urlCode=a--b');
    expect([bad.statusCode, bad.json().message]).toEqual([400, text.urlConsecutive]);
    expect((await t.call(ADMIN, 'GET', '/api/resellers/urlcode?urlCode=sso')).json().message).toBe(text.urlReserved);
  });

  it('keeps a reseller an organization uses', async () => {
    const { id } = (await create({ name: 'In Use', urlCode: 'in-use' })).json();
    await t.handle.db.update(organizations).set({ affiliateResellerId: id }).where(eq(organizations.subdomain, 'lakeside'));
    const refused = await t.call(ADMIN, 'DELETE', `/api/resellers/${id}`);
    expect([refused.statusCode, refused.json().message]).toEqual([400, text.inUse(1)]);
    await t.handle.db.update(organizations).set({ affiliateResellerId: null }).where(eq(organizations.subdomain, 'lakeside'));
    expect((await t.call(ADMIN, 'DELETE', `/api/resellers/${id}`)).statusCode).toBe(200);
  });

  it('keeps one reseller per URL code when two administrators save it at the same moment', async () => {
    const both = await Promise.all([create({ name: 'One', urlCode: 'race' }), create({ name: 'Two', urlCode: 'RACE' })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(both.find((r) => r.statusCode === 400)!.json().message).toBe(text.urlCodeExists);
  });

  it('answers system administrators only', async () => {
    const { id } = (await create({ name: 'Authz', urlCode: 'authz' })).json();
    for (const user of [REPORTING, ORG_ADMIN]) {
      for (const [method, url, body] of [
        ['GET', '/api/resellers', undefined],
        ['GET', `/api/resellers/${id}`, undefined],
        ['GET', '/api/resellers/urlexists?code=x', undefined],
        ['GET', '/api/resellers/urlcode?urlCode=x', undefined],
        ['POST', '/api/resellers', { name: 'Nope', urlCode: 'nope' }],
        ['PUT', `/api/resellers/${id}`, { name: 'Nope', urlCode: 'nope' }],
        ['DELETE', `/api/resellers/${id}`, undefined],
      ] as const) {
        expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
      }
    }
  });
});

describe('resellers without PUBLIC_URL', () => {
  const t = useTestApp();
  it('gives the register URL on the development address', async () => {
    expect((await t.call(ADMIN, 'GET', '/api/resellers/urlcode?urlCode=spring-clinic')).json().fullUrl).toBe('http://localhost:8080/register/spring-clinic');
  });
});
