import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { eulaAdminMessages as text, eulaMessages, MAX_EULA_FILE_BYTES } from '@clinicrelay/contracts/eulas.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { brands } from '../../db/schema/back-office.ts';
import { eulaAcceptances, eulas } from '../../db/schema/onboarding.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { useTestApp, type TestContext } from '../../test/app.ts';
import { WorkerFailure, type WorkerPool } from '../../platform/workers/worker-pool.ts';
import { MAX_NESTING, nestingDepth, sanitizeTermsDocument, sanitizeTermsHtml } from './sanitize.ts';
import { createEula } from './service.ts';

const ADMIN = 'sysadmin@example.org';
const REPORTING = 'reporting@example.org';
const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';
const HILLCREST_ADMIN = 'admin@hillcrest.example.org';
// The demo users of organizations that accepted terms: Lakeside (2 + netadmin), Riverview (2), Oakwood (2), multi.
const DEMO_ACCEPTANCES = 8;

type Fields = Record<string, string>;
type FileSpec = [name: string, bytes: Uint8Array | string];

// POST /api/admin/eulas as a browser's FormData sends it.
async function sendForm(t: TestContext, user: string, fields: Fields, file?: FileSpec) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([typeof file[1] === 'string' ? file[1] : Buffer.from(file[1])]), file[0]);
  const request = new Response(form);
  const { accessToken } = await t.login(user);
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/eulas',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

const terms = (title: string) => `<h1>${title}</h1><p>Use the service lawfully.</p>`;
const eula = (version: string, type = 'EULA', brandId = 'clinicrelay'): Fields => ({ type, brandId, version });

function helpers(t: TestContext) {
  const create = async (fields: Fields, file: FileSpec = ['terms.html', terms(`Terms ${fields.version}`)]) => {
    const res = await sendForm(t, ADMIN, fields, file);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string; version: string }>();
  };
  const activate = async (id: string) => {
    const res = await t.call(ADMIN, 'POST', `/api/admin/eulas/${id}/activate`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ active: boolean; activatedAt: string | null }>();
  };
  const profile = async (user: string) => {
    const res = await t.call(user, 'GET', '/api/users/profiledata');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ orgIsAcceptedEULA: boolean }>().orgIsAcceptedEULA;
  };
  const current = (user: string) => t.call(user, 'GET', '/api/eulas/current');
  const accept = (user: string, id: string, payload: unknown = { accepted: true }) => t.call(user, 'POST', `/api/eulas/${id}/accept`, payload);
  const demoTerms = async () => (await t.handle.db.select().from(eulas).where(and(eq(eulas.brandId, 'clinicrelay'), eq(eulas.version, '1.0'))))[0]!;
  return { create, activate, profile, current, accept, demoTerms };
}

describe('terms documents in the back office (back-office-b "EULA / TOS")', () => {
  const t = useTestApp();
  const h = helpers(t);

  it('lists the demo terms with brand, version, type, active and total users, without the html', async () => {
    const res = await t.call(ADMIN, 'GET', '/api/admin/eulas');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ items: { version: string }[]; totalCount: number }>();
    expect(page.totalCount).toBe(1);
    expect(page.items[0]).toMatchObject({ brand: { id: 'clinicrelay', name: 'ClinicRelay' }, version: '1.0', type: 'EULA', active: true, totalUsers: DEMO_ACCEPTANCES, html: null, fileName: 'terms-1.0.html' });
  });

  it('creates an inactive document from an HTML file and shows its sanitized html', async () => {
    const created = await h.create(eula('2.0'), ['Terms 2.0.HTML', terms('Terms 2.0')]);
    expect(created).toMatchObject({ version: '2.0', type: 'EULA', active: false, totalUsers: 0, activatedAt: null, fileName: 'Terms 2.0.HTML', brand: { id: 'clinicrelay', name: 'ClinicRelay' } });
    const res = await t.call(ADMIN, 'GET', `/api/admin/eulas/${created.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ html: string }>().html).toBe('<h1>Terms 2.0</h1><p>Use the service lawfully.</p>');
    const [audit] = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'EulaCreated'));
    expect(audit?.details).toMatchObject({ id: created.id, version: '2.0', type: 'EULA', brandId: 'clinicrelay' });
  });

  it('sanitizes on upload: no script, event handler, javascript: URL, svg, iframe, form or style survives', async () => {
    const hostile = [
      '<h1 onclick="steal()">Terms</h1>',
      '<script>window.__pwned = true; document.title = "pwned"</script>',
      '<img src="x" onerror="window.__pwned = true">',
      '<img src="https://tracker.example.com/pixel.gif" alt="pixel">',
      '<a href="javascript:alert(1)">click</a>',
      '<a href="JaVaScRiPt&colon;alert(1)">encoded</a>',
      '<a href="https://example.org/privacy" target="_self">privacy</a>',
      '<svg onload="window.__pwned = true"><circle r="4"/></svg>',
      '<iframe src="https://evil.example.com"></iframe>',
      '<object data="x.swf"></object><embed src="x.swf">',
      '<form action="https://evil.example.com"><input name="password"><button>Go</button></form>',
      '<style>body { background: url(https://evil.example.com/leak) }</style>',
      '<p style="background:url(https://evil.example.com/leak)" class="x">Styled</p>',
      '<math><mtext><script>alert(1)</script></mtext></math>',
      '<p>Keep <strong>this</strong>.</p>',
    ].join('\n');
    const created = await h.create(eula('2.1'), ['hostile.html', hostile]);
    const html = (await t.call(ADMIN, 'GET', `/api/admin/eulas/${created.id}`)).json<{ html: string }>().html;
    expect(html).not.toMatch(/<script|onerror|onclick|onload|javascript:|<svg|<iframe|<object|<embed|<form|<input|<button|<style|style=|class=|<math|__pwned|tracker|evil/i);
    expect(html).toContain('<h1>Terms</h1>');
    expect(html).toContain('<a href="https://example.org/privacy" target="_blank" rel="noopener noreferrer">privacy</a>');
    expect(html).toContain('<p>Keep <strong>this</strong>.</p>');
    expect(html).toContain('<img alt="pixel" />');
  });

  it('keeps an embedded raster image and drops an svg one', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    expect(sanitizeTermsHtml(`<img src="${png}" alt="logo">`)).toBe(`<img alt="logo" src="${png}" />`);
    expect(sanitizeTermsHtml('<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="svg">')).toBe('<img alt="svg" />');
  });

  it('measures nesting as a browser would, so unclosed paragraphs and list items do not count', () => {
    expect(nestingDepth('<div><section><p>a<p>b<ul><li>c<li>d</ul></section></div><br><img src=x>')).toBe(3);
    expect(nestingDepth('<p>x'.repeat(10_000))).toBe(0);
    expect(sanitizeTermsDocument(`${'<div>'.repeat(MAX_NESTING + 1)}x`)).toEqual({ refusal: 'tooDeep' });
    expect(sanitizeTermsDocument('<script>x</script>')).toEqual({ refusal: 'empty' });
  });

  it('a document the file worker cannot finish (time, memory) is refused with a message', async () => {
    const failing: WorkerPool = { run: () => Promise.reject(new WorkerFailure('timeout')), close: async () => undefined };
    const attempt = createEula({ db: t.handle.db, now: () => new Date(), files: failing }, { session: { userId: '00000000-0000-4000-8000-000000000001', userName: ADMIN } as never }, { type: 'EULA', brandId: 'clinicrelay', version: '7.0' }, { fileName: 'slow.html', bytes: Buffer.from('<p>x</p>') });
    await expect(attempt).rejects.toMatchObject({ statusCode: 400, message: text.htmlTooComplex });
  });

  it('answers every create rule with its message', async () => {
    const check = async (fields: Fields, file: FileSpec | undefined, status: number, message: string, field?: string) => {
      const res = await sendForm(t, ADMIN, fields, file);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ message, ...(field ? { modelState: { [field]: [message] } } : {}) });
    };
    const html: FileSpec = ['terms.html', terms('x')];
    await check(eula('3.0'), undefined, 400, text.fileRequired, 'file');
    await check(eula('3.0'), ['', ''], 400, text.fileRequired, 'file');
    await check(eula('3.0'), ['terms.txt', terms('x')], 400, text.htmlRequired, 'file');
    await check(eula('3.0'), ['terms.pdf', '%PDF-1.7'], 400, text.htmlRequired, 'file');
    await check(eula('3.0'), ['terms.html', new Uint8Array([0x3c, 0x70, 0x3e, 0x00, 0xff, 0xfe])], 400, text.htmlRequired, 'file');
    await check(eula('3.0'), ['terms.html', '<script>alert(1)</script><p> </p>'], 400, text.htmlEmpty, 'file');
    await check(eula('3.0'), ['deep.html', `${'<div>'.repeat(MAX_NESTING + 1)}deep`], 400, text.htmlTooComplex, 'file');
    await check(eula('1.0'), html, 400, text.versionTaken, 'version');
    await check(eula('1.0', 'Privacy'), html, 400, text.versionTaken, 'version');
    await check(eula('abc'), html, 400, text.versionInvalid, 'version');
    await check(eula('1.2.3'), html, 400, text.versionInvalid, 'version');
    await check(eula('12345678.90'), html, 400, text.versionTooLong, 'version');
    await check(eula(''), html, 400, text.versionRequired, 'version');
    await check({ brandId: 'clinicrelay', version: '3.0' }, html, 400, text.typeRequired, 'type');
    await check(eula('3.0', 'Cookies'), html, 400, text.typeRequired, 'type');
    await check({ type: 'EULA', version: '3.0' }, html, 400, text.brandRequired, 'brandId');
    await check(eula('3.0', 'EULA', 'no-such-brand'), html, 400, text.brandUnknown, 'brandId');
    await check(eula('3.0'), ['big.html', `<p>${'a'.repeat(MAX_EULA_FILE_BYTES)}</p>`], 413, text.fileTooLarge);
    const notMultipart = await t.call(ADMIN, 'POST', '/api/admin/eulas', { type: 'EULA', brandId: 'clinicrelay', version: '3.0' });
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json()).toMatchObject({ message: text.fileRequired });
  });

  it('accepts the same version for another brand', async () => {
    await t.handle.db.insert(brands).values({ id: 'acme', name: 'Acme Health' });
    const created = await h.create(eula('1.0', 'EULA', 'acme'));
    expect(created).toMatchObject({ brand: { id: 'acme', name: 'Acme Health' }, version: '1.0' });
  });

  it('pages, sorts and searches', async () => {
    const res = await t.call(ADMIN, 'GET', '/api/admin/eulas?pageSize=2&pageNumber=1&col=version&sortDir=desc');
    const page = res.json<{ items: { version: string }[]; totalCount: number }>();
    expect(page.totalCount).toBe(4);
    expect(page.items.map((i) => i.version)).toEqual(['2.1', '2.0']);
    const acme = (await t.call(ADMIN, 'GET', '/api/admin/eulas?search=acme')).json<{ items: { brand: { id: string } }[] }>();
    expect(acme.items.map((i) => i.brand.id)).toEqual(['acme']);
    expect((await t.call(ADMIN, 'GET', '/api/admin/eulas?col=nope')).statusCode).toBe(400);
  });

  it('is for system administrators only: organization users and reporting get 403', async () => {
    const { id } = await h.demoTerms();
    for (const user of [LAKESIDE_ADMIN, LAKESIDE_USER, REPORTING]) {
      expect((await t.call(user, 'GET', '/api/admin/eulas')).statusCode, user).toBe(403);
      expect((await t.call(user, 'GET', `/api/admin/eulas/${id}`)).statusCode, user).toBe(403);
      expect((await t.call(user, 'POST', `/api/admin/eulas/${id}/activate`)).statusCode, user).toBe(403);
      expect((await t.call(user, 'DELETE', `/api/admin/eulas/${id}`)).statusCode, user).toBe(403);
      expect((await sendForm(t, user, eula('9.0'), ['t.html', terms('x')])).statusCode, user).toBe(403);
    }
    expect((await t.call(null, 'GET', '/api/admin/eulas')).statusCode).toBe(401);
  });

  it('answers 404 for an unknown document', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [['GET', `/api/admin/eulas/${unknown}`], ['POST', `/api/admin/eulas/${unknown}/activate`], ['DELETE', `/api/admin/eulas/${unknown}`]] as const) {
      const res = await t.call(ADMIN, method, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ message: messages.notFound });
    }
  });
});

describe('activating and deleting terms documents', () => {
  const t = useTestApp();
  const h = helpers(t);

  it('refuses to delete an active document', async () => {
    const { id } = await h.demoTerms();
    const res = await t.call(ADMIN, 'DELETE', `/api/admin/eulas/${id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: text.inUse });
  });

  it('activating a version deactivates the previous one and asks every user again', async () => {
    const before = await h.demoTerms();
    expect(await h.profile(LAKESIDE_USER)).toBe(true);
    expect(await h.profile(LAKESIDE_ADMIN)).toBe(true);
    const created = await h.create(eula('2.0'));
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    const active = await h.activate(created.id);
    expect(active).toMatchObject({ active: true, activatedAt: t.clock.now.toISOString() });
    const previous = await t.handle.db.select().from(eulas).where(eq(eulas.id, before.id));
    expect(previous[0]!.isActive).toBe(false);
    for (const user of [LAKESIDE_USER, LAKESIDE_ADMIN, RIVERVIEW_USER, 'user@oakwood.example.org', HILLCREST_ADMIN]) expect(await h.profile(user), user).toBe(false);
    const [audit] = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'EulaActivated'));
    expect(audit?.details).toMatchObject({ id: created.id, version: '2.0', deactivated: ['1.0'] });

    // The current terms are the new version, not yet accepted.
    const res = await h.current(LAKESIDE_USER);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: created.id, version: '2.0', type: 'EULA', brandName: 'ClinicRelay', html: terms('Terms 2.0'), acceptedAt: null });
  });

  it('until a user accepts the new version, the API answers only the terms, the profile and sign-out (issue 26)', async () => {
    const refused = await t.call(RIVERVIEW_USER, 'GET', '/api/messages');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Please accept the current terms and conditions to continue.' });
    expect((await t.call(RIVERVIEW_USER, 'GET', '/api/users/profiledata')).json()).toMatchObject({ orgIsAcceptedEULA: false });
    const { id } = (await h.current(RIVERVIEW_USER)).json<{ id: string }>();
    // The system administrator is not asked (no organization's terms).
    expect((await t.call(ADMIN, 'GET', '/api/admin/eulas')).statusCode).toBe(200);
    expect((await h.accept(RIVERVIEW_USER, id)).statusCode).toBe(200);
    expect((await t.call(RIVERVIEW_USER, 'GET', '/api/messages')).statusCode).toBe(200);
    // Sign-out answers without accepting.
    const { accessToken } = await t.login('admin@riverview.example.org');
    expect((await t.call(accessToken, 'GET', '/api/messages')).statusCode).toBe(403);
    expect((await t.call(accessToken, 'POST', '/api/account/logout')).statusCode).toBe(200);
  });

  it('records an acceptance once, with the ip and the time, and the profile follows', async () => {
    const { id } = (await h.current(LAKESIDE_USER)).json<{ id: string }>();
    const at = new Date(t.clock.now.getTime() + 60_000);
    t.clock.now = at;
    const res = await h.accept(LAKESIDE_USER, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: eulaMessages.accepted });
    t.clock.now = new Date(at.getTime() + 60_000);
    expect((await h.accept(LAKESIDE_USER, id)).statusCode).toBe(200);
    const [lakeside] = await t.handle.db.select().from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    const rows = await t.handle.db.select().from(eulaAcceptances).where(and(eq(eulaAcceptances.eulaId, id), eq(eulaAcceptances.organizationId, lakeside!.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ organizationId: lakeside!.id, ip: '127.0.0.1', acceptedAt: at });
    expect((await h.current(LAKESIDE_USER)).json()).toMatchObject({ acceptedAt: at.toISOString() });
    expect(await h.profile(LAKESIDE_USER)).toBe(true);
    // Another user of the same organization still has to accept.
    expect(await h.profile(LAKESIDE_ADMIN)).toBe(false);
    const audits = await t.handle.db.select().from(auditEvents).where(and(eq(auditEvents.eventType, 'EulaAccepted'), eq(auditEvents.userName, LAKESIDE_USER)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ userName: LAKESIDE_USER, organizationId: lakeside!.id, ip: '127.0.0.1' });
    expect(audits[0]!.details).toMatchObject({ id, version: '2.0', forOrganization: false });
    // The list counts the users who accepted.
    const list = (await t.call(ADMIN, 'GET', '/api/admin/eulas?col=version&sortDir=desc')).json<{ items: { version: string; totalUsers: number }[] }>();
    expect(list.items.map((i) => [i.version, i.totalUsers])).toEqual([['2.0', 2], ['1.0', DEMO_ACCEPTANCES]]);
  });

  it("an Administrator's acceptance accepts the terms for the organization", async () => {
    const [before] = await t.handle.db.select().from(organizations).where(eq(organizations.subdomain, 'hillcrest'));
    expect(before!.isAcceptedEula).toBe(false);
    expect(await h.profile(HILLCREST_ADMIN)).toBe(false);
    const { id } = (await h.current(HILLCREST_ADMIN)).json<{ id: string }>();
    expect((await h.accept(HILLCREST_ADMIN, id)).statusCode).toBe(200);
    const [after] = await t.handle.db.select().from(organizations).where(eq(organizations.subdomain, 'hillcrest'));
    expect(after).toMatchObject({ isAcceptedEula: true, eulaAcceptedAt: t.clock.now });
    expect(await h.profile(HILLCREST_ADMIN)).toBe(true);
  });

  it('accepts only the active document of the caller\'s brand (404 otherwise) and only a checked box', async () => {
    const old = await h.demoTerms();
    expect((await h.accept(LAKESIDE_ADMIN, old.id)).statusCode).toBe(404);
    await t.handle.db.insert(brands).values({ id: 'acme', name: 'Acme Health' });
    const other = await h.create(eula('1.0', 'EULA', 'acme'));
    await h.activate(other.id);
    const res = await h.accept(LAKESIDE_ADMIN, other.id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: messages.notFound });
    expect((await h.accept(LAKESIDE_ADMIN, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const { id } = (await h.current(LAKESIDE_ADMIN)).json<{ id: string }>();
    for (const payload of [{ accepted: false }, {}]) {
      const unchecked = await h.accept(LAKESIDE_ADMIN, id, payload);
      expect(unchecked.statusCode).toBe(400);
      expect(unchecked.json()).toMatchObject({ message: 'You must accept the terms and conditions.' });
    }
    expect((await t.call(null, 'POST', `/api/eulas/${id}/accept`, { accepted: true })).statusCode).toBe(401);
    expect(await h.profile(LAKESIDE_ADMIN)).toBe(false);
  });

  it('refuses to delete an accepted document, deletes an unused one', async () => {
    const old = await h.demoTerms();
    expect(old.isActive).toBe(false);
    const accepted = await t.call(ADMIN, 'DELETE', `/api/admin/eulas/${old.id}`);
    expect(accepted.statusCode).toBe(409);
    expect(accepted.json()).toMatchObject({ message: text.inUse });
    const unused = await h.create(eula('2.5'));
    const res = await t.call(ADMIN, 'DELETE', `/api/admin/eulas/${unused.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `/api/admin/eulas/${unused.id}`)).statusCode).toBe(404);
    const [audit] = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'EulaDeleted'));
    expect(audit?.details).toMatchObject({ id: unused.id, version: '2.5' });
  });

  it('a Privacy document is activated beside the EULA and is not asked at sign-in', async () => {
    const eulaBefore = (await h.current(LAKESIDE_USER)).json<{ id: string }>();
    const first = await h.create(eula('5.0', 'Privacy'));
    await h.activate(first.id);
    const second = await h.create(eula('5.1', 'Privacy'));
    await h.activate(second.id);
    const rows = await t.handle.db.select({ version: eulas.version, type: eulas.type, isActive: eulas.isActive }).from(eulas).where(and(eq(eulas.brandId, 'clinicrelay'), eq(eulas.isActive, true)));
    expect(rows.map((r) => `${r.type} ${r.version}`).sort()).toEqual(['EULA 2.0', 'Privacy 5.1']);
    expect((await h.current(LAKESIDE_USER)).json()).toMatchObject({ id: eulaBefore.id, type: 'EULA' });
    expect(await h.profile(LAKESIDE_USER)).toBe(true);
    // Acknowledging a privacy notice is recorded and changes nothing for the organization.
    expect((await h.accept(LAKESIDE_ADMIN, second.id)).statusCode).toBe(200);
    expect(await h.profile(LAKESIDE_ADMIN)).toBe(false);
  });
});

describe('without an active terms document', () => {
  const t = useTestApp();
  const h = helpers(t);

  it('GET /api/eulas/current answers 404 with a clear message, and the profile falls back to the organization', async () => {
    await t.handle.db.update(eulas).set({ isActive: false });
    for (const user of [LAKESIDE_USER, HILLCREST_ADMIN]) {
      const res = await h.current(user);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: text.noCurrent });
    }
    expect(await h.profile(LAKESIDE_USER)).toBe(true);
    expect(await h.profile(HILLCREST_ADMIN)).toBe(false);
    // A system administrator outside any organization has no terms to accept.
    expect((await h.current(ADMIN)).statusCode).toBe(404);
  });

  it('the demo terms are asked of Hillcrest only', async () => {
    await t.handle.db.update(eulas).set({ isActive: true }).where(eq(eulas.version, '1.0'));
    for (const user of [LAKESIDE_USER, LAKESIDE_ADMIN, RIVERVIEW_USER, 'multi@example.org', 'admin@oakwood.example.org']) expect(await h.profile(user), user).toBe(true);
    expect(await h.profile(HILLCREST_ADMIN)).toBe(false);
    expect((await h.current(HILLCREST_ADMIN)).json()).toMatchObject({ version: '1.0', acceptedAt: null });
    expect((await h.current(LAKESIDE_USER)).json<{ html: string }>().html).toContain('<h1>ClinicRelay Terms of Service</h1>');
  });
});
