import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { passwordMessages } from '@clinicrelay/contracts/passwords.ts';
import { describe, expect, it } from 'vitest';
import { adminUserMessages as text } from '@clinicrelay/contracts/admin-users.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { refreshTokens, sessions } from '../../db/schema/auth.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { testConfig, useTestApp, TEST_PASSWORD } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';
const REPORTING = 'reporting@example.org';
const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const NEW_PASSWORD = 'Kestrel-harbor-42';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

type ListItem = { id: string; userName: string; organizations: string[]; enabled: boolean; isOrgAdmin: boolean; isNetworkAdmin: boolean; isSysAdmin: boolean; roleName: string | null; idProofStatus: string | null };

describe('admin users (back-office-a §7 Users)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-admin-users-'));
  const t = useTestApp({ config: { DATA_DIR: dataDir } });
  const db = () => t.handle.db;
  const userId = async (userName: string) => (await db().select({ id: users.id }).from(users).where(eq(users.userName, userName)))[0]!.id;
  const orgId = async (subdomain: string) => (await db().select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;
  const list = async (query: string) => {
    const res = await t.call(ADMIN, 'GET', `/api/admin/users?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ users: ListItem[]; totalUsersCount: number }>();
  };
  const lastMailTo = async (address: string) => (await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, address)).orderBy(desc(mailOutbox.createdAt)))[0];
  const linkToken = (body: string) => decodeURIComponent(/\/account\/password\?token=([^\s"<]+)/.exec(body)![1]!);
  const signIn = (userName: string, password: string) => t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName, password } });
  const auditsOf = async (eventType: string) => db().select().from(auditEvents).where(eq(auditEvents.eventType, eventType));
  const createBody = async (overrides: Record<string, unknown> = {}, details: Record<string, unknown> = {}) => ({
    userDetails: { userName: 'Dana.Reed@Lakeside.example.org', firstName: 'Dana', lastName: 'Reed', email: '', roleName: 'Administrator', primaryJobFunction: { id: 1 }, ...details },
    password: NEW_PASSWORD,
    confirmPassword: NEW_PASSWORD,
    organizationId: await orgId('lakeside'),
    emailCreatePassword: false,
    ...overrides,
  });

  it('lists users by userName then organization, with organizations, flags and role; searched, paged, filtered', async () => {
    const page = await list('pageNumber=1&pageSize=100');
    const names = page.users.map((u) => u.userName);
    expect(names).toEqual([...names].sort());
    expect(page.totalUsersCount).toBe(page.users.length);
    const multi = page.users.find((u) => u.userName === 'multi@example.org')!;
    expect(multi).toMatchObject({ organizations: ['Lakeside Family Medicine', 'Riverview Cardiology'], enabled: true, isSysAdmin: false, roleName: 'User' });
    expect(page.users.find((u) => u.userName === ADMIN)).toMatchObject({ organizations: [], isSysAdmin: true, isOrgAdmin: false, roleName: 'SysAdmin' });
    expect(page.users.find((u) => u.userName === 'netadmin@example.org')).toMatchObject({ isNetworkAdmin: true, isOrgAdmin: true, roleName: 'Administrator' });

    const paged = await list('pageNumber=2&pageSize=3');
    expect(paged.users.map((u) => u.userName)).toEqual(names.slice(3, 6));
    expect(paged.totalUsersCount).toBe(page.totalUsersCount);
    expect((await list('search=LAKESIDE')).users.map((u) => u.userName)).toEqual(['admin@lakeside.example.org', 'user@lakeside.example.org']);
    expect((await list('sysAdmin=true')).users.map((u) => u.userName)).toEqual([REPORTING, ADMIN]);
    const byOrganization = await list(`sort=${encodeURIComponent(JSON.stringify([{ col: 'organization', dir: 'desc' }, { col: 'userName', dir: 'asc' }]))}&pageSize=100`);
    expect(byOrganization.users[0]!.organizations).toEqual(['Riverview Cardiology']);
    // System users have no organization: last either way.
    expect(byOrganization.users.at(-1)!.isSysAdmin).toBe(true);

    const bad = await t.call(ADMIN, 'GET', `/api/admin/users?sort=${encodeURIComponent('[{"col":"password"}]')}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^Sort is invalid/);
  });

  it('creates an organization user with a password who can sign in at once; the email defaults to the user name', async () => {
    const res = await t.call(ADMIN, 'POST', '/api/admin/users/', await createBody());
    expect(res.statusCode, res.body).toBe(200);
    const made = res.json();
    expect(made).toMatchObject({
      userName: 'dana.reed@lakeside.example.org',
      email: 'dana.reed@lakeside.example.org',
      roleType: 'Organization',
      roleName: 'Administrator',
      isOrgAdmin: true,
      primaryJobFunction: { id: 1 },
      organizations: [{ name: 'Lakeside Family Medicine', role: 'Administrator', jobFunctionId: 1, primaryJobFunction: expect.any(String) }],
      userPreferences: { emailNewMessages: true, emailUnprocessedMessages: false, emailSystemNotifications: true, emailUnassignedMessages: false, emailFailedMessagesDigest: false },
    });
    const signedIn = await signIn('DANA.REED@lakeside.example.org', NEW_PASSWORD);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const audit = (await auditsOf('UserCreated')).find((a) => a.correlationId === made.id)!;
    expect(audit).toMatchObject({ userName: ADMIN, details: { userId: made.id, role: 'Administrator' } });

    // The same user name again, in any case: refused.
    const again = await t.call(ADMIN, 'POST', '/api/admin/users', await createBody({}, { userName: 'Dana.REED@lakeside.example.org' }));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: text.userNameTaken, modelState: { userName: [text.userNameTaken] } });
  });

  it('validates the create form: names, role, job function, organization, and password and confirm unless the email sets it', async () => {
    const fieldsOf = async (body: unknown) => {
      const res = await t.call(ADMIN, 'POST', '/api/admin/users', body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ modelState: Record<string, string[]> }>().modelState;
    };
    expect(await fieldsOf(await createBody({ password: '', confirmPassword: '' }, { firstName: ' ', lastName: '', userName: 'not-an-email' }))).toEqual({
      'userDetails.firstName': [text.firstNameRequired],
      'userDetails.lastName': [text.lastNameRequired],
      'userDetails.userName': [text.userNameInvalid],
      password: [text.passwordRequired],
      confirmPassword: [text.confirmPasswordRequired],
    });
    expect(await fieldsOf(await createBody({ confirmPassword: 'Something-else-1' }))).toEqual({ confirmPassword: [text.passwordsDoNotMatch] });
    expect(await fieldsOf(await createBody({ password: 'short', confirmPassword: 'short' }, { userName: 'x0@example.org' }))).toEqual({ password: ['Password must be at least 8 characters.'] });
    // Issue 26: every problem the server finds comes back at once, not the first one only.
    const all = await t.call(ADMIN, 'POST', '/api/admin/users', await createBody({ password: 'Dana.Reed-Kestrel-42', confirmPassword: 'Dana.Reed-Kestrel-42', organizationId: UNKNOWN }, { primaryJobFunction: { id: 9999 } }));
    expect(all.statusCode).toBe(400);
    expect(all.json().modelState).toEqual({
      password: [passwordMessages.containsUserName],
      userName: [text.userNameTaken],
      organizationId: [text.chooseFromList],
      jobFunctionId: [text.jobFunctionRequired],
    });
    expect(await fieldsOf(await createBody({ organizationId: 'lakeside' }))).toEqual({ organizationId: [text.chooseFromList] });
    expect(await fieldsOf(await createBody({ organizationId: UNKNOWN }, { userName: 'x1@example.org' }))).toEqual({ organizationId: [text.chooseFromList] });
    expect(await fieldsOf(await createBody({}, { userName: 'x2@example.org', primaryJobFunction: { id: 9999 } }))).toEqual({ jobFunctionId: [text.jobFunctionRequired] });
    expect(await fieldsOf(await createBody({}, { roleName: 'SysAdmin' }))).toEqual({ 'userDetails.roleName': [text.roleRequired] });
  });

  it('with "Send account creation email" no password is needed: the mail’s link sets it once, then the user signs in', async () => {
    const res = await t.call(ADMIN, 'POST', '/api/admin/users', await createBody({ password: undefined, confirmPassword: undefined, emailCreatePassword: true }, { userName: 'omar.ali@lakeside.example.org', roleName: 'User' }));
    expect(res.statusCode, res.body).toBe(200);
    expect((await signIn('omar.ali@lakeside.example.org', NEW_PASSWORD)).statusCode).toBe(401);
    const mail = (await lastMailTo('omar.ali@lakeside.example.org'))!;
    expect(mail).toMatchObject({ kind: 'AccountCreation', subject: 'Your ClinicRelay account' });
    const token = linkToken(mail.textBody);

    const mismatch = await t.app.inject({ method: 'POST', url: '/api/account/password', payload: { token, password: NEW_PASSWORD, confirmPassword: 'different-pass-1' } });
    expect(mismatch.json()).toMatchObject({ modelState: { confirmPassword: [text.passwordsDoNotMatch] } });
    // The invitation's link follows the same policy as every other way of setting a password (issue 26).
    const guessable = await t.app.inject({ method: 'POST', url: '/api/account/password', payload: { token, password: 'Summer2023!', confirmPassword: 'Summer2023!' } });
    expect(guessable.json()).toMatchObject({ modelState: { password: [passwordMessages.wordAndYear] } });
    const set = await t.app.inject({ method: 'POST', url: '/api/account/password', payload: { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ message: text.passwordSet });
    expect((await signIn('omar.ali@lakeside.example.org', NEW_PASSWORD)).statusCode).toBe(200);
    // The link works once.
    const reused = await t.app.inject({ method: 'POST', url: '/api/account/password', payload: { token, password: 'Another-pass-77', confirmPassword: 'Another-pass-77' } });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ message: text.linkInvalid, modelState: { token: [text.linkInvalid] } });
    const forged = await t.app.inject({ method: 'POST', url: '/api/account/password', payload: { token: `${token.split('.')[0]}.AAAA`, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD } });
    expect(forged.statusCode).toBe(400);
  });

  it('creates a system user with no organization and a password-creation mail; enables and disables them', async () => {
    const bad = await t.call(ADMIN, 'POST', '/api/admin/sysadmin/', { firstName: 'Sys', lastName: 'Two', userName: 'sys2@example.org', roleName: 'Administrator' });
    expect(bad.json()).toMatchObject({ modelState: { roleName: [text.systemRoleOnly] } });
    const res = await t.call(ADMIN, 'POST', '/api/admin/sysadmin/', { firstName: 'Sys', lastName: 'Two', userName: 'Sys2@example.org', roleName: 'SysAdminReporting' });
    expect(res.statusCode, res.body).toBe(200);
    const made = res.json();
    expect(made).toMatchObject({ userName: 'sys2@example.org', roleType: 'System', roleName: 'SysAdminReporting', isSysAdmin: true, organizationId: null, organizations: [], allRoles: ['SysAdmin', 'SysAdminReporting'] });
    expect(await lastMailTo('sys2@example.org')).toMatchObject({ kind: 'AccountCreation', organizationId: null });

    const off = await t.call(ADMIN, 'PUT', `/api/admin/sysadmin/${made.id}`, { enable: false });
    expect(off.json()).toEqual({ message: text.disabled });
    expect((await t.call(ADMIN, 'GET', `/api/admin/users/${made.id}`)).json()).toMatchObject({ isDisabled: true, disabledDateTime: expect.any(String) });
    expect((await t.call(ADMIN, 'PUT', `/api/admin/sysadmin/${made.id}`, { enable: true })).json()).toEqual({ message: text.enabled });
    // Only system users through this call.
    const org = await t.call(ADMIN, 'PUT', `/api/admin/sysadmin/${await userId('multi@example.org')}`, { enable: false });
    expect(org.json()).toEqual({ message: text.notSystemUser });
    expect((await t.call(ADMIN, 'PUT', `/api/admin/sysadmin/${await userId(ADMIN)}`, { enable: false })).json()).toEqual({ message: text.cannotDisableSelf });
  });

  it('disabling a user ends their sessions at once: the next request is 401 and the refresh token is refused', async () => {
    const leo = await userId(LAKESIDE_USER);
    const tokens = await t.login(LAKESIDE_USER);
    const before = await t.call(tokens.accessToken, 'GET', '/api/users/profiledata');
    expect(before.statusCode).toBe(200);
    const res = await t.call(ADMIN, 'POST', '/api/admin/users/enable', { enable: false, id: leo });
    expect(res.json()).toEqual({ message: text.disabled });
    const after = await t.call(tokens.accessToken, 'GET', '/api/users/profiledata');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: messages.tokenRevokedOrExpired });
    expect((await t.app.inject({ method: 'POST', url: '/api/account/refresh', payload: { refreshToken: tokens.refreshToken } })).statusCode).toBe(401);
    const live = await db().select().from(sessions).where(eq(sessions.userId, leo));
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);
    expect(await db().select().from(refreshTokens).where(eq(refreshTokens.sessionId, live[0]!.id))).toEqual([]);
    expect((await signIn(LAKESIDE_USER, TEST_PASSWORD)).statusCode).toBe(401);
    // Listed only with "show disabled".
    expect((await list('search=user@lakeside')).users).toEqual([]);
    expect((await list('search=user@lakeside&deleted=true')).users[0]).toMatchObject({ enabled: false });
    expect((await auditsOf('UserDisabled')).find((a) => a.correlationId === leo)).toMatchObject({ details: { sessionsRevoked: expect.any(Number) } });

    await t.call(ADMIN, 'POST', '/api/admin/users/enable', { enable: true, id: leo });
    expect((await signIn(LAKESIDE_USER, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await t.call(ADMIN, 'POST', '/api/admin/users/enable', { enable: true, id: UNKNOWN })).statusCode).toBe(404);
  });

  it('reads and edits a user: the User entity, unique user name, email from the user name, notification flags', async () => {
    const id = await userId('user@riverview.example.org');
    const got = await t.call(ADMIN, 'GET', `/api/admin/users/${id}`);
    expect(got.json()).toMatchObject({ userName: 'user@riverview.example.org', twoFactorEnabled: false, tokenAuthEnabled: false, hasUnclaimedSecurityTokens: false, isLockedOut: false, lockoutEnabled: true, phoneNumber: null });
    expect(got.json().jobFunctions.length).toBeGreaterThan(0);
    const prefs = { emailNewMessages: false, emailUnprocessedMessages: true, emailSystemNotifications: false, emailUnassignedMessages: true, emailFailedMessagesDigest: true };
    const put = await t.call(ADMIN, 'PUT', `/api/admin/users/${id}`, { userName: 'Ray.Banks@riverview.example.org', firstName: 'Raymond', lastName: 'Banks', email: '', userPreferences: prefs });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ userName: 'ray.banks@riverview.example.org', email: 'ray.banks@riverview.example.org', firstName: 'Raymond', userPreferences: prefs });
    const taken = await t.call(ADMIN, 'PUT', `/api/admin/users/${id}`, { userName: LAKESIDE_ADMIN, firstName: 'R', lastName: 'B' });
    expect(taken.json()).toEqual({ message: text.userNameTaken, modelState: { userName: [text.userNameTaken] } });
    const role = await t.call(ADMIN, 'PUT', `/api/admin/users/${id}`, { userName: 'ray.banks@riverview.example.org', firstName: 'R', lastName: 'B', roleName: 'SysAdmin' });
    expect(role.json()).toMatchObject({ message: text.notSystemUser });
    expect((await t.call(ADMIN, 'GET', `/api/admin/users/${UNKNOWN}`)).statusCode).toBe(404);
    expect((await auditsOf('UserUpdated')).some((a) => a.correlationId === id)).toBe(true);
  });

  it('shows a lockout and disables two-factor', async () => {
    const id = await userId('user@oakwood.example.org');
    for (let i = 0; i < 3; i++) await signIn('user@oakwood.example.org', 'wrong-password');
    expect((await t.call(ADMIN, 'GET', `/api/admin/users/${id}`)).json()).toMatchObject({ isLockedOut: true });
    await db().update(users).set({ twoFactorEnabled: true, twoFactorSecret: 'JBSWY3DPEHPK3PXP' }).where(eq(users.id, id));
    const res = await t.call(ADMIN, 'POST', `/api/admin/users/${id}/2fa/disable`);
    expect(res.json()).toEqual({ message: text.twoFactorDisabled });
    expect((await db().select().from(users).where(eq(users.id, id)))[0]).toMatchObject({ twoFactorEnabled: false, twoFactorSecret: null });
    expect((await auditsOf('UserTwoFactorDisabled')).length).toBe(1);
  });

  it('ID proofing: status with an optional mail, the uploaded file (404 without one), and resetting the submission', async () => {
    const id = await userId('admin@hillcrest.example.org');
    expect((await t.call(ADMIN, 'GET', `/api/admin/users/${id}/idproof`)).statusCode).toBe(404);
    // The upload is issue 14's; here the file is put in the blob store as it will.
    const blobs = createBlobStore({ db: db(), dataDir, key: testConfig({ DATA_DIR: dataDir }).blobEncryptionKey });
    const stored = await blobs.put(new TextEncoder().encode('%PDF-1.4 id card'), { organizationId: null });
    await db().update(users).set({ idProofBlobId: stored.id, idProofFileName: 'Driver License.pdf', idProofStatus: 'Submitted' }).where(eq(users.id, id));
    expect((await t.call(ADMIN, 'GET', `/api/admin/users/${id}`)).json()).toMatchObject({ idProofFileName: 'Driver License.pdf', idProofStatus: 'Submitted' });
    const file = await t.call(ADMIN, 'GET', `/api/admin/users/${id}/idproof`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe('inline; filename="identification.pdf"');
    expect(file.body).toBe('%PDF-1.4 id card');
    expect((await auditsOf('UserIdProofViewed')).length).toBe(1);
    const res = await t.call(ADMIN, 'POST', '/api/admin/users/idproof', { userId: id, passed: true, sendEmail: true });
    expect(res.json()).toEqual({ message: text.idProofSaved });
    expect((await t.call(ADMIN, 'GET', `/api/admin/users/${id}`)).json()).toMatchObject({ idProofStatus: 'Passed', idProofed: true });
    expect((await db().select().from(organizations).where(eq(organizations.subdomain, 'hillcrest')))[0]!.isIdProofed).toBe(true);
    expect(await lastMailTo('admin@hillcrest.example.org')).toMatchObject({ kind: 'IdProofResult' });
    expect((await list('search=hillcrest')).users[0]).toMatchObject({ idProofStatus: 'Passed' });

    await t.call(ADMIN, 'POST', '/api/admin/users/idproof', { userId: id, passed: false, sendEmail: false });
    expect((await t.call(ADMIN, 'GET', `/api/admin/users/${id}`)).json()).toMatchObject({ idProofStatus: 'Failed', idProofed: false });
    const reset = await t.call(ADMIN, 'POST', `/api/admin/users/${id}/idproof/reset`);
    expect(reset.json()).toEqual({ message: text.idProofReset });
    expect((await t.call(ADMIN, 'GET', `/api/admin/users/${id}`)).json()).toMatchObject({ idProofStatus: null, idProofFileName: null });
    expect((await t.call(ADMIN, 'GET', `/api/admin/users/${id}/idproof`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'POST', '/api/admin/users/idproof', { userId: UNKNOWN, passed: true })).statusCode).toBe(404);
  });

  it('the user organizations modal: list, add, change, remove (never the last one)', async () => {
    const id = await userId('multi@example.org');
    const [lakeside, oakwood] = [await orgId('lakeside'), await orgId('oakwood')];
    const listed = await t.call(ADMIN, 'GET', `/api/admin/users/${id}/organization`);
    expect(listed.json().map((o: { name: string }) => o.name)).toHaveLength(2);
    const added = await t.call(ADMIN, 'POST', `/api/admin/organizations/${oakwood}/users`, { userId: id, organizationId: oakwood, role: 'Administrator', jobFunctionId: 2 });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toContainEqual({ id: oakwood, name: expect.any(String), role: 'Administrator', primaryJobFunction: expect.any(String), jobFunctionId: 2 });
    const twice = await t.call(ADMIN, 'POST', '/api/admin/users/organizations', { userId: id, organizationId: oakwood, role: 'User', jobFunctionId: 2 });
    expect(twice.json()).toEqual({ message: text.alreadyMember, modelState: { organizationId: [text.alreadyMember] } });
    const changed = await t.call(ADMIN, 'PUT', '/api/admin/users/organizations', { userId: id, organizationId: oakwood, role: 'User', jobFunctionId: 1 });
    expect(changed.json()).toContainEqual(expect.objectContaining({ id: oakwood, role: 'User', jobFunctionId: 1 }));
    const mismatch = await t.call(ADMIN, 'POST', `/api/admin/organizations/${lakeside}/users`, { userId: id, organizationId: oakwood, role: 'User', jobFunctionId: 1 });
    expect(mismatch.json().message).toBe(text.organizationMismatch);
    const missing = await t.call(ADMIN, 'POST', '/api/admin/users/organizations', { userId: id, organizationId: 'x', role: '', jobFunctionId: null });
    expect(missing.json().modelState).toEqual({ organizationId: [text.chooseFromList], role: [text.roleRequired], jobFunctionId: [text.jobFunctionRequired] });
    const sys = await t.call(ADMIN, 'POST', '/api/admin/users/organizations', { userId: await userId(REPORTING), organizationId: oakwood, role: 'User', jobFunctionId: 1 });
    expect(sys.json().message).toBe(text.notOrganizationUser);

    expect((await t.call(ADMIN, 'DELETE', `/api/admin/organizations/${oakwood}/users/${id}`)).statusCode).toBe(200);
    expect((await t.call(ADMIN, 'DELETE', `/api/admin/organizations/${oakwood}/users/${id}`)).statusCode).toBe(404);
    const leo = await userId(LAKESIDE_ADMIN);
    const last = await t.call(ADMIN, 'DELETE', `/api/admin/organizations/${lakeside}/users/${leo}`);
    expect(last.json()).toEqual({ message: text.lastOrganization });
    expect((await auditsOf('UserOrganizationAdded')).length).toBe(1);
    expect((await auditsOf('UserOrganizationRemoved')).length).toBe(1);
  });

  it('reset password and resend invitation send a link mail; sync records a sandbox sync', async () => {
    const id = await userId('admin@oakwood.example.org');
    const reset = await t.call(ADMIN, 'POST', '/api/users/resetpassword', { id });
    expect(reset.json()).toEqual({ message: text.passwordResetSent });
    const mail = (await lastMailTo('admin@oakwood.example.org'))!;
    expect(mail).toMatchObject({ kind: 'PasswordReset' });
    // The reset link expires after an hour.
    const token = linkToken(mail.textBody);
    t.clock.now = new Date(t.clock.now.getTime() + 61 * 60_000);
    const late = await t.app.inject({ method: 'POST', url: '/api/account/password', payload: { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD } });
    expect(late.json().message).toBe(text.linkInvalid);
    t.clock.now = new Date();

    const wrongName = await t.call(ADMIN, 'POST', '/api/users/resendinvitation', { id, userName: 'someone@else.org' });
    expect(wrongName.json()).toEqual({ message: text.userNameMismatch, modelState: { userName: [text.userNameMismatch] } });
    const resent = await t.call(ADMIN, 'POST', '/api/users/resendinvitation', { id, userName: 'Admin@oakwood.example.org' });
    expect(resent.json()).toEqual({ message: text.invitationResent });
    expect(await lastMailTo('admin@oakwood.example.org')).toMatchObject({ kind: 'AccountCreation' });

    const sync = await t.call(ADMIN, 'POST', `/api/admin/users/${id}/sync`);
    expect(sync.json()).toEqual({ message: text.syncStarted });
    expect((await auditsOf('UserCustomerMessagingSync'))[0]).toMatchObject({ details: { userId: id, provider: 'sandbox' } });
    expect((await t.call(ADMIN, 'POST', `/api/admin/users/${UNKNOWN}/sync`)).statusCode).toBe(404);
  });

  it('every route answers system administrators only: SysAdminReporting, organization administrators and users get 403', async () => {
    const id = await userId('ray.banks@riverview.example.org');
    const org = await orgId('lakeside');
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['POST', '/api/admin/users', {}],
      ['GET', `/api/admin/users/${id}`],
      ['PUT', `/api/admin/users/${id}`, {}],
      ['POST', '/api/admin/sysadmin', {}],
      ['PUT', `/api/admin/sysadmin/${id}`, { enable: true }],
      ['POST', '/api/admin/users/enable', { enable: true, id }],
      ['POST', '/api/admin/users/idproof', { userId: id, passed: true }],
      ['GET', `/api/admin/users/${id}/idproof`],
      ['POST', `/api/admin/users/${id}/idproof/reset`],
      ['POST', `/api/admin/users/${id}/sync`],
      ['POST', `/api/admin/users/${id}/2fa/disable`],
      ['POST', `/api/admin/organizations/${org}/users`, {}],
      ['DELETE', `/api/admin/organizations/${org}/users/${id}`],
      ['GET', `/api/admin/users/${id}/organization`],
      ['POST', '/api/admin/users/organizations', {}],
      ['PUT', '/api/admin/users/organizations', {}],
    ];
    // The password mails are also an organization Administrator's, for the organization's own users (issue 13): Ray is
    // Riverview's, so Lakeside's Administrator gets 404.
    for (const [method, url, body] of [
      ['POST', '/api/users/resetpassword', { id }],
      ['POST', '/api/users/resendinvitation', { id, userName: 'x' }],
    ] as const) {
      for (const caller of [REPORTING, LAKESIDE_USER]) expect((await t.call(caller, method, url, body)).statusCode, `${caller} ${url}`).toBe(403);
      expect((await t.call(LAKESIDE_ADMIN, method, url, body)).statusCode, url).toBe(404);
    }
    // The job functions are everyone's but the reporting role's.
    expect((await t.call(LAKESIDE_USER, 'GET', '/api/users/jobs')).json()).toContainEqual({ id: 1, name: expect.any(String) });
    expect((await t.call(REPORTING, 'GET', '/api/users/jobs')).statusCode).toBe(403);
    for (const caller of [REPORTING, LAKESIDE_ADMIN, LAKESIDE_USER]) {
      for (const [method, url, body] of routes) {
        const res = await t.call(caller, method, url, body);
        expect(res.statusCode, `${caller} ${method} ${url}`).toBe(403);
        expect(res.json()).toEqual({ message: messages.notAuthorized });
      }
    }
  });
});
