import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminUserMessages } from '@clinicrelay/contracts/admin-users.ts';
import { orgUserMessages as text, type OrgUser } from '@clinicrelay/contracts/users.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { useTestApp } from '../../test/app.ts';
import { DEMO, userIdOf } from '../intake/test-inbound.ts';

const NETADMIN = 'netadmin@example.org';
const SYSADMIN = 'sysadmin@example.org';
const NEW_USER = 'Pat.Quill@Lakeside.example.org';

describe('An organization’s Administrator manages its users (issue 13 §2)', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  let laura: string;
  let nina: string;
  let leo: string;
  let morgan: string;
  let rachel: string;
  let lakesideId: string;

  beforeAll(async () => {
    laura = await userIdOf(db(), DEMO.lakesideAdmin);
    nina = await userIdOf(db(), NETADMIN);
    leo = await userIdOf(db(), DEMO.lakesideUser);
    morgan = await userIdOf(db(), DEMO.multi);
    rachel = await userIdOf(db(), DEMO.riverviewAdmin);
    lakesideId = (await db().select().from(memberships).where(eq(memberships.userId, laura)))[0]!.organizationId;
  });

  const list = async (query = '') => {
    const res = await t.call(DEMO.lakesideAdmin, 'GET', `/api/users?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ items: OrgUser[]; totalCount: number }>();
  };
  const mailsTo = (address: string) => db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, address)).orderBy(desc(mailOutbox.createdAt));
  const sort = (col: string, dir = 'asc') => `sort=${encodeURIComponent(JSON.stringify({ col, dir }))}`;

  it('lists only the organization’s users, with role, counts, last sign-in, invitation status and enabled; searched, sorted, paged', async () => {
    await t.call(DEMO.lakesideUser, 'GET', '/api/users/profiledata');
    const page = await list('pageSize=100');
    expect(page.items.map((u) => u.userName).sort()).toEqual([DEMO.lakesideAdmin, DEMO.lakesideUser, DEMO.multi, NETADMIN].sort());
    expect(page.totalCount).toBe(4);
    const leoRow = page.items.find((u) => u.id === leo)!;
    expect(leoRow).toMatchObject({ fullName: 'Leo Shore', role: 'User', roles: ['User'], sendPermissions: 1, invitationStatus: 'Accepted', enabled: true });
    expect(leoRow.lastSignIn).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(page.items.find((u) => u.id === morgan)!.sendPermissions).toBe(1);

    expect((await list('search=LEO')).items.map((u) => u.id)).toEqual([leo]);
    const byUserName = await list(`${sort('userName', 'desc')}&pageSize=2&page=1`);
    expect(byUserName.items.map((u) => u.userName)).toEqual([DEMO.lakesideUser, NETADMIN]);
    expect(byUserName.totalCount).toBe(4);
    expect((await list(sort('role'))).items.slice(0, 2).every((u) => u.role === 'Administrator')).toBe(true);
    const bad = await t.call(DEMO.lakesideAdmin, 'GET', `/api/users?sort=${encodeURIComponent('{"col":"passwordHash"}')}`);
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a User (403) and hides another organization’s users (404)', async () => {
    expect((await t.call(DEMO.lakesideUser, 'GET', '/api/users')).statusCode).toBe(403);
    expect((await t.call(DEMO.lakesideUser, 'POST', '/api/users', {})).statusCode).toBe(403);
    expect((await t.call(DEMO.lakesideUser, 'POST', `/api/users/${leo}/enable?enable=false`)).statusCode).toBe(403);
    expect((await t.call(DEMO.lakesideUser, 'POST', '/api/users/resetpassword', { id: leo })).statusCode).toBe(403);
    for (const [method, url, body] of [
      ['GET', `/api/users/${rachel}`, undefined],
      ['PUT', `/api/users/${rachel}`, { firstName: 'R', lastName: 'R', role: 'User', jobFunctionId: 1 }],
      ['DELETE', `/api/users/${rachel}`, undefined],
      ['POST', `/api/users/${rachel}/enable?enable=false`, undefined],
      ['POST', '/api/users/resetpassword', { id: rachel }],
      ['POST', '/api/users/resendinvitation', { id: rachel, userName: DEMO.riverviewAdmin }],
    ] as const) {
      const res = await t.call(DEMO.lakesideAdmin, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const [riverviewAdmin] = await db().select().from(users).where(eq(users.id, rachel));
    expect(riverviewAdmin!.isDisabled).toBe(false);
  });

  it('checks a user name as the create form types it', async () => {
    const check = (username: string) => t.call(DEMO.lakesideAdmin, 'POST', `/api/users/find?username=${encodeURIComponent(username)}`);
    const invalid = await check('not-an-email');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().modelState.username).toEqual([text.userNameNotValid]);
    expect((await check('USER@lakeside.example.org')).json()).toEqual({ exists: true, message: text.userNameExists });
    expect((await check(NEW_USER)).json()).toEqual({ exists: false, message: text.userNameAvailable });
  });

  let pat: string;
  it('creates a user who receives the account-creation mail through the outbox', async () => {
    const res = await t.call(DEMO.lakesideAdmin, 'POST', '/api/users', { userName: NEW_USER, firstName: 'Pat', lastName: 'Quill', role: 'User', jobFunctionId: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const made = res.json<OrgUser>();
    pat = made.id;
    expect(made).toMatchObject({ userName: NEW_USER.toLowerCase(), role: 'User', jobFunctionId: 2, jobFunction: 'Nurse', invitationStatus: 'Pending', enabled: true, lastSignIn: null, sendPermissions: 0, intakeRules: 0 });
    const [mail] = await mailsTo(NEW_USER.toLowerCase());
    expect(mail).toMatchObject({ kind: 'AccountCreation', organizationId: lakesideId, status: 'Queued' });
    expect(mail!.textBody).toContain('/account/password?token=');
    expect((await list()).items.map((u) => u.id)).toContain(pat);

    const again = await t.call(DEMO.lakesideAdmin, 'POST', '/api/users', { userName: NEW_USER, firstName: 'Pat', lastName: 'Quill', role: 'User', jobFunctionId: 2 });
    expect(again.statusCode).toBe(400);
    expect(again.json().modelState.userName).toEqual([text.userNameExists]);
    const invalid = await t.call(DEMO.lakesideAdmin, 'POST', '/api/users', { userName: 'pat', firstName: '', lastName: 'Quill', role: 'Owner' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().modelState).toMatchObject({ userName: [text.userNameNotValid], firstName: [text.firstNameRequired], role: [text.roleRequired], jobFunctionId: [text.jobFunctionRequired] });

    const resent = await t.call(DEMO.lakesideAdmin, 'POST', '/api/users/resendinvitation', { id: pat, userName: NEW_USER });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(await mailsTo(NEW_USER.toLowerCase())).toHaveLength(2);
  });

  it('creates a user with send permissions and intake rules at once; one of another organization creates nobody', async () => {
    const sources = (await t.call(DEMO.lakesideAdmin, 'GET', '/api/documentsources')).json<{ id: string; address: { fullAddress: string } }[]>();
    const direct = sources.find((s) => s.address.fullAddress === DEMO.lakesideDirect)!;
    const rule = (await t.call(DEMO.lakesideAdmin, 'POST', '/api/intakerules', { name: 'Faxes to Lakeside', sourceType: 'Fax' })).json();
    const riverviewSource = (await t.call(DEMO.riverviewAdmin, 'GET', '/api/documentsources')).json()[0].id;
    const body = { userName: 'quinn.permits@lakeside.example.org', firstName: 'Quinn', lastName: 'Permits', role: 'User', jobFunctionId: 2 };
    const foreign = await t.call(DEMO.lakesideAdmin, 'POST', '/api/users', { ...body, documentSourceIds: [riverviewSource] });
    expect(foreign.statusCode).toBe(400);
    expect((await t.call(DEMO.lakesideAdmin, 'POST', '/api/users/find?username=quinn.permits@lakeside.example.org')).json().exists).toBe(false);

    const created = await t.call(DEMO.lakesideAdmin, 'POST', '/api/users', { ...body, documentSourceIds: [direct.id], intakeRuleIds: [rule.id] });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id;
    expect((await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${id}/documentsources`)).json().map((s: { documentSourceId: string }) => s.documentSourceId)).toEqual([direct.id]);
    expect((await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${id}/rules`)).json().map((r: { id: string }) => r.id)).toEqual([rule.id]);
  });

  it('edits names, role and job function, and never demotes the last Administrator', async () => {
    const res = await t.call(DEMO.lakesideAdmin, 'PUT', `/api/users/${pat}`, { firstName: 'Patricia', lastName: 'Quill', role: 'Administrator', jobFunctionId: 6 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ fullName: 'Patricia Quill', role: 'Administrator', jobFunction: 'Practice Manager' });
    expect((await t.call(DEMO.lakesideAdmin, 'GET', `/api/users/${pat}`)).json().role).toBe('Administrator');

    // Laura demotes Pat and Nina; she is then the last Administrator and cannot demote herself.
    for (const id of [pat, nina]) {
      expect((await t.call(DEMO.lakesideAdmin, 'PUT', `/api/users/${id}`, { firstName: 'X', lastName: 'Y', role: 'User', jobFunctionId: 1 })).statusCode).toBe(200);
    }
    const self = await t.call(DEMO.lakesideAdmin, 'PUT', `/api/users/${laura}`, { firstName: 'Laura', lastName: 'Lake', role: 'User', jobFunctionId: 1 });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ message: text.lastAdministrator });
    await t.call(DEMO.lakesideAdmin, 'PUT', `/api/users/${nina}`, { firstName: 'Nina', lastName: 'Network', role: 'Administrator', jobFunctionId: 1 });
    expect((await t.call(DEMO.lakesideAdmin, 'PUT', `/api/users/${laura}`, { firstName: 'Laura', lastName: 'Lake', role: 'Administrator', jobFunctionId: 1 })).statusCode).toBe(200);
  });

  it('disables a user, ending their sessions at once, and enables them again; never themselves or a shared user', async () => {
    const { accessToken } = await t.login(DEMO.lakesideUser);
    expect((await t.call(accessToken, 'GET', '/api/users/profiledata')).statusCode).toBe(200);
    const off = await t.call(DEMO.lakesideAdmin, 'POST', `/api/users/${leo}/enable?enable=false`);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ message: text.disabled });
    expect((await t.call(accessToken, 'GET', '/api/users/profiledata')).statusCode).toBe(401);
    expect((await list()).items.find((u) => u.id === leo)!.enabled).toBe(false);
    const reset = await t.call(DEMO.lakesideAdmin, 'POST', '/api/users/resetpassword', { id: leo });
    expect(reset.json().message).toBe(adminUserMessages.userDisabledNoMail);

    const on = await t.call(DEMO.lakesideAdmin, 'POST', `/api/users/${leo}/enable?enable=true`);
    expect(on.json()).toEqual({ message: text.enabled });
    expect((await t.login(DEMO.lakesideUser)).accessToken).toBeTruthy();

    const self = await t.call(DEMO.lakesideAdmin, 'POST', `/api/users/${laura}/enable?enable=false`);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ message: text.cannotDisableSelf });
    const shared = await t.call(DEMO.lakesideAdmin, 'POST', `/api/users/${morgan}/enable?enable=false`);
    expect(shared.statusCode).toBe(400);
    expect(shared.json()).toEqual({ message: text.otherOrganization });
    expect((await t.call(DEMO.lakesideAdmin, 'POST', `/api/users/${leo}/enable?enable=maybe`)).statusCode).toBe(400);
  });

  it('keeps an enabled Administrator when the other one is disabled', async () => {
    expect((await t.call(DEMO.lakesideAdmin, 'POST', `/api/users/${nina}/enable?enable=false`)).statusCode).toBe(200);
    // Nina disabled, Laura is the only enabled Administrator left: she cannot demote herself.
    const self = await t.call(DEMO.lakesideAdmin, 'PUT', `/api/users/${laura}`, { firstName: 'Laura', lastName: 'Lake', role: 'User', jobFunctionId: 1 });
    expect(self.json()).toEqual({ message: text.lastAdministrator });
    expect((await t.call(DEMO.lakesideAdmin, 'POST', `/api/users/${nina}/enable?enable=true`)).statusCode).toBe(200);
  });

  it('sends a password reset mail to a member', async () => {
    const res = await t.call(DEMO.lakesideAdmin, 'POST', '/api/users/resetpassword', { id: leo });
    expect(res.statusCode, res.body).toBe(200);
    expect((await mailsTo(DEMO.lakesideUser))[0]).toMatchObject({ kind: 'PasswordReset' });
    // The back office keeps the call for any user.
    expect((await t.call(SYSADMIN, 'POST', '/api/users/resetpassword', { id: rachel })).statusCode).toBe(200);
  });

  it('deletes a user: a shared one leaves the organization only, another is deleted; never themselves', async () => {
    const self = await t.call(DEMO.lakesideAdmin, 'DELETE', `/api/users/${laura}`);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ message: text.cannotDeleteSelf });

    const shared = await t.call(DEMO.lakesideAdmin, 'DELETE', `/api/users/${morgan}`);
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json()).toEqual({ message: text.deleted });
    expect((await list()).items.map((u) => u.id)).not.toContain(morgan);
    expect((await t.call(DEMO.riverviewAdmin, 'GET', `/api/users/${morgan}`)).statusCode).toBe(200);
    expect(await db().select().from(memberships).where(and(eq(memberships.userId, morgan), eq(memberships.organizationId, lakesideId)))).toEqual([]);

    expect((await t.call(DEMO.lakesideAdmin, 'DELETE', `/api/users/${pat}`)).statusCode).toBe(200);
    expect(await db().select().from(users).where(eq(users.id, pat))).toEqual([]);
    const free = await t.call(DEMO.lakesideAdmin, 'POST', `/api/users/find?username=${encodeURIComponent(NEW_USER)}`);
    expect(free.json().exists).toBe(false);
    const audited = await db().select().from(auditEvents).where(eq(auditEvents.eventType, 'UserDeleted'));
    expect(audited.map((a) => a.correlationId)).toEqual([pat]);
  });
});
