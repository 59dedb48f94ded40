import type { z } from 'zod';
import { orgUserMessages as text, type OrgUser, type orgUserCreate, type orgUsersQuery, type orgUserUpdate } from '@clinicrelay/contracts/users.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditedBy, writeAudit } from '../../platform/audit.ts';
import { clearSessionCache, type AdminCaller, type OrgCaller } from '../../platform/auth/guard.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { revokeSessionsOf } from '../account/password-links.ts';
import * as adminQueries from '../admin-users/queries.ts';
import * as adminUsers from '../admin-users/service.ts';
import * as usersService from './service.ts';
import * as q from './queries.ts';

// Issue 13 §2: an organization's Administrator manages the organization's users. Creating, enabling and disabling,
// and the password mails are the back office's own functions (admin-users), called once the user is known to be a
// member of the caller's organization; another organization's user answers 404.

export type MembersDeps = adminUsers.AdminUsersDeps;

export const toView = (r: q.MemberRow): OrgUser => ({
  id: r.id,
  userName: r.userName,
  firstName: r.firstName,
  lastName: r.lastName,
  fullName: `${r.firstName} ${r.lastName}`.trim(),
  email: r.email,
  roles: [r.role],
  role: r.role,
  jobFunctionId: r.jobFunctionId,
  jobFunction: r.jobFunction,
  sendPermissions: r.sendPermissions,
  intakeRules: r.intakeRules,
  lastSignIn: r.lastSignIn === null ? null : new Date(r.lastSignIn).toISOString(),
  invitationStatus: r.passwordSet ? 'Accepted' : 'Pending',
  enabled: !r.isDisabled,
});

const field = (name: string, message: string) => badRequest(message, { [name]: [message] });

const audit = (db: DbOrTx, caller: OrgCaller, eventType: string, userId: string, details: Record<string, unknown>, at: Date) =>
  writeAudit(db, { eventType, ...auditedBy(caller), correlationId: userId, details: { userId, ...details } }, at);

async function memberOrNotFound(db: DbOrTx, caller: OrgCaller, userId: string) {
  const row = await q.findMember(db, caller.organizationId, userId);
  if (!row) throw notFound();
  return row;
}

// The organization keeps an enabled Administrator: a change that takes `member` away from them (demote, disable,
// delete) must leave another. Run under lockAdministratorsOf so two such changes cannot pass together.
async function keepAnAdministrator(tx: DbOrTx, caller: OrgCaller, member: { id: string; role: string; isDisabled: boolean }) {
  await q.lockAdministratorsOf(tx, caller.organizationId);
  if (member.role !== 'Administrator' || member.isDisabled) return;
  if ((await q.countOtherEnabledAdministrators(tx, caller.organizationId, member.id)) === 0) throw badRequest(text.lastAdministrator);
}

// GET /api/users: the members of the caller's current organization, a page at a time; includeNetwork adds the users
// of the other organizations of the networks the caller administers, marked with their organization (read-only).
export async function listMembers(deps: Pick<MembersDeps, 'db'>, caller: OrgCaller, query: z.output<typeof orgUsersQuery>) {
  const networkOrganizationIds = query.includeNetwork === 'true' ? await q.findAdministeredNetworkOrganizationIds(deps.db, caller.session.userId) : [];
  const { rows, totalCount } = await q.findMembersPage(deps.db, caller.organizationId, {
    search: query.search || undefined,
    sort: query.sort,
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
    networkOrganizationIds,
  });
  const items = rows.map((r) => (r.organizationId === caller.organizationId ? toView(r) : { ...toView(r), organizationId: r.organizationId, organizationName: r.organizationName }));
  return { items, totalCount };
}

// GET /api/users/{id}.
export async function getMember(deps: Pick<MembersDeps, 'db'>, caller: OrgCaller, userId: string) {
  return toView(await memberOrNotFound(deps.db, caller, userId));
}

// POST /api/users/find?username=: the §5 check of the create form. User names are unique across the product.
export async function checkUserName(deps: Pick<MembersDeps, 'db'>, userName: string) {
  const exists = await adminQueries.userNameTaken(deps.db, userName);
  return { exists, message: exists ? text.userNameExists : text.userNameAvailable };
}

// POST /api/users: a new user of the caller's organization, who sets a password from the account-creation mail.
export async function createMember(deps: MembersDeps, caller: OrgCaller, body: z.output<typeof orgUserCreate>) {
  if (await adminQueries.userNameTaken(deps.db, body.userName)) throw field('userName', text.userNameExists);
  // Send permissions and intake rules are checked before the user exists, so a refused one creates nobody.
  const documentSourceIds = await usersService.knownDocumentSources(deps, caller, body.documentSourceIds);
  const intakeRuleIds = await usersService.knownRules(deps, caller, body.intakeRuleIds);
  const created = await adminUsers.createUser(deps, caller, {
    userDetails: { userName: body.userName, firstName: body.firstName, lastName: body.lastName, roleName: body.role, primaryJobFunction: { id: body.jobFunctionId } },
    organizationId: caller.organizationId,
    emailCreatePassword: true,
  });
  await deps.db.transaction(async (tx) => {
    await q.replaceUserDocumentSources(tx, caller.organizationId, created.id, documentSourceIds);
    await q.replaceUserRules(tx, caller.organizationId, created.id, intakeRuleIds);
  });
  return getMember(deps, caller, created.id);
}

// PUT /api/users/{id}: names, role and primary job function in the current organization.
export async function updateMember(deps: MembersDeps, caller: OrgCaller, userId: string, body: z.output<typeof orgUserUpdate>) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const member = await memberOrNotFound(tx, caller, userId);
    if (body.role !== 'Administrator') await keepAnAdministrator(tx, caller, member);
    if (!(await adminQueries.jobFunctionExists(tx, body.jobFunctionId))) throw field('jobFunctionId', text.jobFunctionRequired);
    await adminQueries.updateUser(tx, userId, { firstName: body.firstName, lastName: body.lastName, modifiedBy: caller.session.userId, modifiedAt: now });
    await q.updateMember(tx, caller.organizationId, userId, { role: body.role, primaryJobFunctionId: body.jobFunctionId });
    await audit(tx, caller, 'UserUpdated', userId, { role: body.role, roleChanged: body.role !== member.role }, now);
  });
  // A changed role applies to the user's next request.
  clearSessionCache(deps.db);
  return getMember(deps, caller, userId);
}

// POST /api/users/{id}/enable?enable=: disabling ends the user's sessions at once (admin-users setEnabled).
export async function setMemberEnabled(deps: MembersDeps, caller: OrgCaller, userId: string, enable: boolean) {
  if (!enable && userId === caller.session.userId) throw badRequest(text.cannotDisableSelf);
  await memberOrNotFound(deps.db, caller, userId);
  await adminUsers.setEnabled(deps, caller, userId, enable, {
    check: async (tx) => {
      const member = await memberOrNotFound(tx, caller, userId);
      if (await q.hasOtherOrganization(tx, caller.organizationId, userId)) throw badRequest(text.otherOrganization);
      if (!enable) await keepAnAdministrator(tx, caller, member);
    },
  });
  return { message: enable ? text.enabled : text.disabled };
}

// DELETE /api/users/{id}: removes the user from the organization; a user of no other organization is deleted, so
// the user name is free again. Either way the user's sessions end at once.
export async function deleteMember(deps: MembersDeps, caller: OrgCaller, userId: string) {
  if (userId === caller.session.userId) throw badRequest(text.cannotDeleteSelf);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const member = await memberOrNotFound(tx, caller, userId);
    await keepAnAdministrator(tx, caller, member);
    const elsewhere = await q.hasOtherOrganization(tx, caller.organizationId, userId);
    const sessionsRevoked = await revokeSessionsOf(tx, userId, 'user-removed', now);
    if (elsewhere) await q.removeMember(tx, caller.organizationId, userId);
    else await q.deleteUser(tx, userId);
    await audit(tx, caller, elsewhere ? 'UserRemovedFromOrganization' : 'UserDeleted', userId, { sessionsRevoked }, now);
  });
  clearSessionCache(deps.db);
  return { message: text.deleted };
}

// POST /api/users/resetpassword and /resendinvitation: a system administrator reaches any user (back office); an
// organization's Administrator only the organization's members.
export async function resetPassword(deps: MembersDeps, caller: AdminCaller, orgCaller: OrgCaller | null, userId: string) {
  if (orgCaller) await memberOrNotFound(deps.db, orgCaller, userId);
  return adminUsers.resetPassword(deps, caller, userId);
}

export async function resendInvitation(deps: MembersDeps, caller: AdminCaller, orgCaller: OrgCaller | null, userId: string, userName: string) {
  if (orgCaller) await memberOrNotFound(deps.db, orgCaller, userId);
  return adminUsers.resendInvitation(deps, caller, userId, userName);
}
