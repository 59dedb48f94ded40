import { and, desc, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { twoFactorText as text } from '@clinicrelay/contracts/two-factor.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { loginAttempts, recoveryCodes, twoFactorCodes } from '../../db/schema/auth.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { users } from '../../db/schema/users.ts';
import { clearSessionCache } from '../../platform/auth/guard.ts';
import { totpCode } from '../../platform/auth/totp.ts';
import { isSealedText } from '../../platform/sealed-text.ts';
import { testConfig, useTestApp, TEST_PASSWORD, type TestContext } from '../../test/app.ts';

// Issue 14 §6: Riverview's user enrols an authenticator app, Lakeside's user enrols codes by email, both sign in
// with codes that work once; administrators remove two-factor; administrators must enrol when the platform says so.

const login = (t: TestContext, userName: string, code?: string, password = TEST_PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName, password, ...(code ? { code } : {}) } });
const userRow = async (t: TestContext, userName: string) => (await t.handle.db.select().from(users).where(eq(users.userName, userName)))[0]!;
const mailsTo = (t: TestContext, address: string, kind: string) =>
  t.handle.db.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, address), eq(mailOutbox.kind, kind))).orderBy(desc(mailOutbox.createdAt));
const mailedCode = async (t: TestContext, address: string) => /verification code is (\d{6})/.exec((await mailsTo(t, address, 'TwoFactorCode'))[0]!.textBody)![1]!;
const clearAttempts = (t: TestContext, userName: string) => t.handle.db.delete(loginAttempts).where(eq(loginAttempts.userName, userName));
const auditTypes = async (t: TestContext, userId: string) =>
  (await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(eq(auditEvents.userId, userId))).map((r) => r.eventType);
const later = (t: TestContext, ms: number) => {
  t.clock.now = new Date(t.clock.now.getTime() + ms);
};

describe('enrolment with an authenticator app', () => {
  const t = useTestApp();
  const userName = 'user@riverview.example.org';
  let secret = '';
  let recovery: string[] = [];

  it('answers a pending secret (sealed at rest), its otpauth URI and a QR code', async () => {
    const res = await t.call(userName, 'GET', '/api/users/enabletokenauth');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpAuthUri).toBe(`otpauth://totp/ClinicRelay%3Auser%40riverview.example.org?secret=${body.secret}&issuer=ClinicRelay&algorithm=SHA1&digits=6&period=30`);
    expect(body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(body.qrCode.split(',')[1], 'base64').toString()).toContain('<svg');
    secret = body.secret;
    const row = await userRow(t, userName);
    expect(row.twoFactorEnabled).toBe(false);
    expect(isSealedText(row.twoFactorPendingSecret!)).toBe(true);
    expect(row.twoFactorPendingSecret).not.toContain(secret);
  });

  it('refuses a wrong code, a missing one, and a confirmation without a set-up', async () => {
    const wrong = await t.call(userName, 'POST', '/api/users/enabletokenauth', { code: '000000' === totpCode(secret, t.clock.now) ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: text.codeInvalid, modelState: { code: [text.codeInvalid] } });
    const missing = await t.call(userName, 'POST', '/api/users/enabletokenauth', { code: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().modelState.code).toEqual([text.codeRequired]);
    const other = await t.call('user@lakeside.example.org', 'POST', '/api/users/enabletokenauth', { code: '123456' });
    expect(other.json()).toEqual({ message: text.notEnrolling });
  });

  it('confirms with a code: two-factor with the app is on, ten recovery codes are answered once and stored hashed', async () => {
    const res = await t.call(userName, 'POST', '/api/users/enabletokenauth', { code: totpCode(secret, t.clock.now) });
    expect(res.statusCode).toBe(200);
    recovery = res.json().recoveryCodes;
    expect(res.json().message).toBe(text.appEnabled);
    expect(recovery).toHaveLength(10);
    for (const c of recovery) expect(c).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    const row = await userRow(t, userName);
    expect(row).toMatchObject({ twoFactorEnabled: true, tokenAuthEnabled: true, twoFactorPendingSecret: null });
    expect(isSealedText(row.twoFactorSecret!)).toBe(true);
    const stored = await t.handle.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, row.id));
    expect(stored).toHaveLength(10);
    expect(stored.map((s) => s.codeHash)).not.toContain(recovery[0]);
    expect(await auditTypes(t, row.id)).toEqual(expect.arrayContaining(['TwoFactorEnrolmentStarted', 'TwoFactorEnabled']));
    const current = await t.call(userName, 'GET', '/api/users/current');
    expect(current.json()).toMatchObject({ twoFactorEnabled: true, tokenAuthEnabled: true });
  });

  it('refuses to start again while two-factor is on', async () => {
    const res = await t.call(userName, 'GET', '/api/users/enabletokenauth');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(text.alreadyEnabled);
    expect((await t.call(userName, 'GET', '/api/users/sendcode?method=Email')).json().message).toBe(text.alreadyEnabled);
  });

  it('signs in with a code once; the confirmation code and a replayed code are refused', async () => {
    const none = await login(t, userName);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ message: messages.twoFactorRequired, twoFactorRequired: true, twoFactorMethod: 'App' });
    // The step used to confirm the enrolment is spent.
    expect((await login(t, userName, totpCode(secret, t.clock.now))).statusCode).toBe(401);
    later(t, 60_000);
    const code = totpCode(secret, t.clock.now);
    expect((await login(t, userName, code)).statusCode).toBe(200);
    const replay = await login(t, userName, code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: messages.twoFactorRequired, twoFactorRequired: true, twoFactorMethod: 'App' });
    await clearAttempts(t, userName);
  });

  it('accepts each recovery code once, typed in any case and with spaces', async () => {
    const first = recovery[0]!;
    expect((await login(t, userName, ` ${first.toLowerCase()} `)).statusCode).toBe(200);
    expect((await login(t, userName, first)).statusCode).toBe(401);
    expect((await login(t, userName, recovery[1]!.replace('-', ''))).statusCode).toBe(200);
    expect(await auditTypes(t, (await userRow(t, userName)).id)).toContain('RecoveryCodeUsed');
    await clearAttempts(t, userName);
  });

  it('counts wrong codes toward the lockout', async () => {
    later(t, 60_000);
    for (let i = 0; i < 2; i++) expect((await login(t, userName, 'ABCDE-ABCDE')).json().message).toBe(messages.twoFactorRequired);
    const third = await login(t, userName, '999999');
    expect(third.json()).toEqual({ message: messages.accountLocked });
    expect((await login(t, userName, totpCode(secret, t.clock.now))).json()).toEqual({ message: messages.accountLocked });
    await clearAttempts(t, userName);
  });

  it('re-authenticates with verifycode (only for the caller), then turns two-factor off with a code and mails the user', async () => {
    later(t, 60_000);
    const me = await userRow(t, userName);
    const token = (await login(t, userName, recovery[2])).json().accessToken as string;
    const other = await userRow(t, 'admin@riverview.example.org');
    const notMine = await t.call(token, 'POST', `/api/users/${other.id}/verifycode`, { code: '123456' });
    expect(notMine.statusCode).toBe(404);
    const wrong = await t.call(token, 'POST', `/api/users/${me.id}/verifycode`, { code: '12345' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(text.codeInvalid);
    const ok = await t.call(token, 'POST', `/api/users/${me.id}/verifycode`, { code: totpCode(secret, t.clock.now) });
    expect(ok.json()).toEqual({ verified: true, message: text.codeVerified });
    later(t, 30_000);
    const off = await t.call(token, 'POST', `/api/users/${me.id}/verifycode`, { code: totpCode(secret, t.clock.now), disable: true });
    expect(off.json()).toEqual({ verified: true, message: text.disabled });
    const row = await userRow(t, userName);
    expect(row).toMatchObject({ twoFactorEnabled: false, tokenAuthEnabled: false, twoFactorSecret: null, lastTotpStep: null });
    expect(await t.handle.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, me.id))).toHaveLength(0);
    expect((await mailsTo(t, me.email, 'TwoFactorRemoved'))[0]!.textBody).toContain('You turned off two-factor sign-in');
    expect(await auditTypes(t, me.id)).toEqual(expect.arrayContaining(['TwoFactorCodeRejected', 'TwoFactorCodeVerified', 'TwoFactorDisabled']));
    expect((await login(t, userName)).statusCode).toBe(200);
    const notOn = await t.call(token, 'POST', `/api/users/${me.id}/verifycode`, { code: '123456' });
    expect(notOn.json().message).toBe(text.notEnabled);
    await clearAttempts(t, userName);
  });

  it('needs a signed-in caller', async () => {
    for (const [method, url] of [
      ['GET', '/api/users/enabletokenauth'],
      ['POST', '/api/users/enabletokenauth'],
      ['GET', '/api/users/sendcode?method=Email'],
      ['GET', '/api/users/enabletfa?code=123456'],
    ] as const) {
      expect((await t.call(null, method, url, method === 'POST' ? { code: '123456' } : undefined)).statusCode).toBe(401);
    }
  });
});

describe('codes by email', () => {
  const t = useTestApp();
  const userName = 'user@lakeside.example.org';

  it('refuses a method other than Email', async () => {
    const res = await t.call(userName, 'GET', '/api/users/sendcode?method=Sms');
    expect(res.statusCode).toBe(400);
  });

  it('mails a 6-digit code through the outbox (hash stored) and sends at most one a minute', async () => {
    const res = await t.call(userName, 'GET', '/api/users/sendcode?method=Email');
    expect(res.json()).toEqual({ message: text.codeSent });
    const code = await mailedCode(t, userName);
    const me = await userRow(t, userName);
    const [stored] = await t.handle.db.select().from(twoFactorCodes).where(eq(twoFactorCodes.userId, me.id));
    expect(stored).toMatchObject({ purpose: 'Enable', attempts: 0, usedAt: null });
    expect(stored!.codeHash).not.toContain(code);
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(10 * 60_000);
    const again = await t.call(userName, 'GET', '/api/users/sendcode?method=Email');
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toBe(text.codeRecentlySent);
  });

  it('refuses a wrong code, then after five tries the code is dead even when right', async () => {
    const code = await mailedCode(t, userName);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect((await t.call(userName, 'GET', `/api/users/enabletfa?code=${wrong}`)).json().message).toBe(text.codeInvalid);
    expect((await t.call(userName, 'GET', `/api/users/enabletfa?code=${wrong}`)).json().message).toBe(text.codeAttemptsExceeded);
    expect((await t.call(userName, 'GET', `/api/users/enabletfa?code=${code}`)).json().message).toBe(text.codeAttemptsExceeded);
  });

  it('refuses an expired code', async () => {
    later(t, 61_000);
    await t.call(userName, 'GET', '/api/users/sendcode?method=Email');
    const code = await mailedCode(t, userName);
    later(t, 10 * 60_000 + 1);
    const res = await t.call(userName, 'GET', `/api/users/enabletfa?code=${code}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: text.codeExpired, modelState: { code: [text.codeExpired] } });
  });

  it('enables email two-factor with the code (used once), answering recovery codes', async () => {
    await t.call(userName, 'GET', '/api/users/sendcode?method=Email');
    const code = await mailedCode(t, userName);
    const res = await t.call(userName, 'GET', `/api/users/enabletfa?code=${code}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(text.emailEnabled);
    expect(res.json().recoveryCodes).toHaveLength(10);
    expect(await userRow(t, userName)).toMatchObject({ twoFactorEnabled: true, tokenAuthEnabled: false, twoFactorSecret: null });
    const reused = await t.call(userName, 'GET', `/api/users/enabletfa?code=${code}`);
    expect(reused.json().message).toBe(text.alreadyEnabled);
  });

  it('mails a sign-in code when the password is right, accepts it once, and refuses the expired one', async () => {
    later(t, 61_000);
    const first = await login(t, userName);
    expect(first.json()).toEqual({ message: messages.twoFactorRequired, twoFactorRequired: true, twoFactorMethod: 'Email' });
    const code = await mailedCode(t, userName);
    // Asking again within the minute sends nothing new ("Send the code again" waits).
    await login(t, userName);
    expect(await mailedCode(t, userName)).toBe(code);
    expect((await login(t, userName, code)).statusCode).toBe(200);
    expect((await login(t, userName, code)).statusCode).toBe(401);
    await clearAttempts(t, userName);

    later(t, 61_000);
    await login(t, userName);
    const expired = await mailedCode(t, userName);
    later(t, 11 * 60_000);
    expect((await login(t, userName, expired)).statusCode).toBe(401);
    await clearAttempts(t, userName);
    // A wrong password mails nothing.
    later(t, 61_000);
    const before = (await mailsTo(t, userName, 'TwoFactorCode')).length;
    expect((await login(t, userName, undefined, 'Wrong-password-1')).json().message).toBe(messages.invalidCredentials);
    expect(await mailsTo(t, userName, 'TwoFactorCode')).toHaveLength(before);
    await clearAttempts(t, userName);
  });

  it('re-authenticates with a mailed code (sendcode sends a sign-in code once enrolled)', async () => {
    later(t, 61_000);
    const me = await userRow(t, userName);
    await login(t, userName);
    const signIn = await login(t, userName, await mailedCode(t, userName));
    const access = signIn.json().accessToken as string;
    later(t, 61_000);
    expect((await t.call(access, 'GET', '/api/users/sendcode?method=Email')).json()).toEqual({ message: text.codeSent });
    const [latest] = await t.handle.db.select().from(twoFactorCodes).where(and(eq(twoFactorCodes.userId, me.id), isNull(twoFactorCodes.usedAt))).orderBy(desc(twoFactorCodes.createdAt));
    expect(latest!.purpose).toBe('SignIn');
    const res = await t.call(access, 'POST', `/api/users/${me.id}/verifycode`, { code: await mailedCode(t, userName) });
    expect(res.json()).toEqual({ verified: true, message: text.codeVerified });
  });
});

describe('removal by administrators', () => {
  const t = useTestApp();
  const userName = 'user@riverview.example.org';

  const enrol = async () => {
    const setup = (await t.call(userName, 'GET', '/api/users/enabletokenauth')).json();
    later(t, 60_000);
    expect((await t.call(userName, 'POST', '/api/users/enabletokenauth', { code: totpCode(setup.secret, t.clock.now) })).statusCode).toBe(200);
  };

  it("lets the organization's Administrator remove it (audit and mail); a User gets 403, another organization 404", async () => {
    await enrol();
    const user = await userRow(t, userName);
    expect((await t.call('user@lakeside.example.org', 'DELETE', `/api/users/${user.id}/authenticators`)).statusCode).toBe(403);
    expect((await t.call('admin@lakeside.example.org', 'DELETE', `/api/users/${user.id}/authenticators`)).statusCode).toBe(404);
    const res = await t.call('admin@riverview.example.org', 'DELETE', `/api/users/${user.id}/authenticators`);
    expect(res.statusCode).toBe(200);
    expect(await userRow(t, userName)).toMatchObject({ twoFactorEnabled: false, tokenAuthEnabled: false, twoFactorSecret: null });
    expect(await t.handle.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toHaveLength(0);
    expect(await auditTypes(t, (await userRow(t, 'admin@riverview.example.org')).id)).toContain('UserAuthenticatorsRemoved');
    const [mail] = await mailsTo(t, user.email, 'TwoFactorRemoved');
    expect(mail!.subject).toBe(text.removedMailSubject);
    expect(mail!.textBody).toContain('An administrator turned off two-factor sign-in');
  });

  it('lets a system administrator disable it (audit and mail); an Administrator gets 403, an unknown user 404', async () => {
    later(t, 60_000);
    await enrol();
    const user = await userRow(t, userName);
    expect((await t.call('admin@riverview.example.org', 'POST', `/api/admin/users/${user.id}/2fa/disable`)).statusCode).toBe(403);
    expect((await t.call('sysadmin@example.org', 'POST', '/api/admin/users/00000000-0000-4000-8000-000000000000/2fa/disable')).statusCode).toBe(404);
    const res = await t.call('sysadmin@example.org', 'POST', `/api/admin/users/${user.id}/2fa/disable`);
    expect(res.statusCode).toBe(200);
    expect(await userRow(t, userName)).toMatchObject({ twoFactorEnabled: false, tokenAuthEnabled: false, twoFactorSecret: null });
    expect(await auditTypes(t, (await userRow(t, 'sysadmin@example.org')).id)).toContain('UserTwoFactorDisabled');
    expect(await mailsTo(t, user.email, 'TwoFactorRemoved')).toHaveLength(2);
  });
});

describe('mandatory enrolment for administrators (REQUIRE_ADMIN_TWO_FACTOR=true)', () => {
  const t = useTestApp({ config: { REQUIRE_ADMIN_TWO_FACTOR: 'true' } });

  it('signs an Administrator in restricted: the profile says so and other calls answer 403', async () => {
    const admin = 'admin@riverview.example.org';
    const profile = await t.call(admin, 'GET', '/api/users/profiledata');
    expect(profile.json().twoFactorEnrolmentRequired).toBe(true);
    expect((await t.call(admin, 'GET', '/api/users/current')).statusCode).toBe(200);
    expect((await t.call(admin, 'GET', '/api/features')).statusCode).toBe(200);
    const refused = await t.call(admin, 'GET', '/api/users');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: messages.twoFactorEnrolmentRequired });

    const setup = (await t.call(admin, 'GET', '/api/users/enabletokenauth')).json();
    expect((await t.call(admin, 'POST', '/api/users/enabletokenauth', { code: totpCode(setup.secret, t.clock.now) })).statusCode).toBe(200);
    expect((await t.call(admin, 'GET', '/api/users/profiledata')).json().twoFactorEnrolmentRequired).toBe(false);
    expect((await t.call(admin, 'GET', '/api/users')).statusCode).toBe(200);
  });

  it('restricts a system administrator too, and never a User', async () => {
    expect((await t.call('sysadmin@example.org', 'GET', '/api/admin/users')).json()).toEqual({ message: messages.twoFactorEnrolmentRequired });
    const user = await t.call('user@riverview.example.org', 'GET', '/api/users/profiledata');
    expect(user.json().twoFactorEnrolmentRequired).toBe(false);
    expect((await t.call('user@riverview.example.org', 'GET', '/api/intakerules')).statusCode).toBe(200);
  });

  it('lets the restricted administrator sign out', async () => {
    const { accessToken } = await t.login('admin@lakeside.example.org');
    expect((await t.call(accessToken, 'POST', '/api/account/logout')).statusCode).toBe(200);
  });

  it('applies again once two-factor is off', async () => {
    const admin = await userRow(t, 'admin@riverview.example.org');
    await t.handle.db.update(users).set({ twoFactorEnabled: false }).where(eq(users.id, admin.id));
    clearSessionCache(t.handle.db);
    expect((await t.call('admin@riverview.example.org', 'GET', '/api/users')).statusCode).toBe(403);
  });
});

describe('mandatory enrolment off (the test default)', () => {
  const t = useTestApp();
  it('leaves administrators unrestricted', async () => {
    expect((await t.call('admin@riverview.example.org', 'GET', '/api/users/profiledata')).json().twoFactorEnrolmentRequired).toBe(false);
    expect((await t.call('admin@riverview.example.org', 'GET', '/api/users')).statusCode).toBe(200);
    expect((await t.call('sysadmin@example.org', 'GET', '/api/admin/users')).statusCode).toBe(200);
  });
});

describe('REQUIRE_ADMIN_TWO_FACTOR', () => {
  it('defaults to on except in development, and can be set either way', () => {
    expect(testConfig({ REQUIRE_ADMIN_TWO_FACTOR: '' }).requireAdminTwoFactor).toBe(true);
    expect(testConfig({ NODE_ENV: 'development', REQUIRE_ADMIN_TWO_FACTOR: '' }).requireAdminTwoFactor).toBe(false);
    expect(testConfig({ NODE_ENV: 'development', REQUIRE_ADMIN_TWO_FACTOR: 'true' }).requireAdminTwoFactor).toBe(true);
    expect(testConfig().requireAdminTwoFactor).toBe(false);
    expect(() => testConfig({ REQUIRE_ADMIN_TWO_FACTOR: 'yes' })).toThrow(/REQUIRE_ADMIN_TWO_FACTOR/);
  });
});
