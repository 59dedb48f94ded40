import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { loginAttempts } from '../../db/schema/auth.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { totpCode } from '../../platform/auth/totp.ts';
import { buildApp } from '../../app.ts';
import { testConfig, useTestApp, TEST_PASSWORD, type TestContext } from '../../test/app.ts';
import { clearSessionCache } from '../../platform/auth/guard.ts';

const login = (t: TestContext, userName: string, password: string, code?: string) =>
  t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName, password, ...(code ? { code } : {}) } });
const refresh = (t: TestContext, refreshToken: string) => t.app.inject({ method: 'POST', url: '/api/account/refresh', payload: { refreshToken } });
const profile = (t: TestContext, token: string) => t.call(token, 'GET', '/api/users/profiledata');
const minutes = (n: number) => n * 60_000;

describe('concurrent sign-ins of one user name', () => {
  const t = useTestApp();

  it('evaluates at most 3 failures before the lock holds: no token, only the invalid and locked texts', async () => {
    const userName = 'user@lakeside.example.org';
    // The right password somewhere after the third attempt, in random order among 39 wrong ones.
    const right = 10 + Math.floor(Math.random() * 30);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(t, userName, i === right ? TEST_PASSWORD : `Wrong-pass-${i}!`)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(40).fill(401));
    const texts = answers.map((a) => a.json().message as string);
    for (const text of texts) expect([messages.invalidCredentials, messages.accountLocked]).toContain(text);
    expect(texts.filter((m) => m === messages.invalidCredentials)).toHaveLength(2);

    const outcomes = await t.handle.db
      .select({ outcome: loginAttempts.outcome, n: sql<number>`count(*)::int` })
      .from(loginAttempts)
      .where(eq(loginAttempts.userName, userName))
      .groupBy(loginAttempts.outcome);
    expect(Object.fromEntries(outcomes.map((o) => [o.outcome, o.n]))).toEqual({ failure: 2, lockout: 1, locked: 37 });
  });

  it('holds across server processes on one database (the advisory lock, not only the in-process queue)', async () => {
    const userName = 'admin@lakeside.example.org';
    const other = await buildApp({ config: testConfig(), db: t.handle.db, now: () => t.clock.now, logger: false });
    try {
      const right = 10 + Math.floor(Math.random() * 30);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? other : t.app).inject({ method: 'POST', url: '/api/account/login', payload: { userName, password: i === right ? TEST_PASSWORD : `Wrong-pass-${i}!` } }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(40).fill(401));
      const outcomes = await t.handle.db
        .select({ outcome: loginAttempts.outcome, n: sql<number>`count(*)::int` })
        .from(loginAttempts)
        .where(eq(loginAttempts.userName, userName))
        .groupBy(loginAttempts.outcome);
      expect(Object.fromEntries(outcomes.map((o) => [o.outcome, o.n]))).toEqual({ failure: 2, lockout: 1, locked: 37 });
    } finally {
      await other.close();
    }
  });
});

describe('two-factor codes', () => {
  const t = useTestApp();
  const userName = 'admin@riverview.example.org';
  const secret = 'JBSWY3DPEHPK3PXP';
  const code = (stepOffset = 0) => totpCode(secret, t.clock.now, stepOffset);
  const attempts = () => t.handle.db.delete(loginAttempts).where(eq(loginAttempts.userName, userName));
  beforeAll(async () => {
    await t.handle.db.update(users).set({ twoFactorEnabled: true, twoFactorSecret: secret }).where(eq(users.userName, userName));
  });

  it('accepts a code once: the same code again is refused', async () => {
    const current = code();
    expect((await login(t, userName, TEST_PASSWORD, current)).statusCode).toBe(200);
    const replay = await login(t, userName, TEST_PASSWORD, current);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ message: messages.twoFactorRequired, twoFactorRequired: true, twoFactorMethod: 'App' });
    await attempts();
  });

  it("refuses the previous step's code once the current one was used, and a code two steps old", async () => {
    t.clock.now = new Date(t.clock.now.getTime() + 120_000);
    try {
      expect((await login(t, userName, TEST_PASSWORD, code())).statusCode).toBe(200);
      expect((await login(t, userName, TEST_PASSWORD, code(-1))).statusCode).toBe(401);
      await attempts();
      t.clock.now = new Date(t.clock.now.getTime() + 120_000);
      expect((await login(t, userName, TEST_PASSWORD, code(-2))).statusCode).toBe(401);
      // One step of drift either way: the next step's code works, and then nothing at or before it.
      expect((await login(t, userName, TEST_PASSWORD, code(1))).statusCode).toBe(200);
      expect((await login(t, userName, TEST_PASSWORD, code())).statusCode).toBe(401);
    } finally {
      t.clock.now = new Date();
      await attempts();
    }
  });

  it('lets only one of two concurrent sign-ins with the same code through', async () => {
    t.clock.now = new Date(Date.now() + 600_000);
    try {
      const current = code();
      const both = await Promise.all([login(t, userName, TEST_PASSWORD, current), login(t, userName, TEST_PASSWORD, current)]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    } finally {
      t.clock.now = new Date();
      await attempts();
    }
  });
});

describe('automatic logoff (SESSION_IDLE_MINUTES 30, SESSION_MAX_HOURS 12)', () => {
  const t = useTestApp();
  const userName = 'user@riverview.example.org';
  const at = (ms: number) => {
    t.clock.now = new Date(ms);
  };
  const restore = () => {
    t.clock.now = new Date();
  };

  it('refuses a refresh after 11 h 50 min of inactivity', async () => {
    const start = t.clock.now.getTime();
    const pair = await t.login(userName);
    try {
      at(start + minutes(11 * 60 + 50));
      const res = await refresh(t, pair.refreshToken);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: messages.tokenRevokedOrExpired });
    } finally {
      restore();
    }
  });

  it('ends a session 30 minutes after its last request; a request or a refresh starts the 30 minutes again', async () => {
    const start = t.clock.now.getTime();
    const pair = await t.login(userName);
    try {
      at(start + minutes(10));
      expect((await profile(t, pair.accessToken)).statusCode).toBe(200);
      // 35 minutes after sign-in but 25 after the last request: still signed in.
      at(start + minutes(35));
      const renewed = await refresh(t, pair.refreshToken);
      expect(renewed.statusCode).toBe(200);
      at(start + minutes(35 + 29));
      const again = await refresh(t, renewed.json().refreshToken);
      expect(again.statusCode).toBe(200);
      const { accessToken, refreshToken } = again.json();
      at(start + minutes(35 + 29 + 14));
      expect((await profile(t, accessToken)).statusCode).toBe(200);
      // 31 minutes without a request.
      at(start + minutes(35 + 29 + 14 + 31));
      expect((await refresh(t, refreshToken)).statusCode).toBe(401);
    } finally {
      restore();
    }
  });

  it('ends an access token with its session when the 30 minutes pass before the token expires', async () => {
    const start = t.clock.now.getTime();
    const pair = await t.login(userName);
    try {
      at(start + 30_000);
      expect((await profile(t, pair.accessToken)).statusCode).toBe(200);
      // As if that request had been 30 minutes ago.
      await t.handle.db.execute(sql`update sessions set last_seen_at = last_seen_at - interval '30 minutes' where user_id = (select id from users where user_name = ${userName})`);
      clearSessionCache(t.handle.db);
      expect((await profile(t, pair.accessToken)).json()).toEqual({ message: messages.tokenRevokedOrExpired });
    } finally {
      restore();
    }
  });

  it('ends every session 12 hours after sign-in, however active', async () => {
    const start = t.clock.now.getTime();
    let pair = await t.login(userName);
    try {
      for (let m = 20; m < 12 * 60; m += 20) {
        at(start + minutes(m));
        const res = await refresh(t, pair.refreshToken);
        expect(res.statusCode, `after ${m} minutes`).toBe(200);
        pair = res.json();
      }
      at(start + minutes(12 * 60));
      expect((await refresh(t, pair.refreshToken)).statusCode).toBe(401);
    } finally {
      restore();
    }
  });
});

describe('automatic logoff with SESSION_IDLE_MINUTES=5 and SESSION_MAX_HOURS=1', () => {
  const t = useTestApp({ config: { SESSION_IDLE_MINUTES: '5', SESSION_MAX_HOURS: '1' } });

  it('applies the configured limits', async () => {
    const start = t.clock.now.getTime();
    const pair = await t.login('user@riverview.example.org');
    try {
      t.clock.now = new Date(start + minutes(6));
      expect((await refresh(t, pair.refreshToken)).statusCode).toBe(401);
      let next = await t.login('user@riverview.example.org');
      for (let m = 10; m < 60; m += 4) {
        t.clock.now = new Date(start + minutes(m));
        const res = await refresh(t, next.refreshToken);
        expect(res.statusCode, `after ${m} minutes`).toBe(200);
        next = res.json();
      }
      t.clock.now = new Date(start + minutes(66));
      expect((await refresh(t, next.refreshToken)).statusCode).toBe(401);
    } finally {
      t.clock.now = new Date();
    }
  });
});

describe('disabling a user or removing their last membership', () => {
  const t = useTestApp();
  const userId = async (userName: string) => (await t.handle.db.select({ id: users.id }).from(users).where(eq(users.userName, userName)))[0]!.id;

  it('revokes every session at once: re-enabling brings no old token back', async () => {
    const userName = 'user@riverview.example.org';
    const first = await t.login(userName);
    const second = await t.login(userName);
    await t.handle.db.update(users).set({ isDisabled: true }).where(eq(users.userName, userName));
    expect((await profile(t, first.accessToken)).statusCode).toBe(401);
    await t.handle.db.update(users).set({ isDisabled: false }).where(eq(users.userName, userName));
    for (const pair of [first, second]) {
      const res = await profile(t, pair.accessToken);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: messages.tokenRevokedOrExpired });
      expect((await refresh(t, pair.refreshToken)).statusCode).toBe(401);
    }
    expect((await profile(t, (await t.login(userName)).accessToken)).statusCode).toBe(200);
  });

  it('revokes every session when the last membership goes: adding it back brings no old token back', async () => {
    const userName = 'user@lakeside.example.org';
    const id = await userId(userName);
    const pair = await t.login(userName);
    const [membership] = await t.handle.db.delete(memberships).where(eq(memberships.userId, id)).returning();
    expect((await profile(t, pair.accessToken)).statusCode).toBe(401);
    await t.handle.db.insert(memberships).values(membership!);
    expect((await profile(t, pair.accessToken)).statusCode).toBe(401);
    expect((await refresh(t, pair.refreshToken)).statusCode).toBe(401);
    expect((await profile(t, (await t.login(userName)).accessToken)).statusCode).toBe(200);
  });

  it('ends the sessions working in an organization the user leaves, and keeps those in the others', async () => {
    const userName = 'multi@example.org';
    const id = await userId(userName);
    const [riverview] = await t.handle.db.select().from(organizations).where(eq(organizations.subdomain, 'riverview'));
    const inLakeside = await t.login(userName);
    const inRiverview = await t.login(userName);
    expect((await t.call(inRiverview.accessToken, 'POST', '/api/account/change', { orgId: riverview!.id })).statusCode).toBe(200);
    const [membership] = await t.handle.db
      .delete(memberships)
      .where(and(eq(memberships.userId, id), eq(memberships.organizationId, riverview!.id)))
      .returning();
    await t.handle.db.insert(memberships).values(membership!);
    expect((await profile(t, inRiverview.accessToken)).statusCode).toBe(401);
    expect((await profile(t, inLakeside.accessToken)).statusCode).toBe(200);
  });

  it('keeps a system administrator signed in when an organization membership goes', async () => {
    const id = await userId('sysadmin@example.org');
    const pair = await t.login('sysadmin@example.org');
    const [lakeside] = await t.handle.db.select().from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    await t.handle.db.insert(memberships).values({ userId: id, organizationId: lakeside!.id, role: 'User' });
    await t.handle.db.delete(memberships).where(eq(memberships.userId, id));
    expect((await profile(t, pair.accessToken)).statusCode).toBe(200);
  });
});

describe('client IP behind one proxy (TRUST_PROXY_HOPS=1)', () => {
  const t = useTestApp({ config: { TRUST_PROXY_HOPS: '1', LOGIN_RATE_LIMIT_PER_MINUTE: '3' } });
  // The proxy (10.0.0.1) appends the address it saw; whatever the client wrote comes before it.
  const viaProxy = (forwardedFor: string, userName: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { userName, password: 'Wrong-pass-1!' },
    });

  it('rate-limits sign-in by the address the proxy saw: rotating the first X-Forwarded-For entry does not bypass it', async () => {
    for (let i = 0; i < 3; i++) expect((await viaProxy(`198.51.100.${i}, 203.0.113.7`, `someone${i}@example.org`)).statusCode).toBe(401);
    const fourth = await viaProxy('198.51.100.99, 203.0.113.7', 'someone3@example.org');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ message: messages.tooManyRequests });
    // Another client behind the same proxy has a budget of its own.
    expect((await viaProxy('203.0.113.8', 'someone4@example.org')).statusCode).toBe(401);
  });

  it('records the address the proxy saw for audit', async () => {
    const [attempt] = await t.handle.db.select({ ip: loginAttempts.ip }).from(loginAttempts).where(eq(loginAttempts.userName, 'someone0@example.org'));
    expect(attempt!.ip).toBe('203.0.113.7');
  });
});

describe('requests an unattended tab makes by itself', () => {
  const t = useTestApp();
  const background = { 'x-session-activity': 'background' };

  it('do not hold off the automatic logoff: background calls and renewals leave the idle time running', async () => {
    const start = t.clock.now.getTime();
    const pair = await t.login('user@riverview.example.org');
    try {
      t.clock.now = new Date(start + minutes(10));
      const list = await t.app.inject({ method: 'GET', url: '/api/users/profiledata', headers: { authorization: `Bearer ${pair.accessToken}`, ...background } });
      expect(list.statusCode).toBe(200);
      t.clock.now = new Date(start + minutes(20));
      const renewed = await t.app.inject({ method: 'POST', url: '/api/account/refresh', headers: background, payload: { refreshToken: pair.refreshToken } });
      expect(renewed.statusCode).toBe(200);
      // 31 minutes after the last request the user made.
      t.clock.now = new Date(start + minutes(31));
      const late = await t.app.inject({ method: 'GET', url: '/api/users/profiledata', headers: { authorization: `Bearer ${renewed.json().accessToken}`, ...background } });
      expect(late.statusCode).toBe(401);
    } finally {
      t.clock.now = new Date();
    }
  });
});

describe('a short idle timeout (SESSION_IDLE_MINUTES=1)', () => {
  const t = useTestApp({ config: { SESSION_IDLE_MINUTES: '1' } });

  it('keeps a user who makes a request every 20 s signed in, and ends the session a minute after the last one (issue 26)', async () => {
    const start = t.clock.now.getTime();
    const pair = await t.login('user@riverview.example.org');
    const profileAt = async (ms: number) => {
      t.clock.now = new Date(start + ms);
      return (await profile(t, pair.accessToken)).statusCode;
    };
    try {
      for (let at = 20_000; at <= 180_000; at += 20_000) expect(await profileAt(at), `after ${at / 1000} s`).toBe(200);
      expect(await profileAt(180_000 + 61_000)).toBe(401);
    } finally {
      t.clock.now = new Date();
    }
  });
});
