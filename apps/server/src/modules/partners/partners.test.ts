import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { logoMessages } from '@clinicrelay/contracts/logos.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { blobs } from '../../db/schema/blobs.ts';
import { pngBomb } from '../../platform/files/sample-files.ts';
import { useTestApp } from '../../test/app.ts';
import { notAnImage, sendLogoForm, svgLogo } from '../../test/logo-form.ts';

const ADMIN = 'sysadmin@example.org';
const REPORTING = 'reporting@example.org';
const ORG_ADMIN = 'admin@lakeside.example.org';
const logo = pngBomb(200, 50);

describe('partners (back-office-a §7 "Partners")', () => {
  const t = useTestApp();
  const save = (body: unknown) => t.call(ADMIN, 'PUT', '/api/partners', body);
  const saveWithLogo = (partner: unknown, fileName: string, bytes: Uint8Array) => sendLogoForm(t, ADMIN, 'PUT', '/api/partners', { json: ['partner', partner], file: ['file', fileName, bytes] });
  const names = async (query: string) => {
    const res = await t.call(ADMIN, 'GET', `/api/partners${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return { names: res.json<{ items: { name: string }[] }>().items.map((p) => p.name), totalCount: res.json<{ totalCount: number }>().totalCount };
  };

  it('creates a partner when the PUT names no id and edits it when it does, with an audit event each', async () => {
    const created = await save({ name: '  Acme Health  ' });
    expect(created.statusCode, created.body).toBe(200);
    const partner = created.json();
    expect(partner).toMatchObject({ name: 'Acme Health', url: null, logo: null, logoFileName: null });
    expect((await t.call(ADMIN, 'GET', `/api/partners/${partner.id}`)).json()).toEqual(partner);

    const edited = await save({ id: partner.id, name: 'Acme Health Partners', url: 'https://acme.example.com' });
    expect(edited.json()).toMatchObject({ id: partner.id, name: 'Acme Health Partners', url: 'https://acme.example.com' });
    // The modal sends the name only: the web address stays.
    expect((await save({ id: partner.id, name: 'Acme' })).json()).toMatchObject({ name: 'Acme', url: 'https://acme.example.com' });

    expect((await t.call(ADMIN, 'DELETE', `/api/partners/${partner.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `/api/partners/${partner.id}`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'DELETE', `/api/partners/${partner.id}`)).statusCode).toBe(404);
    expect((await save({ id: partner.id, name: 'Gone' })).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'GET', '/api/partners/not-an-id')).statusCode).toBe(400);

    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'id' = ${partner.id}`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['PartnerCreated', 'PartnerDeleted', 'PartnerUpdated', 'PartnerUpdated']);
  });

  it('lists partners searched, sorted by name or creation date, and paged', async () => {
    for (const name of ['Zeta Labs', 'alpha Imaging', 'Beta Lab 100%']) expect((await save({ name })).statusCode).toBe(200);
    expect(await names('?search=LAB')).toEqual({ names: ['Beta Lab 100%', 'Zeta Labs'], totalCount: 2 });
    expect((await names('?search=%25')).names).toEqual(['Beta Lab 100%']);
    expect((await names('?sortDir=desc&pageSize=2')).names).toEqual(['Zeta Labs', 'Beta Lab 100%']);
    expect((await names('?pageNumber=2&pageSize=2')).names).toEqual(['Zeta Labs']);
    expect((await names('?col=createDate&sortDir=asc')).names).toEqual(['Zeta Labs', 'alpha Imaging', 'Beta Lab 100%']);
    expect((await t.call(ADMIN, 'GET', '/api/partners?col=logo')).statusCode).toBe(400);
  });

  it('says what is wrong with a name at its field', async () => {
    for (const [body, message] of [
      [{ name: '   ' }, 'Name is required.'],
      [{}, 'Name is required.'],
      [{ name: 'x'.repeat(256) }, 'Name must be at most 255 characters.'],
      [{ name: 'Web', url: 'not a url' }, 'Url is not valid.'],
    ] as const) {
      const res = await save(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toBe(message);
    }
    expect((await save({ name: 'x'.repeat(255) })).statusCode).toBe(200);
  });

  it('stores a logo from the multipart form, serves it to anyone, and replaces it', async () => {
    const created = await saveWithLogo({ name: 'Logo Co' }, 'logo.png', logo);
    expect(created.statusCode, created.body).toBe(200);
    const partner = created.json();
    expect(partner.logoFileName).toBe('logo.png');
    expect(partner.logo).toMatch(new RegExp(`^/api/partners/${partner.id}/logo\\?v=`));

    const image = await t.call(null, 'GET', partner.logo);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-security-policy']).toContain("default-src 'none'");
    expect(new Uint8Array(image.rawPayload)).toEqual(logo);

    const [before] = await t.handle.db.select({ n: sql<number>`count(*)::int` }).from(blobs);
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...new Array<number>(14).fill(0), 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x20, 0x00, 0x40, 0x03]);
    const replaced = await saveWithLogo({ id: partner.id, name: 'Logo Co' }, 'new.jpg', jpeg);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().logo).not.toBe(partner.logo);
    expect((await t.call(null, 'GET', replaced.json().logo)).headers['content-type']).toBe('image/jpeg');
    // The old logo's bytes are gone with it.
    const [after] = await t.handle.db.select({ n: sql<number>`count(*)::int` }).from(blobs);
    expect(after!.n).toBe(before!.n);

    // Saving without a file keeps the logo.
    expect((await save({ id: partner.id, name: 'Logo Company' })).json().logo).toBe(replaced.json().logo);
    await t.call(ADMIN, 'DELETE', `/api/partners/${partner.id}`);
    expect((await t.call(null, 'GET', `/api/partners/${partner.id}/logo`)).statusCode).toBe(404);
  });

  it('refuses a logo that is not a PNG, JPEG or GIF by its content, too wide, too high or too large', async () => {
    const oversized = new Uint8Array(1024 * 1024 + 10);
    oversized.set(logo);
    for (const [fileName, bytes, message] of [
      ['logo.png', notAnImage, logoMessages.type],
      ['logo.svg', svgLogo, logoMessages.type],
      ['logo.png', svgLogo, logoMessages.type],
      ['wide.png', pngBomb(601, 10), logoMessages.tooWide],
      ['tall.png', pngBomb(100, 601), logoMessages.tooHigh],
      ['big.png', oversized, logoMessages.tooLarge],
    ] as const) {
      const res = await saveWithLogo({ name: 'Refused' }, fileName, bytes);
      expect(res.statusCode, fileName).toBe(400);
      expect(res.json(), fileName).toEqual({ message, modelState: { file: [message] } });
    }
    expect((await saveWithLogo({ name: 'Edge' }, 'edge.gif', gif(600, 600))).statusCode).toBe(200);
    expect((await names('?search=Refused')).totalCount).toBe(0);
  });

  it('answers system administrators only; the logo is public', async () => {
    const { id } = (await save({ name: 'Authz' })).json();
    for (const user of [REPORTING, ORG_ADMIN, 'user@lakeside.example.org']) {
      for (const [method, url, body] of [
        ['GET', '/api/partners', undefined],
        ['GET', `/api/partners/${id}`, undefined],
        ['PUT', '/api/partners', { name: 'Nope' }],
        ['DELETE', `/api/partners/${id}`, undefined],
      ] as const) {
        expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
      }
    }
    expect((await t.call(null, 'GET', '/api/partners')).statusCode).toBe(401);
    expect((await t.call(null, 'PUT', '/api/partners', { name: 'Anonymous' })).statusCode).toBe(401);
    expect((await sendLogoForm(t, REPORTING, 'PUT', '/api/partners', { json: ['partner', { name: 'Nope' }], file: ['file', 'logo.png', logo] })).statusCode).toBe(403);
  });
});

// A GIF header of the given logical screen size (the only part the check reads).
function gif(width: number, height: number) {
  const bytes = new Uint8Array(32);
  bytes.set([...'GIF89a'].map((c) => c.charCodeAt(0)));
  new DataView(bytes.buffer).setUint16(6, width, true);
  new DataView(bytes.buffer).setUint16(8, height, true);
  return bytes;
}
