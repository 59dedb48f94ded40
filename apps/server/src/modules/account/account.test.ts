import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { totpCode } from '../../platform/auth/totp.ts';
import { useTestApp, TEST_PASSWORD, type TestContext } from '../../test/app.ts';
import { clearSessionCache } from '../../platform/auth/guard.ts';

const login = (t: TestContext, userName: string, password: string, code?: string) =>
  t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName, password, ...(code ? { code } : {}) } });

const minutes = (n: number) => n * 60_000;

describe('sign-in', () => {
  const t = useTestApp();

  it('gives a bearer token pair for the right password', async () => {
    const res = await login(t, 'admin@lakeside.example.org', TEST_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ accessToken: expect.any(String), tokenType: 'Bearer', expiresIn: 900, refreshToken: expect.any(String) });
    expect(body.accessToken.split('.')).toHaveLength(3);
  });

  it('accepts the user name in any case', async () => {
    expect((await login(t, 'Admin@Lakeside.Example.org', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('answers the same for a wrong password and an unknown user', async () => {
    const wrong = await login(t, 'admin@riverview.example.org', 'not-the-password');
    const unknown = await login(t, 'nobody@example.org', 'whatever-password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid user name or password.' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('refuses an empty user name with a validation message', async () => {
    const res = await login(t, '', 'x');
    expect(res.statusCode).toBe(400);
    expect(res.json().modelState.userName).toEqual(['Username is required.']);
  });

  it('locks the account for 10 minutes after 3 failed attempts, even for the right password', async () => {
    const user = 'user@riverview.example.org';
    expect((await login(t, user, 'wrong-1')).json().message).toBe(messages.invalidCredentials);
    expect((await login(t, user, 'wrong-2')).json().message).toBe(messages.invalidCredentials);
    const third = await login(t, user, 'wrong-3');
    expect(third.statusCode).toBe(401);
    expect(third.json()).toEqual({ message: 'Your account is locked for 10 minutes after 3 failed login attempts.' });
    const right = await login(t, user, TEST_PASSWORD);
    expect(right.statusCode).toBe(401);
    expect(right.json().message).toBe(messages.accountLocked);

    t.clock.now = new Date(Date.now() + minutes(11));
    try {
      expect((await login(t, user, TEST_PASSWORD)).statusCode).toBe(200);
    } finally {
      t.clock.now = new Date();
    }
  });

  it('locks unknown user names the same way, so lockout does not reveal who exists', async () => {
    for (let i = 0; i < 2; i++) await login(t, 'ghost@example.org', 'wrong');
    expect((await login(t, 'ghost@example.org', 'wrong')).json().message).toBe(messages.accountLocked);
  });

  it('resets the failure count after a successful sign-in', async () => {
    const user = 'admin@oakwood.example.org';
    await login(t, user, 'wrong-1');
    await login(t, user, 'wrong-2');
    expect((await login(t, user, TEST_PASSWORD)).statusCode).toBe(200);
    await login(t, user, 'wrong-3');
    await login(t, user, 'wrong-4');
    expect((await login(t, user, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a disabled user with a clear message', async () => {
    await t.handle.db.update(users).set({ isDisabled: true }).where(eq(users.userName, 'user@oakwood.example.org'));
    const res = await login(t, 'user@oakwood.example.org', TEST_PASSWORD);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: messages.userDisabled });
    await t.handle.db.update(users).set({ isDisabled: false }).where(eq(users.userName, 'user@oakwood.example.org'));
  });

  it('refuses members of an organization whose login ability is disabled', async () => {
    await t.handle.db.update(organizations).set({ isEnabled: false }).where(eq(organizations.subdomain, 'hillcrest'));
    const res = await login(t, 'admin@hillcrest.example.org', TEST_PASSWORD);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: messages.organizationLoginDisabled });
    await t.handle.db.update(organizations).set({ isEnabled: true }).where(eq(organizations.subdomain, 'hillcrest'));
  });

  it('asks for a verification code when two-factor is on, and accepts the right one', async () => {
    const secret = 'JBSWY3DPEHPK3PXP';
    await t.handle.db.update(users).set({ twoFactorEnabled: true, twoFactorSecret: secret }).where(eq(users.userName, 'admin@riverview.example.org'));
    const none = await login(t, 'admin@riverview.example.org', TEST_PASSWORD);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ message: 'A verification code is required.', twoFactorRequired: true, twoFactorMethod: 'App' });
    const wrong = await login(t, 'admin@riverview.example.org', TEST_PASSWORD, '000000');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'A verification code is required.', twoFactorRequired: true, twoFactorMethod: 'App' });
    const right = await login(t, 'admin@riverview.example.org', TEST_PASSWORD, totpCode(secret, new Date()));
    expect(right.statusCode).toBe(200);
    await t.handle.db.update(users).set({ twoFactorEnabled: false, twoFactorSecret: null }).where(eq(users.userName, 'admin@riverview.example.org'));
  });

  it('stores passwords as argon2id hashes', async () => {
    const [row] = await t.handle.db.select({ hash: users.passwordHash }).from(users).where(eq(users.userName, 'admin@lakeside.example.org'));
    expect(row!.hash).toMatch(/^\$argon2id\$/);
  });

  it('writes audit events for sign-in, failure and lockout with user, IP and time', async () => {
    const rows = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.userName, 'user@riverview.example.org'));
    const types = rows.map((r) => r.eventType);
    expect(types).toEqual(expect.arrayContaining(['LoginFailed', 'AccountLockedOut', 'LoginRefusedLocked', 'Login']));
    const signIn = rows.find((r) => r.eventType === 'Login')!;
    expect(signIn.userId).toEqual(expect.any(String));
    expect(signIn.organizationId).toEqual(expect.any(String));
    expect(signIn.ip).toBe('127.0.0.1');
    expect(signIn.createdAt).toBeInstanceOf(Date);
  });
});

describe('tokens and sessions', () => {
  const t = useTestApp();

  const profile = (token: string) => t.call(token, 'GET', '/api/users/profiledata');
  const refresh = (refreshToken: string) => t.app.inject({ method: 'POST', url: '/api/account/refresh', payload: { refreshToken } });

  it('rotates refresh tokens: each gives a new working pair once', async () => {
    const first = await t.login('user@lakeside.example.org');
    const res = await refresh(first.refreshToken);
    expect(res.statusCode).toBe(200);
    const second = res.json();
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect((await profile(second.accessToken)).statusCode).toBe(200);
  });

  it('revokes the whole session when a used refresh token is presented again', async () => {
    const first = await t.login('user@lakeside.example.org');
    const second = (await refresh(first.refreshToken)).json();
    const reuse = await refresh(first.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ message: 'Token revoked or expired.' });
    expect((await profile(second.accessToken)).json()).toEqual({ message: 'Token revoked or expired.' });
    expect((await refresh(second.refreshToken)).statusCode).toBe(401);
    const audit = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'RefreshTokenReuse'));
    expect(audit).toHaveLength(1);
  });

  it('refuses an unknown refresh token', async () => {
    expect((await refresh('not-a-token')).statusCode).toBe(401);
  });

  it('logout revokes the session: the access and refresh tokens stop working', async () => {
    const pair = await t.login('admin@lakeside.example.org');
    // The session is in the session cache when the logout comes.
    expect((await profile(pair.accessToken)).statusCode).toBe(200);
    const out = await t.call(pair.accessToken, 'POST', '/api/account/logout');
    expect(out.statusCode).toBe(200);
    const after = await profile(pair.accessToken);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: 'Token revoked or expired.' });
    expect((await refresh(pair.refreshToken)).statusCode).toBe(401);
    const audit = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'Logout'));
    expect(audit.length).toBeGreaterThan(0);
  });

  it('access tokens expire after 15 minutes', async () => {
    const pair = await t.login('user@lakeside.example.org');
    t.clock.now = new Date(Date.now() + minutes(16));
    try {
      const res = await profile(pair.accessToken);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Token revoked or expired.' });
    } finally {
      t.clock.now = new Date();
    }
  });

  it('refuses a token signed with another key or tampered with', async () => {
    const pair = await t.login('user@lakeside.example.org');
    const [h, p] = pair.accessToken.split('.');
    expect((await profile(`${h}.${p}.invalidsignature`)).statusCode).toBe(401);
  });

  it('disabling a user takes effect on the next request', async () => {
    const pair = await t.login('user@riverview.example.org');
    expect((await profile(pair.accessToken)).statusCode).toBe(200);
    await t.handle.db.update(users).set({ isDisabled: true }).where(eq(users.userName, 'user@riverview.example.org'));
    // A change written past the API (the routes that disable users empty the session cache as they answer).
    clearSessionCache(t.handle.db);
    expect((await profile(pair.accessToken)).statusCode).toBe(401);
    await t.handle.db.update(users).set({ isDisabled: false }).where(eq(users.userName, 'user@riverview.example.org'));
    clearSessionCache(t.handle.db);
  });

  it('a request that may change a session or a user empties the session cache; a search does not', async () => {
    const pair = await t.login('user@riverview.example.org');
    expect((await profile(pair.accessToken)).statusCode).toBe(200);
    // Disabled by another server process: this one still holds the session for up to 2 s...
    await t.handle.db.update(users).set({ isDisabled: true }).where(eq(users.userName, 'user@riverview.example.org'));
    try {
      expect((await t.call(pair.accessToken, 'POST', '/api/directory/search', { lastName: 'a' })).statusCode).toBe(200);
      // ...until any write here (another user's, refused or not) empties the cache.
      expect((await t.call('user@lakeside.example.org', 'POST', '/api/intakerules', {})).statusCode).toBe(403);
      expect((await profile(pair.accessToken)).statusCode).toBe(401);
    } finally {
      await t.handle.db.update(users).set({ isDisabled: false }).where(eq(users.userName, 'user@riverview.example.org'));
      clearSessionCache(t.handle.db);
    }
  });
});

describe('per-IP rate limit on sign-in', () => {
  const t = useTestApp({ config: { LOGIN_RATE_LIMIT_PER_MINUTE: '3' } });

  it('answers 429 in the error shape once the limit is passed', async () => {
    for (let i = 0; i < 3; i++) await login(t, `someone${i}@example.org`, 'x');
    const res = await login(t, 'someone@example.org', 'x');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ message: messages.tooManyRequests });
  });
});
