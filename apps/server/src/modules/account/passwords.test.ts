import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminUserMessages } from '@clinicrelay/contracts/admin-users.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { passwordMessages } from '@clinicrelay/contracts/passwords.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { loadBreachedPasswords, passwordProblem } from '../../platform/auth/password-policy.ts';
import { totpCode } from '../../platform/auth/totp.ts';
import { createTestApp, TEST_PASSWORD, useTestApp, type TestContext } from '../../test/app.ts';

const NEW_PASSWORD = 'Granite-Harbor-Lantern-62';

const signIn = (t: TestContext, userName: string, password: string, code?: string) =>
  t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName, password, ...(code ? { code } : {}) } });
const withToken = (t: TestContext, token: string | null, url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
const mailsTo = (t: TestContext, address: string, kind: string) =>
  t.handle.db.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, address), eq(mailOutbox.kind, kind))).orderBy(desc(mailOutbox.createdAt));
const linkToken = (body: string) => decodeURIComponent(/\/account\/password\?token=([^\s"<]+)/.exec(body)![1]!);
const auditsOf = (t: TestContext, eventType: string, userName: string) =>
  t.handle.db.select().from(auditEvents).where(and(eq(auditEvents.eventType, eventType), eq(auditEvents.userName, userName)));

describe('the password policy', () => {
  it('takes 8 to 128 characters of any kind', async () => {
    expect(await passwordProblem('Sq7#kp2')).toBe(passwordMessages.tooShort);
    expect(await passwordProblem('Sq7#kp2!x')).toBeNull();
    const long = 'Kv9!mQ2#xR7$'.repeat(11).slice(0, 128);
    expect(await passwordProblem(long)).toBeNull();
    expect(await passwordProblem(`${long}z`)).toBe(passwordMessages.tooLong);
    expect(await passwordProblem('ünïcödé pässwörd 雪山 ✓')).toBeNull();
    expect(await passwordProblem('four spaced words here')).toBeNull();
  });

  it('refuses commonly used passwords and trivial variations of them', async () => {
    for (const common of ['12345678910x', 'Sunshine1!x', 'monkey12345'])
      expect(await passwordProblem(common), common).toBe('This password is too common. Choose another one.');
  });

  it('refuses breached passwords (SecLists, ≥ 200,000 of 8 characters or more), in any case', async () => {
    for (const breached of ['qwertyuiop', '1q2w3e4r5t', 'sunshine', 'vfrcbvjd', 'VFRCBVJD', 'gettysbu', 'newmexico', 'NewMexico'])
      expect(await passwordProblem(breached), breached).toBe(passwordMessages.breached);
    expect((await loadBreachedPasswords()).size).toBeGreaterThan(200_000);
  });

  it('refuses a season, month or product word with a year or number (issue 26)', async () => {
    for (const guessable of ['Summer2023!', 'Winter2023!', 'Welcome2024!', 'Changeme123!', 'Admin@123', 'Password1!', 'P@ssw0rd2024', 'Clinicrelay2026!', '2024Autumn!', 'December-2025'])
      expect(await passwordProblem(guessable), guessable).toBe(passwordMessages.wordAndYear);
    for (const fine of ['Summertime-Harbor-2023!', 'Granite-Harbor-Lantern-62', 'Xq-Harbor-2026!']) expect(await passwordProblem(fine), fine).toBeNull();
  });

  it('refuses a password containing the user name (the email’s local part, any case)', async () => {
    expect(await passwordProblem('Xq-Dana.Reed-2026', 'dana.reed@lakeside.example.org')).toBe('Password must not contain your user name.');
    expect(await passwordProblem('Xq-DANA.REED-2026', 'Dana.Reed@Lakeside.example.org')).toBe(passwordMessages.containsUserName);
    expect(await passwordProblem('Xq-Harbor-2026!', 'dana.reed@lakeside.example.org')).toBeNull();
  });

  it('lets the demo password through (the seed uses it)', async () => {
    expect(await passwordProblem(TEST_PASSWORD, 'admin@lakeside.example.org')).toBeNull();
  });
});

describe('POST /api/account/changepassword', () => {
  const t = useTestApp();
  const change = (token: string | null, body: Record<string, unknown>) => withToken(t, token, '/api/account/changepassword', body);
  const body = (overrides: Record<string, unknown> = {}) => ({ currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, ...overrides });

  it('needs a session', async () => {
    const res = await change(null, body());
    expect(res.statusCode).toBe(401);
  });

  it('validates every field with its message', async () => {
    const { accessToken } = await t.login('user@riverview.example.org');
    const fields = async (b: Record<string, unknown>) => (await change(accessToken, b)).json().modelState;
    expect(await fields(body({ currentPassword: '' }))).toMatchObject({ currentPassword: [passwordMessages.currentRequired] });
    expect(await fields(body({ newPassword: '', confirmPassword: '' }))).toMatchObject({ newPassword: [adminUserMessages.passwordRequired], confirmPassword: [adminUserMessages.confirmPasswordRequired] });
    expect(await fields(body({ confirmPassword: 'Something-else-1' }))).toEqual({ confirmPassword: [adminUserMessages.passwordsDoNotMatch] });
    expect(await fields(body({ newPassword: 'short', confirmPassword: 'short' }))).toEqual({ newPassword: [passwordMessages.tooShort] });
    expect(await fields(body({ newPassword: 'password123', confirmPassword: 'password123' }))).toEqual({ newPassword: [passwordMessages.wordAndYear] });
    expect(await fields(body({ newPassword: 'Summer2023!', confirmPassword: 'Summer2023!' }))).toEqual({ newPassword: [passwordMessages.wordAndYear] });
    expect(await fields(body({ newPassword: 'sunshine', confirmPassword: 'sunshine' }))).toEqual({ newPassword: [passwordMessages.breached] });
    expect(await fields(body({ newPassword: 'My-user@riverview-pass', confirmPassword: 'My-user@riverview-pass' }))).toEqual({ newPassword: [passwordMessages.containsUserName] });
    expect(await fields(body({ newPassword: TEST_PASSWORD, confirmPassword: TEST_PASSWORD }))).toEqual({ newPassword: [passwordMessages.sameAsCurrent] });
    const tooLong = 'x'.repeat(129);
    expect((await change(accessToken, body({ newPassword: tooLong, confirmPassword: tooLong }))).statusCode).toBe(400);
    // None of these changed anything.
    expect((await signIn(t, 'user@riverview.example.org', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a wrong current password, and three wrong ones lock the account like sign-in does', async () => {
    const userName = 'admin@hillcrest.example.org';
    const { accessToken } = await t.login(userName);
    // Attempts are ordered by time: each one a second after the last, as a person would type them.
    const tick = () => (t.clock.now = new Date(t.clock.now.getTime() + 1_000));
    for (const attempt of [1, 2]) {
      tick();
      const res = await change(accessToken, body({ currentPassword: `Wrong-pass-${attempt}` }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'The current password is incorrect.', modelState: { currentPassword: ['The current password is incorrect.'] } });
    }
    tick();
    const third = await change(accessToken, body({ currentPassword: 'Wrong-pass-3' }));
    expect(third.json().message).toBe(messages.accountLocked);
    expect((await change(accessToken, body())).json().message).toBe(messages.accountLocked);
    expect((await signIn(t, userName, TEST_PASSWORD)).json().message).toBe(messages.accountLocked);
    expect(await auditsOf(t, 'PasswordChangeFailed', userName)).toHaveLength(2);
    expect(await auditsOf(t, 'AccountLockedOut', userName)).toHaveLength(1);
  });

  it('changes the password: the other sessions end, this one stays, the user gets a mail without secrets', async () => {
    const userName = 'user@lakeside.example.org';
    const other = await t.login(userName);
    const mine = await t.login(userName);
    const res = await change(mine.accessToken, body());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Your password has been changed.' });

    expect((await withToken(t, other.accessToken, '/api/account/logout', undefined)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/account/refresh', payload: { refreshToken: other.refreshToken } })).statusCode).toBe(401);

    expect((await signIn(t, userName, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(t, userName, NEW_PASSWORD)).statusCode).toBe(200);

    const [user] = await t.handle.db.select().from(users).where(eq(users.userName, userName));
    expect(user!.passwordChangedAt).toEqual(t.clock.now);
    const [audit] = await auditsOf(t, 'PasswordChanged', userName);
    expect(audit!.details).toEqual({ otherSessionsEnded: 1 });
    const [mail] = await mailsTo(t, user!.email, 'PasswordChanged');
    expect(mail!.subject).toBe('Your ClinicRelay password was changed');
    expect(mail!.textBody).toContain('If you did not change it, reset your password now');
    expect(mail!.textBody).toContain('/account/forgot-password');
    for (const secret of [NEW_PASSWORD, TEST_PASSWORD, 'token=']) {
      expect(mail!.textBody).not.toContain(secret);
      expect(mail!.htmlBody).not.toContain(secret);
    }
    // The session that made the change is still signed in.
    expect((await withToken(t, mine.accessToken, '/api/account/logout', undefined)).statusCode).toBe(200);
  });
});

describe('forgotten password: POST /api/users/resetpassword without a session', () => {
  const t = useTestApp();
  const requestReset = (userName: unknown) => withToken(t, null, '/api/users/resetpassword', { userName });
  const setPassword = (token: string, password: string) => t.app.inject({ method: 'POST', url: '/api/account/password', payload: { token, password, confirmPassword: password } });
  const resetLink = async (userName: string) => {
    const res = await requestReset(userName);
    expect(res.statusCode, res.body).toBe(200);
    return linkToken((await mailsTo(t, userName, 'PasswordReset'))[0]!.textBody);
  };
  const nextMinute = () => {
    t.clock.now = new Date(t.clock.now.getTime() + 61_000);
  };

  it('answers the same text, in the same time, whether or not the account exists; mails only an existing, enabled account', async () => {
    const timed = async (userName: string) => {
      const started = performance.now();
      const res = await requestReset(userName);
      return { res, ms: performance.now() - started };
    };
    const known = await timed('admin@riverview.example.org');
    const unknown = await timed('nobody@riverview.example.org');
    await t.handle.db.update(users).set({ isDisabled: true }).where(eq(users.userName, 'netadmin@example.org'));
    const disabled = await timed('netadmin@example.org');
    for (const { res } of [known, unknown, disabled]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: passwordMessages.resetRequested });
    }
    for (const { ms } of [known, unknown, disabled]) expect(ms).toBeGreaterThanOrEqual(390);
    expect(Math.abs(known.ms - unknown.ms)).toBeLessThan(150);
    expect(await mailsTo(t, 'admin@riverview.example.org', 'PasswordReset')).toHaveLength(1);
    expect(await mailsTo(t, 'nobody@riverview.example.org', 'PasswordReset')).toHaveLength(0);
    expect(await mailsTo(t, 'netadmin@example.org', 'PasswordReset')).toHaveLength(0);
    expect(await auditsOf(t, 'PasswordResetRequested', 'nobody@riverview.example.org')).toHaveLength(1);
  });

  it('asks for the email', async () => {
    const res = await requestReset('  ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Email is required.', modelState: { userName: ['Email is required.'] } });
    expect((await withToken(t, null, '/api/users/resetpassword', {})).json().message).toBe('Email is required.');
  });

  it('sends at most one reset mail a minute to the same account, with the same answer', async () => {
    nextMinute();
    await requestReset('user@oakwood.example.org');
    const again = await requestReset('User@Oakwood.example.org');
    expect(again.json()).toEqual({ message: passwordMessages.resetRequested });
    expect(await mailsTo(t, 'user@oakwood.example.org', 'PasswordReset')).toHaveLength(1);
  });

  it('the link sets a password that follows the rules, works once, and ends every session', async () => {
    nextMinute();
    const userName = 'user@riverview.example.org';
    const before = await t.login(userName);
    const token = await resetLink(userName);
    expect((await setPassword(token, 'password123')).json()).toEqual({ message: passwordMessages.wordAndYear, modelState: { password: [passwordMessages.wordAndYear] } });
    expect((await setPassword(token, 'Summer2023!')).json().modelState).toEqual({ password: [passwordMessages.wordAndYear] });
    expect((await setPassword(token, 'qwertyuiop')).json().modelState).toEqual({ password: [passwordMessages.breached] });
    expect((await setPassword(token, 'x-user@riverview-9')).json().modelState).toEqual({ password: [passwordMessages.containsUserName] });
    // A refused password does not use the link up.
    const set = await setPassword(token, NEW_PASSWORD);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ message: adminUserMessages.passwordSet });
    const again = await setPassword(token, 'Another-Quartz-Meadow-5');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(adminUserMessages.linkInvalid);
    expect((await signIn(t, userName, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/account/refresh', payload: { refreshToken: before.refreshToken } })).statusCode).toBe(401);
    expect(await auditsOf(t, 'PasswordReset', userName)).toHaveLength(1);
    expect(await mailsTo(t, userName, 'PasswordChanged')).toHaveLength(1);
  });

  it('the link expires after an hour', async () => {
    nextMinute();
    const token = await resetLink('admin@oakwood.example.org');
    const start = t.clock.now;
    try {
      t.clock.now = new Date(start.getTime() + 61 * 60_000);
      const late = await setPassword(token, NEW_PASSWORD);
      expect(late.statusCode).toBe(400);
      expect(late.json()).toEqual({ message: adminUserMessages.linkInvalid, modelState: { token: [adminUserMessages.linkInvalid] } });
      t.clock.now = new Date(start.getTime() + 59 * 60_000);
      expect((await setPassword(token, NEW_PASSWORD)).statusCode).toBe(200);
    } finally {
      t.clock.now = new Date(start.getTime() + 2 * 3_600_000);
    }
  });

  it('never turns off two-factor sign-in', async () => {
    nextMinute();
    const userName = 'admin@lakeside.example.org';
    const secret = 'JBSWY3DPEHPK3PXP';
    await t.handle.db.update(users).set({ twoFactorEnabled: true, twoFactorSecret: secret, lastTotpStep: null }).where(eq(users.userName, userName));
    const token = await resetLink(userName);
    expect((await setPassword(token, NEW_PASSWORD)).statusCode).toBe(200);
    const [user] = await t.handle.db.select().from(users).where(eq(users.userName, userName));
    expect(user).toMatchObject({ twoFactorEnabled: true, twoFactorSecret: secret });
    const withoutCode = await signIn(t, userName, NEW_PASSWORD);
    expect(withoutCode.statusCode).toBe(401);
    expect(withoutCode.json()).toMatchObject({ message: messages.twoFactorRequired, twoFactorRequired: true });
    expect((await signIn(t, userName, NEW_PASSWORD, totpCode(secret, t.clock.now))).statusCode).toBe(200);
  });

  it('keeps the administrators’ {id} form: roles, organizations and validation', async () => {
    const [riverview] = await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'riverview'));
    expect(riverview).toBeDefined();
    // Morgan (a User of Riverview and Lakeside) still has the demo password in this file's story.
    const [morgan] = await t.handle.db.select({ id: users.id }).from(users).where(eq(users.userName, 'multi@example.org'));
    const asAdmin = await t.call('admin@riverview.example.org', 'POST', '/api/users/resetpassword', { id: morgan!.id });
    expect(asAdmin.json()).toEqual({ message: adminUserMessages.passwordResetSent });
    expect((await t.call('sysadmin@example.org', 'POST', '/api/users/resetpassword', { id: morgan!.id })).statusCode).toBe(200);
    expect((await t.call('multi@example.org', 'POST', '/api/users/resetpassword', { id: morgan!.id })).statusCode).toBe(403);
    expect((await t.call('admin@hillcrest.example.org', 'POST', '/api/users/resetpassword', { id: morgan!.id })).statusCode).toBe(404);
    const noId = await t.call('admin@riverview.example.org', 'POST', '/api/users/resetpassword', { userName: 'multi@example.org' });
    expect(noId.statusCode).toBe(400);
    expect(noId.json().message).toBe(passwordMessages.userIdRequired);
    // A bad token is refused, not taken for the anonymous form.
    expect((await withToken(t, 'not-a-token', '/api/users/resetpassword', { userName: 'user@riverview.example.org' })).statusCode).toBe(401);
  });

  it('administrators creating a user with a password follow the rules too', async () => {
    const [lakeside] = await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    const createDana = (password: string) =>
      t.call('sysadmin@example.org', 'POST', '/api/admin/users', {
        userDetails: { userName: 'dana.reed@lakeside.example.org', firstName: 'Dana', lastName: 'Reed', email: '', roleName: 'User', primaryJobFunction: { id: 1 } },
        password,
        confirmPassword: password,
        organizationId: lakeside!.id,
        emailCreatePassword: false,
      });
    const res = await createDana('sunshine1');
    expect(res.statusCode).toBe(400);
    expect(res.json().modelState).toEqual({ password: [passwordMessages.breached] });
    const guessable = await createDana('Summer2023!');
    expect(guessable.statusCode).toBe(400);
    expect(guessable.json().modelState).toEqual({ password: [passwordMessages.wordAndYear] });
  });
});

describe('the forgotten-password request is rate-limited', () => {
  it('answers 429 past the per-minute limit', async () => {
    const t = await createTestApp({ config: { LOGIN_RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await withToken(t, null, '/api/users/resetpassword', { userName: 'nobody@example.org' })).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await t.close();
    }
  });
});
