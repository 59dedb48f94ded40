import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ApiCapturePage, ApiCaptureRecord } from '@clinicrelay/contracts/api-capture.ts';
import { apiCaptures } from '../../db/schema/api-capture.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { sha256 } from '../../platform/auth/tokens.ts';
import { TEST_PASSWORD, useTestApp } from '../../test/app.ts';

const SYSADMIN = 'sysadmin@example.org';
const USER = 'user@lakeside.example.org';

describe('API capture (issue 27 §3)', () => {
  const t = useTestApp();
  const idOf = async (subdomain: string) => (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;
  const captured = async (query = '') => {
    await t.app.apiCapture.flush();
    const res = await t.call(SYSADMIN, 'GET', `/api/diagnostics/apicapture?pageSize=100${query}`);
    expect(res.statusCode).toBe(200);
    return res.json<ApiCapturePage>();
  };
  const byUrl = (page: ApiCapturePage, url: string) => page.items.filter((r) => r.value.request.url === url);

  it('records nothing while no organization captures', async () => {
    await t.call(USER, 'GET', '/api/users/profiledata');
    expect((await captured()).totalCount).toBe(0);
  });

  it("records Lakeside's calls once its capture is on: a sign-in without its password, a renewal without its token", async () => {
    const lakeside = await idOf('lakeside');
    expect((await t.call(SYSADMIN, 'PUT', `/api/organizations/${lakeside}/apicapture/`, { apiCapture: true })).statusCode).toBe(200);

    const login = await t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: USER, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const { accessToken, refreshToken } = login.json<{ accessToken: string; refreshToken: string }>();
    const renewed = await t.app.inject({ method: 'POST', url: '/api/account/refresh', payload: { refreshToken } });
    expect(renewed.statusCode).toBe(200);
    const renewedTokens = renewed.json<{ accessToken: string; refreshToken: string }>();
    const profile = await t.app.inject({ method: 'GET', url: '/api/users/profiledata?token=abc123secret', headers: { authorization: `Bearer ${renewedTokens.accessToken}`, cookie: 'cr_docs=abc' } });
    expect(profile.statusCode).toBe(200);
    // Riverview does not capture.
    await t.call('user@riverview.example.org', 'GET', '/api/users/profiledata');

    const page = await captured();
    const raw = JSON.stringify(page);
    for (const secret of [TEST_PASSWORD, accessToken, refreshToken, renewedTokens.accessToken, renewedTokens.refreshToken, 'abc123secret', 'cr_docs=abc']) expect(raw).not.toContain(secret);
    expect(page.items.every((r) => r.tenantid === lakeside)).toBe(true);
    expect(page.items.some((r) => r.userName === 'user@riverview.example.org')).toBe(false);

    const [signIn] = byUrl(page, '/api/account/login');
    expect(signIn).toMatchObject({ tenantid: lakeside, tenantName: 'Lakeside Family Medicine', userName: USER, userIdSourceType: 'IssuedToken', tokenHash: sha256(accessToken) });
    expect(signIn!.networkName).toBe('Northwest Health Network');
    expect(JSON.parse(signIn!.value.request.body!)).toEqual({ userName: USER, password: '[REDACTED]' });
    expect(JSON.parse(signIn!.value.response.body!)).toMatchObject({ accessToken: '[REDACTED]', refreshToken: '[REDACTED]', expiresIn: expect.any(Number) });
    expect(signIn!.value.response.status).toBe(200);
    // The docs cookie the sign-in sets is a credential too.
    expect(signIn!.value.response.headers['set-cookie']).toBe('[REDACTED]');

    const [renewal] = byUrl(page, '/api/account/refresh');
    expect(JSON.parse(renewal!.value.request.body!)).toEqual({ refreshToken: '[REDACTED]' });
    expect(renewal!.tokenHash).toBe(sha256(renewedTokens.accessToken));

    const [call] = byUrl(page, '/api/users/profiledata?token=[REDACTED]');
    expect(call).toMatchObject({ userIdSourceType: 'Token', tokenHash: sha256(renewedTokens.accessToken), userName: USER });
    expect(call!.value.request).toMatchObject({ method: 'GET', body: null });
    expect(call!.value.request.headers).toMatchObject({ authorization: '[REDACTED]', cookie: '[REDACTED]' });
    expect(call!.value.response.headers['content-type']).toContain('application/json');
    expect(JSON.parse(call!.value.response.body!)).toMatchObject({ userName: USER });
  });

  it('keeps a two-factor code and a changed password out of the record, and says when a body was cut', async () => {
    await t.call(USER, 'POST', '/api/account/changepassword', { currentPassword: TEST_PASSWORD, newPassword: 'Another-pass-2026!x', confirmPassword: 'Another-pass-2026!x' });
    await t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: USER, password: 'wrong-password-1', code: '123456' } });
    // A body past the 64 kB cap (refused by validation, captured all the same).
    await t.call(USER, 'POST', '/api/account/changepassword', { currentPassword: 'x', note: 'n'.repeat(100_000) });
    const page = await captured('&method=POST');
    const raw = JSON.stringify(page);
    expect(raw).not.toContain('Another-pass-2026!x');
    expect(raw).not.toContain('123456');
    expect(raw).not.toContain('wrong-password-1');
    const cut = page.items.find((r) => r.value.request.bodyTruncated);
    expect(cut!.value.request.body!.length).toBeLessThanOrEqual(64 * 1024);
    expect(cut!.value.request.bodyBytes).toBeGreaterThan(100_000);
    // A failed sign-in has no token, so no organization: it is not anybody's capture.
    expect(page.items.filter((r) => r.value.request.url === '/api/account/login' && r.value.response.status !== 200)).toEqual([]);
  });

  it('filters by method, status code, tenant, network, search and date range, newest first with sortDir 1', async () => {
    const lakeside = await idOf('lakeside');
    const all = await captured();
    expect(all.totalCount).toBeGreaterThan(3);
    const dates = all.items.map((r) => r.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const ascending = await captured('&sortDir=0');
    expect(ascending.items.map((r) => r.date)).toEqual([...dates].reverse());
    expect((await captured('&method=GET')).items.every((r) => r.value.request.method === 'GET')).toBe(true);
    expect((await captured('&statusCode=200')).items.every((r) => r.value.response.status === 200)).toBe(true);
    expect((await captured(`&tenantId=${lakeside}`)).totalCount).toBe(all.totalCount);
    expect((await captured(`&tenantId=${await idOf('riverview')}`)).totalCount).toBe(0);
    expect((await captured(`&networkId=${all.items[0]!.networkid}`)).totalCount).toBe(all.totalCount);
    expect((await captured('&search=profiledata')).items.every((r: ApiCaptureRecord) => r.value.request.url!.includes('profiledata'))).toBe(true);
    // The default range is the last day: a range that ended yesterday holds nothing.
    const yesterday = new Date(t.clock.now.getTime() - 86_400_000).toISOString();
    expect((await captured(`&end=${encodeURIComponent(yesterday)}`)).totalCount).toBe(0);
    const page = await t.call(SYSADMIN, 'GET', '/api/diagnostics/apicapture');
    expect(page.json<ApiCapturePage>().items.length).toBeLessThanOrEqual(20);
    expect((await t.call(SYSADMIN, 'GET', '/api/diagnostics/apicapture?sortDir=2')).statusCode).toBe(400);
  });

  it('stops recording when capture is turned off, and sweeps records past the retention', async () => {
    const lakeside = await idOf('lakeside');
    const before = (await captured()).totalCount;
    await t.call(SYSADMIN, 'PUT', `/api/organizations/${lakeside}/apicapture/`, { apiCapture: false });
    await t.call(USER, 'GET', '/api/users/profiledata');
    expect((await captured()).totalCount).toBe(before);

    await t.handle.db.update(apiCaptures).set({ capturedAt: new Date(t.clock.now.getTime() - 8 * 86_400_000) });
    expect(await t.app.apiCapture.sweep()).toBe(before);
    expect(await t.handle.db.select().from(apiCaptures)).toEqual([]);
  });

  it('tells an organization Administrator whether its calls are captured (GET /api/apicaptureconfig)', async () => {
    const lakeside = await idOf('lakeside');
    await t.call(SYSADMIN, 'PUT', `/api/organizations/${lakeside}/apicapture/`, { apiCapture: true });
    const res = await t.call('admin@lakeside.example.org', 'GET', '/api/apicaptureconfig');
    expect(res.json()).toEqual({ apiCapture: true, retentionDays: 7, maxBodyBytes: 65536 });
    expect((await t.call('admin@riverview.example.org', 'GET', '/api/apicaptureconfig')).json().apiCapture).toBe(false);
    await t.call(SYSADMIN, 'PUT', `/api/organizations/${lakeside}/apicapture/`, { apiCapture: false });
  });

  it('opens the capture log to SysAdmin only', async () => {
    for (const user of ['reporting@example.org', 'netadmin@example.org', 'admin@lakeside.example.org', USER]) {
      expect((await t.call(user, 'GET', '/api/diagnostics/apicapture')).statusCode, user).toBe(403);
    }
    expect((await t.call(null, 'GET', '/api/diagnostics/apicapture')).statusCode).toBe(401);
    for (const user of [SYSADMIN, 'reporting@example.org', USER]) {
      expect((await t.call(user, 'GET', '/api/apicaptureconfig')).statusCode, user).toBe(403);
    }
  });
});
