import type { z } from 'zod';
import {
  adminUserMessages as text,
  type adminUserCreate,
  type adminUsersQuery,
  type adminUserUpdate,
  type AdminUser,
  type AdminUserListItem,
  type idProofUpdate,
  type sysAdminCreate,
  type UserPreferences,
  type userOrganizationAssign,
} from '@clinicrelay/contracts/admin-users.ts';
import { DEFAULT_BRAND_NAME } from '@clinicrelay/contracts/messages.ts';
import { organizationRoles, systemRoles } from '@clinicrelay/contracts/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import { clearSessionCache, type AdminCaller } from '../../platform/auth/guard.ts';
import { passwordProblem } from '../../platform/auth/password-policy.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import { html } from '../../platform/mail/html.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import { findRecentAttempts } from '../account/queries.ts';
import { lockState, lockWindowStart } from '../account/service.ts';
import { queuePasswordLinkMail, revokeSessionsOf, type PasswordLinkDeps, type PasswordLinkPurpose } from '../account/password-links.ts';
import type { CustomerMessagingService } from '../../platform/customer-messaging.ts';
import { removeSecondFactors } from '../two-factor/service.ts';
import * as q from './queries.ts';

export interface AdminUsersDeps extends PasswordLinkDeps {
  blobs: BlobStore;
  customerMessaging: CustomerMessagingService;
}

type Preferences = UserPreferences;
// The user_preferences defaults, for users who never saved theirs.
const DEFAULT_PREFERENCES: Preferences = {
  emailNewMessages: true,
  emailUnprocessedMessages: false,
  emailSystemNotifications: true,
  emailUnassignedMessages: false,
  emailFailedMessagesDigest: false,
};

const field = (name: string, message: string) => badRequest(message, { [name]: [message] });
const audit = (db: DbOrTx, caller: AdminCaller, eventType: string, userId: string, details: Record<string, unknown> = {}, at?: Date) =>
  writeAudit(db, { eventType, ...auditedByAdmin(caller), correlationId: userId, details: { userId, ...details } }, at);

// GET /api/admin/users: the paging helper's { items, totalCount } under the spec's keys.
export async function listUsers(deps: AdminUsersDeps, query: z.output<typeof adminUsersQuery>) {
  const page = await q.findUserPage(
    deps.db,
    { search: query.search || undefined, includeDisabled: query.deleted ?? false, sysAdminOnly: query.sysAdmin ?? false, sort: query.sort },
    { pageNumber: query.pageNumber, pageSize: query.pageSize },
  );
  const users = page.items.map(
    (r): AdminUserListItem => ({
      id: r.id,
      userName: r.userName,
      firstName: r.firstName,
      lastName: r.lastName,
      organizations: r.organizations,
      idProofStatus: r.idProofStatus,
      enabled: !r.isDisabled,
      isDisabled: r.isDisabled,
      isOrgAdmin: r.isOrgAdmin,
      isNetworkAdmin: r.isNetworkAdmin,
      isSysAdmin: r.systemRoles.length > 0,
      roleType: r.systemRoles.length > 0 ? 'System' : 'Organization',
      roleName: r.systemRoles[0] ?? r.organizationRole,
    }),
  );
  return { users, totalUsersCount: page.totalCount };
}

export async function getUser(deps: AdminUsersDeps, id: string): Promise<AdminUser> {
  const user = await q.findUser(deps.db, id);
  if (!user) throw notFound();
  const [organizations, jobFunctions, preferences, attempts] = await Promise.all([
    q.findUserOrganizations(deps.db, id),
    q.findJobFunctions(deps.db),
    q.findPreferences(deps.db, id),
    findRecentAttempts(deps.db, user.userName, lockWindowStart(deps.now())),
  ]);
  const isSysAdmin = user.systemRoles.length > 0;
  const first = organizations[0];
  return {
    id: user.id,
    userName: user.userName,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneNumber: user.phoneNumber,
    roleType: isSysAdmin ? 'System' : 'Organization',
    roleName: user.systemRoles[0] ?? first?.role ?? null,
    primaryJobFunction: first?.jobFunctionId ? { id: first.jobFunctionId } : null,
    isSysAdmin,
    isOrgAdmin: organizations.some((o) => o.role === 'Administrator'),
    isNetworkAdmin: user.isNetworkAdmin,
    isDisabled: user.isDisabled,
    disabledDateTime: user.disabledDateTime?.toISOString() ?? null,
    idProofStatus: user.idProofStatus,
    idProofed: user.idProofed,
    idProofFileName: user.idProofBlobId ? user.idProofFileName : null,
    twoFactorEnabled: user.twoFactorEnabled,
    tokenAuthEnabled: user.tokenAuthEnabled,
    hasUnclaimedSecurityTokens: false,
    lockoutEnabled: user.lockoutEnabled,
    isLockedOut: user.lockoutEnabled && lockState(attempts).locked,
    organizationId: first?.id ?? null,
    organizations,
    allRoles: isSysAdmin ? [...systemRoles] : [...organizationRoles],
    jobFunctions,
    userPreferences: preferences
      ? {
          emailNewMessages: preferences.emailNewMessages,
          emailUnprocessedMessages: preferences.emailUnprocessedMessages,
          emailSystemNotifications: preferences.emailSystemNotifications,
          emailUnassignedMessages: preferences.emailUnassignedMessages,
          emailFailedMessagesDigest: preferences.emailFailedMessagesDigest,
        }
      : DEFAULT_PREFERENCES,
  };
}

const userNameTaken = () => field('userName', text.userNameTaken);

// User names are stored lower-case (sign-in is case-insensitive); an empty email takes the user name (§5).
const normalized = (input: { userName: string; email?: string | undefined }) => {
  const userName = input.userName.trim().toLowerCase();
  return { userName, email: input.email?.trim() || userName };
};

// A user row insert that turns a lost race on the unique user name into the same 400 as the check before it.
async function insertNewUser(tx: DbOrTx, values: Parameters<typeof q.insertUser>[1]) {
  if (await q.userNameTaken(tx, values.userName)) throw userNameTaken();
  const row = await q.insertUser(tx, values);
  if (!row) throw userNameTaken();
  return row;
}

export async function updateUser(deps: AdminUsersDeps, caller: AdminCaller, id: string, body: z.output<typeof adminUserUpdate>) {
  const now = deps.now();
  const { userName, email } = normalized(body);
  await deps.db.transaction(async (tx) => {
    const current = await q.findUserForUpdate(tx, id);
    if (!current) throw notFound();
    const system = await q.isSystemUser(tx, id);
    if (body.roleName && !system) throw field('roleName', text.notSystemUser);
    if (await q.userNameTaken(tx, userName, id)) throw userNameTaken();
    try {
      await q.updateUser(tx, id, { userName, email, firstName: body.firstName, lastName: body.lastName, modifiedBy: caller.session.userId, modifiedAt: now });
    } catch (error) {
      if (isUniqueViolation(error)) throw userNameTaken();
      throw error;
    }
    if (body.roleName) await q.replaceSystemRole(tx, id, body.roleName);
    if (body.userPreferences) await q.upsertPreferences(tx, id, { ...body.userPreferences, modifiedAt: now });
    await audit(tx, caller, 'UserUpdated', id, { userNameChanged: userName !== current.userName, ...(body.roleName ? { roleName: body.roleName } : {}) }, now);
  });
  // A changed role or user name applies to the user's next request.
  clearSessionCache(deps.db);
  return getUser(deps, id);
}

// POST /api/admin/users: an organization user with a password, or with the account-creation email that sets one.
// options.within: the caller's own writes in the creating transaction (a batch import records the row's user).
export async function createUser(deps: AdminUsersDeps, caller: AdminCaller, body: z.output<typeof adminUserCreate>, options: { within?: (tx: DbOrTx, id: string) => Promise<void> } = {}) {
  const now = deps.now();
  const details = body.userDetails;
  const { userName, email } = normalized(details);
  // Every problem at once, so the form marks each field in one round (the password rules of issue 14 §5 hold for a
  // password an administrator types too); the checks run again in the transaction below.
  const problems: Record<string, string[]> = {};
  const problem = body.emailCreatePassword ? null : await passwordProblem(body.password!, userName);
  if (problem) problems.password = [problem];
  if (await q.userNameTaken(deps.db, userName)) problems.userName = [text.userNameTaken];
  if (!(await q.organizationExists(deps.db, body.organizationId))) problems.organizationId = [text.chooseFromList];
  if (!(await q.jobFunctionExists(deps.db, details.primaryJobFunction.id))) problems.jobFunctionId = [text.jobFunctionRequired];
  const texts = Object.values(problems).flat();
  if (texts.length > 0) throw badRequest(texts.join('\n'), problems);
  const passwordHash = body.emailCreatePassword ? null : await hashPassword(body.password!);
  const id = await deps.db.transaction(async (tx) => {
    if (!(await q.organizationExists(tx, body.organizationId))) throw field('organizationId', text.chooseFromList);
    if (!(await q.jobFunctionExists(tx, details.primaryJobFunction.id))) throw field('jobFunctionId', text.jobFunctionRequired);
    const user = await insertNewUser(tx, {
      userName,
      email,
      firstName: details.firstName,
      lastName: details.lastName,
      passwordHash,
      defaultOrganizationId: body.organizationId,
      createdBy: caller.session.userId,
      modifiedBy: caller.session.userId,
      createdAt: now,
      modifiedAt: now,
    });
    await q.insertMembership(tx, { userId: user.id, organizationId: body.organizationId, role: details.roleName, primaryJobFunctionId: details.primaryJobFunction.id, createdAt: now });
    await q.upsertPreferences(tx, user.id, { ...DEFAULT_PREFERENCES, modifiedAt: now });
    const mailId = body.emailCreatePassword ? await queuePasswordLinkMail(deps, tx, user, 'AccountCreation', body.organizationId) : null;
    await audit(tx, caller, 'UserCreated', user.id, { organizationId: body.organizationId, role: details.roleName, accountCreationMail: mailId }, now);
    await options.within?.(tx, user.id);
    return user.id;
  });
  return getUser(deps, id);
}

// POST /api/admin/sysadmin: a system user, in no organization (§6 "organizationId -1"), who sets a password from the mail.
export async function createSysAdmin(deps: AdminUsersDeps, caller: AdminCaller, body: z.output<typeof sysAdminCreate>) {
  const now = deps.now();
  const { userName, email } = normalized(body);
  const id = await deps.db.transaction(async (tx) => {
    const user = await insertNewUser(tx, {
      userName,
      email,
      firstName: body.firstName,
      lastName: body.lastName,
      createdBy: caller.session.userId,
      modifiedBy: caller.session.userId,
      createdAt: now,
      modifiedAt: now,
    });
    await q.replaceSystemRole(tx, user.id, body.roleName);
    await q.upsertPreferences(tx, user.id, { ...DEFAULT_PREFERENCES, modifiedAt: now });
    const mailId = await queuePasswordLinkMail(deps, tx, user, 'AccountCreation', null);
    await audit(tx, caller, 'SysAdminCreated', user.id, { roleName: body.roleName, accountCreationMail: mailId }, now);
    return user.id;
  });
  return getUser(deps, id);
}

// Disabling sets disabledDateTime and ends the user's sessions at once; enabling clears both flags.
// options.check: the caller's own rules, run in the same transaction (an organization's last Administrator, issue 13).
export async function setEnabled(
  deps: Pick<AdminUsersDeps, 'db' | 'now'>,
  caller: AdminCaller,
  id: string,
  enable: boolean,
  options: { systemOnly?: boolean; check?: (tx: DbOrTx) => Promise<void> } = {},
) {
  const now = deps.now();
  if (!enable && id === caller.session.userId) throw badRequest(text.cannotDisableSelf);
  await deps.db.transaction(async (tx) => {
    const current = await q.findUserForUpdate(tx, id);
    if (!current) throw notFound();
    if (options.systemOnly && !(await q.isSystemUser(tx, id))) throw badRequest(text.notSystemUser);
    await options.check?.(tx);
    // Before the flag: the users_disabled_revoke_sessions trigger (0007) would otherwise revoke the sessions first and
    // leave their refresh tokens behind.
    const revoked = enable ? 0 : await revokeSessionsOf(tx, id, 'user-disabled', now);
    await q.updateUser(tx, id, { isDisabled: !enable, disabledDateTime: enable ? null : now, modifiedBy: caller.session.userId, modifiedAt: now });
    await audit(tx, caller, enable ? 'UserEnabled' : 'UserDisabled', id, enable ? {} : { sessionsRevoked: revoked }, now);
  });
  clearSessionCache(deps.db);
  return { message: enable ? text.enabled : text.disabled };
}

function idProofMail(name: string, passed: boolean) {
  const subject = passed ? `Your ${DEFAULT_BRAND_NAME} identity verification is complete` : `Your ${DEFAULT_BRAND_NAME} identity verification`;
  const sentence = passed
    ? 'Your identity has been verified. Your organization will be activated shortly; you will receive an email when it is.'
    : 'We could not verify your identity from the identification you submitted. Please sign in to submit it again or contact support.';
  return {
    subject,
    text: [`Hello ${name},`, '', sentence, ''].join('\n'),
    html: html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1a1b1e;"><p>Hello ${name},</p><p>${sentence}</p></body></html>
`,
  };
}

// POST /api/admin/users/idproof: Passed or Failed; an administrator's result is their organizations' (onboarding).
export async function setIdProof(deps: AdminUsersDeps, caller: AdminCaller, body: z.output<typeof idProofUpdate>) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const user = await q.findUserForUpdate(tx, body.userId);
    if (!user) throw notFound();
    await q.updateUser(tx, user.id, { idProofed: body.passed, idProofStatus: body.passed ? 'Passed' : 'Failed', modifiedBy: caller.session.userId, modifiedAt: now });
    await q.setOrganizationsIdProofed(tx, await q.administeredOrganizationIds(tx, user.id), body.passed, now);
    let mailId: string | null = null;
    if (body.sendEmail) {
      const name = `${user.firstName} ${user.lastName}`.trim();
      mailId = await queueMail(tx, { kind: 'IdProofResult', from: deps.mailFrom, to: { name, address: user.email }, ...idProofMail(name, body.passed), queuedAt: now });
    }
    await audit(tx, caller, 'UserIdProofSet', user.id, { passed: body.passed, mailId }, now);
  });
  return { message: text.idProofSaved };
}

const CONTENT_TYPES: Record<string, string> = { pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', tif: 'image/tiff', tiff: 'image/tiff' };

// GET /api/admin/users/{id}/idproof: the uploaded identification, a read of personal data (audited).
export async function idProofFile(deps: AdminUsersDeps, caller: AdminCaller, id: string) {
  const user = await q.findUser(deps.db, id);
  if (!user?.idProofBlobId) throw notFound();
  const bytes = await deps.blobs.get(user.idProofBlobId);
  await audit(deps.db, caller, 'UserIdProofViewed', id, {}, deps.now());
  const fileName = user.idProofFileName ?? 'identification';
  const extension = fileName.split('.').pop()?.toLowerCase() ?? '';
  return { bytes, fileName, contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream' };
}

// POST /api/admin/users/{id}/idproof/reset: forgets the submission so the user can upload again. The blob stays
// until the blob sweep finds no row pointing to it (issue 14 adds the upload and its retention).
export async function resetIdProof(deps: AdminUsersDeps, caller: AdminCaller, id: string) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    if (!(await q.updateUser(tx, id, { idProofBlobId: null, idProofFileName: null, idProofStatus: null, idProofed: false, modifiedBy: caller.session.userId, modifiedAt: now }))) throw notFound();
    await audit(tx, caller, 'UserIdProofReset', id, {}, now);
  });
  return { message: text.idProofReset };
}

// POST /api/admin/users/{id}/sync: the customer-messaging service is the sandbox until a provider is configured;
// the sync is recorded (audit) and answered.
export async function syncUser(deps: AdminUsersDeps, caller: AdminCaller, id: string) {
  const user = await q.findUser(deps.db, id);
  if (!user) throw notFound();
  // No network call inside a transaction: the sync first, then its audit row.
  const { reference } = await deps.customerMessaging.syncUser({ id: user.id, userName: user.userName, fullName: `${user.firstName} ${user.lastName}`.trim() });
  await audit(deps.db, caller, 'UserCustomerMessagingSync', id, { provider: deps.customerMessaging.name, reference }, deps.now());
  return { message: text.syncStarted };
}

export async function disableTwoFactor(deps: AdminUsersDeps, caller: AdminCaller, id: string) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const user = await q.findUser(tx, id);
    if (!user) throw notFound();
    // Issue 14 §6: secret, method and recovery codes go, and the user is told by mail.
    await removeSecondFactors(deps, tx, user, now, { administratorId: caller.session.userId, organizationId: null });
    await audit(tx, caller, 'UserTwoFactorDisabled', id, { twoFactorWasEnabled: user.twoFactorEnabled }, now);
  });
  clearSessionCache(deps.db);
  return { message: text.twoFactorDisabled };
}

export const jobFunctions = (deps: AdminUsersDeps) => q.findJobFunctions(deps.db);

export async function userOrganizations(deps: AdminUsersDeps, id: string) {
  if (!(await q.findUser(deps.db, id))) throw notFound();
  return q.findUserOrganizations(deps.db, id);
}

// An assignment names an existing organization and job function; system users have no organizations (§6).
async function checkAssignment(tx: DbOrTx, body: z.output<typeof userOrganizationAssign>) {
  if (!(await q.findUserForUpdate(tx, body.userId))) throw notFound();
  if (await q.isSystemUser(tx, body.userId)) throw badRequest(text.notOrganizationUser);
  if (!(await q.organizationExists(tx, body.organizationId))) throw field('organizationId', text.chooseFromList);
  if (!(await q.jobFunctionExists(tx, body.jobFunctionId))) throw field('jobFunctionId', text.jobFunctionRequired);
}

export async function addUserOrganization(deps: AdminUsersDeps, caller: AdminCaller, body: z.output<typeof userOrganizationAssign>, options: { within?: (tx: DbOrTx) => Promise<void> } = {}) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await checkAssignment(tx, body);
    const added = await q.insertMembership(tx, { userId: body.userId, organizationId: body.organizationId, role: body.role, primaryJobFunctionId: body.jobFunctionId, createdAt: now });
    if (!added) throw field('organizationId', text.alreadyMember);
    await audit(tx, caller, 'UserOrganizationAdded', body.userId, { organizationId: body.organizationId, role: body.role }, now);
    await options.within?.(tx);
  });
  clearSessionCache(deps.db);
  return q.findUserOrganizations(deps.db, body.userId);
}

export async function updateUserOrganization(deps: AdminUsersDeps, caller: AdminCaller, body: z.output<typeof userOrganizationAssign>) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await checkAssignment(tx, body);
    if (!(await q.updateMembership(tx, body.userId, body.organizationId, { role: body.role, primaryJobFunctionId: body.jobFunctionId }))) throw notFound();
    await audit(tx, caller, 'UserOrganizationChanged', body.userId, { organizationId: body.organizationId, role: body.role }, now);
  });
  clearSessionCache(deps.db);
  return q.findUserOrganizations(deps.db, body.userId);
}

// The last organization stays: an organization user without one could not sign in and would vanish from every
// organization's lists; disabling says that plainly.
export async function removeUserOrganization(deps: AdminUsersDeps, caller: AdminCaller, organizationId: string, userId: string) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    if (!(await q.findUserForUpdate(tx, userId))) throw notFound();
    if (!(await q.findMembership(tx, userId, organizationId))) throw notFound();
    if ((await q.countMemberships(tx, userId)) <= 1) throw badRequest(text.lastOrganization);
    await q.deleteMembership(tx, userId, organizationId);
    await audit(tx, caller, 'UserOrganizationRemoved', userId, { organizationId }, now);
  });
  clearSessionCache(deps.db);
  return q.findUserOrganizations(deps.db, userId);
}

async function sendPasswordLink(deps: AdminUsersDeps, caller: AdminCaller, id: string, purpose: PasswordLinkPurpose, check: (user: NonNullable<Awaited<ReturnType<typeof q.findUserForUpdate>>>) => void) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const user = await q.findUserForUpdate(tx, id);
    if (!user) throw notFound();
    check(user);
    const mailId = await queuePasswordLinkMail(deps, tx, user, purpose, user.defaultOrganizationId);
    await audit(tx, caller, purpose === 'PasswordReset' ? 'UserPasswordResetSent' : 'UserInvitationResent', id, { mailId }, now);
  });
}

// POST /api/users/resetpassword {id}: a mail with a one-hour, single-use link to choose a new password.
export async function resetPassword(deps: AdminUsersDeps, caller: AdminCaller, id: string) {
  await sendPasswordLink(deps, caller, id, 'PasswordReset', (user) => {
    if (user.isDisabled) throw badRequest(text.userDisabledNoMail);
  });
  return { message: text.passwordResetSent };
}

// POST /api/users/resendinvitation {id, userName}: the account-creation mail again (a new link; older ones stay
// valid until a password is set). userName guards against acting on the wrong row of a stale list.
export async function resendInvitation(deps: AdminUsersDeps, caller: AdminCaller, id: string, userName: string) {
  await sendPasswordLink(deps, caller, id, 'AccountCreation', (user) => {
    if (user.userName !== userName.trim().toLowerCase()) throw field('userName', text.userNameMismatch);
    if (user.isDisabled) throw badRequest(text.userDisabledNoMail);
  });
  return { message: text.invitationResent };
}
