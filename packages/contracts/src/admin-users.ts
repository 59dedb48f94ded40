import { z } from 'zod';
import { newPassword } from './account.ts';
import { organizationRoles, systemRoles } from './roles.ts';
import { text } from './text.ts';
import { EMAIL_PATTERN } from './users.ts';

// back-office-a §2 "Users", §3 User, §5 "User edit", §6, §7 "Users". The spec shows no toasts for users (§8);
// these follow the wording of its other back-office messages.
export const adminUserMessages = {
  saved: 'The user was saved successfully.',
  saveFailed: 'There was an error saving this user.',
  enabled: 'The user was enabled successfully.',
  disabled: 'The user was disabled successfully.',
  disablePrompt: 'The user is about to be disabled. Are you sure?',
  enablePrompt: 'The user is about to be enabled. Are you sure?',
  // §5 "userName unique (checked by the server, details not shown)".
  userNameTaken: 'This user name already exists, please enter a different one.',
  userNameInvalid: 'User name must be a valid email address.',
  emailInvalid: 'Email must be a valid email address.',
  firstNameRequired: 'First name is required.',
  lastNameRequired: 'Last name is required.',
  userNameRequired: 'User name is required.',
  roleRequired: 'Role is required.',
  jobFunctionRequired: 'Primary job function is required.',
  // §5: the organization typeahead "chosen from list" (the wording of the network typeaheads, §8 Networks).
  chooseFromList: 'Please enter a valid value for this field.',
  passwordRequired: 'Password is required.',
  confirmPasswordRequired: 'Confirm password is required.',
  passwordsDoNotMatch: 'The password and confirm password do not match.',
  systemRoleOnly: 'A system user’s role is SysAdmin or SysAdminReporting.',
  notSystemUser: 'This action applies to system users only.',
  notOrganizationUser: 'This action applies to organization users only.',
  idProofSaved: 'The ID proofing status was saved successfully.',
  idProofReset: 'The ID submission was reset.',
  twoFactorDisabled: 'Two-factor authentication was disabled for this user.',
  passwordResetSent: 'A password reset email has been sent to the user.',
  resetPasswordPrompt: 'A password reset email will be sent to the user. Are you sure?',
  invitationResent: 'The invitation has been sent again.',
  // Mails to a disabled user would hand out a way back in: enable the user first.
  userDisabledNoMail: 'This user is disabled. Enable the user before sending this email.',
  cannotDisableSelf: 'You cannot disable your own account.',
  userNameMismatch: 'The user name does not match this user.',
  syncStarted: 'User sync with the customer-messaging sandbox has been recorded.',
  organizationSaved: 'The organization was saved successfully.',
  organizationRemoved: 'The organization was successfully removed.',
  organizationMismatch: 'The organization does not match the address.',
  alreadyMember: 'The user already belongs to this organization.',
  lastOrganization: 'An organization user must keep at least one organization; disable the user instead.',
  // The set-password page the account-creation and reset mails link to.
  linkInvalid: 'This link is no longer valid. Please ask your administrator for a new one.',
  passwordSet: 'Your password has been set. You can sign in now.',
} as const;

export const roleTypes = ['Organization', 'System'] as const;
export type RoleType = (typeof roleTypes)[number];

// §3 userPreferences: the five notification flags of the edit modal.
export const userPreferencesSchema = z.object({
  emailNewMessages: z.boolean(),
  emailUnprocessedMessages: z.boolean(),
  emailSystemNotifications: z.boolean(),
  emailUnassignedMessages: z.boolean(),
  emailFailedMessagesDigest: z.boolean(),
});
export type UserPreferences = z.infer<typeof userPreferencesSchema>;

// GET /api/admin/users: sort is a JSON array of {col, dir}, applied in order; the default is userName then
// organization (§2). JSON like GET /api/users' sort, so one column list serves both.
export const adminUserSortColumns = ['userName', 'organization', 'firstName', 'lastName'] as const;
export const adminUserSort = z.object({ col: z.enum(adminUserSortColumns), dir: z.enum(['asc', 'desc']).default('asc') });
export type AdminUserSort = z.infer<typeof adminUserSort>;
export const DEFAULT_ADMIN_USER_SORT: AdminUserSort[] = [
  { col: 'userName', dir: 'asc' },
  { col: 'organization', dir: 'asc' },
];
const boolParam = z.enum(['true', 'false']).transform((v) => v === 'true');
export const adminUsersQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  search: text('Search').trim().max(200).optional(),
  sort: text()
    .max(300)
    .optional()
    .transform((v, ctx): AdminUserSort[] => {
      if (!v) return DEFAULT_ADMIN_USER_SORT;
      try {
        const parsed = z.array(adminUserSort).min(1).max(4).safeParse(JSON.parse(v));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: `Sort is invalid: a JSON list of {col, dir}, col one of ${adminUserSortColumns.join(', ')}.` });
      return z.NEVER;
    }),
  // Show disabled users too (the list's show-disabled toggle); without it only enabled users are listed.
  deleted: boolParam.optional(),
  // Not in the spec's call: the SysAdmin filter (globe icon) lists system users only.
  sysAdmin: boolParam.optional(),
});

export const adminUserListItem = z.object({
  id: text(),
  userName: text(),
  firstName: text(),
  lastName: text(),
  organizations: z.array(text()),
  idProofStatus: text().nullable(),
  enabled: z.boolean(),
  isDisabled: z.boolean(),
  isOrgAdmin: z.boolean(),
  isNetworkAdmin: z.boolean(),
  isSysAdmin: z.boolean(),
  roleType: z.enum(roleTypes),
  roleName: text().nullable(),
});
export type AdminUserListItem = z.infer<typeof adminUserListItem>;
export const adminUsersPage = z.object({ users: z.array(adminUserListItem), totalUsersCount: z.number().int() });

export const jobFunction = z.object({ id: z.number().int(), name: text() });
// §3 "User organization assignment": id, name, role, primaryJobFunction (name), jobFunctionId.
export const userOrganization = z.object({
  id: text(),
  name: text(),
  role: z.enum(organizationRoles),
  primaryJobFunction: text().nullable(),
  jobFunctionId: z.number().int().nullable(),
});
export type UserOrganization = z.infer<typeof userOrganization>;

// GET /api/admin/users/{id}: the User entity of §3 (Password, ConfirmPassword and emailCreatePassword are create-only).
export const adminUser = z.object({
  id: text(),
  userName: text(),
  firstName: text(),
  lastName: text(),
  email: text(),
  phoneNumber: text().nullable(),
  roleType: z.enum(roleTypes),
  roleName: text().nullable(),
  primaryJobFunction: z.object({ id: z.number().int() }).nullable(),
  isSysAdmin: z.boolean(),
  isOrgAdmin: z.boolean(),
  isNetworkAdmin: z.boolean(),
  isDisabled: z.boolean(),
  // ISO 8601, UTC.
  disabledDateTime: text().nullable(),
  idProofStatus: text().nullable(),
  idProofed: z.boolean(),
  idProofFileName: text().nullable(),
  twoFactorEnabled: z.boolean(),
  tokenAuthEnabled: z.boolean(),
  // No security-token store exists yet (the account-security issue); always false until then.
  hasUnclaimedSecurityTokens: z.boolean(),
  lockoutEnabled: z.boolean(),
  // Locked out now (3 failed sign-ins within 10 minutes, §9).
  isLockedOut: z.boolean(),
  // The first organization (by name) for organization users; null for system users (§6: organizationId -1).
  organizationId: text().nullable(),
  organizations: z.array(userOrganization),
  allRoles: z.array(text()),
  jobFunctions: z.array(jobFunction),
  userPreferences: userPreferencesSchema,
});
export type AdminUser = z.infer<typeof adminUser>;

const NAME_MAX = 255;
const USER_NAME_MAX = 256;
export const userNameField = text('User name').trim().min(1, adminUserMessages.userNameRequired).max(USER_NAME_MAX).regex(EMAIL_PATTERN, adminUserMessages.userNameInvalid);
const firstNameField = text('First name').trim().min(1, adminUserMessages.firstNameRequired).max(NAME_MAX);
const lastNameField = text('Last name').trim().min(1, adminUserMessages.lastNameRequired).max(NAME_MAX);
// §5 "email filled from userName on blur if empty": empty is allowed here and filled by the server too.
const emailField = text('Email').trim().max(USER_NAME_MAX).refine((v) => v === '' || EMAIL_PATTERN.test(v), adminUserMessages.emailInvalid);

// PUT /api/admin/users/{id}. roleName only for system users (SysAdmin <-> SysAdminReporting); an organization
// user's role is per organization (the user organizations modal).
export const adminUserUpdate = z.object({
  userName: userNameField,
  firstName: firstNameField,
  lastName: lastNameField,
  email: emailField.optional(),
  roleName: z.enum(systemRoles).optional(),
  userPreferences: userPreferencesSchema.optional(),
});
export type AdminUserUpdate = z.input<typeof adminUserUpdate>;

const organizationRole = z.enum(organizationRoles, { error: adminUserMessages.roleRequired });
const jobFunctionId = z.number({ error: adminUserMessages.jobFunctionRequired }).int().min(1, adminUserMessages.jobFunctionRequired);
const organizationId = text().uuid(adminUserMessages.chooseFromList);

// Password and confirm: required and equal unless the account-creation email sets the password (§5).
function checkPasswords(v: { emailCreatePassword: boolean; password?: string | undefined; confirmPassword?: string | undefined }, ctx: z.RefinementCtx) {
  if (v.emailCreatePassword) return;
  if (!v.password) ctx.addIssue({ code: 'custom', path: ['password'], message: adminUserMessages.passwordRequired });
  else {
    const policy = newPassword.safeParse(v.password);
    if (!policy.success) ctx.addIssue({ code: 'custom', path: ['password'], message: policy.error.issues[0]!.message });
  }
  if (!v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: adminUserMessages.confirmPasswordRequired });
  else if (v.password && v.password !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: adminUserMessages.passwordsDoNotMatch });
}

// POST /api/admin/users: an organization user (§7 body {userDetails, password, organizationId, emailCreatePassword};
// confirmPassword beside password, as §3 lists ConfirmPassword).
export const adminUserCreate = z
  .object({
    userDetails: z.object({
      userName: userNameField,
      firstName: firstNameField,
      lastName: lastNameField,
      email: emailField.optional(),
      roleName: organizationRole,
      primaryJobFunction: z.object({ id: jobFunctionId }, { error: adminUserMessages.jobFunctionRequired }),
    }),
    password: text('Password').max(128).optional(),
    confirmPassword: text('Confirm password').max(128).optional(),
    organizationId,
    emailCreatePassword: z.boolean().default(false),
  })
  .superRefine(checkPasswords);
export type AdminUserCreate = z.input<typeof adminUserCreate>;

// POST /api/admin/sysadmin: a system user, with no organization and a password-creation email (§6).
export const sysAdminCreate = z.object({
  firstName: firstNameField,
  lastName: lastNameField,
  userName: userNameField,
  roleName: z.enum(systemRoles, { error: adminUserMessages.systemRoleOnly }),
});
export const sysAdminEnable = z.object({ enable: z.boolean() });
export const userEnable = z.object({ enable: z.boolean(), id: text().uuid() });

export const idProofUpdate = z.object({ userId: text().uuid(), passed: z.boolean(), sendEmail: z.boolean().default(false) });

// POST /api/admin/organizations/{orgId}/users and POST/PUT /api/admin/users/organizations (the catalog names no
// body for the latter: the same assignment, added by POST and changed by PUT).
export const userOrganizationAssign = z.object({
  userId: text().uuid(),
  organizationId,
  role: organizationRole,
  jobFunctionId,
});
export type UserOrganizationAssign = z.input<typeof userOrganizationAssign>;
export const orgUserParams = z.object({ orgId: text().uuid() });
export const orgUserDeleteParams = z.object({ orgId: text().uuid(), userId: text().uuid() });

export const resetPasswordRequest = z.object({ id: text().uuid() });
export const resendInvitationRequest = z.object({ id: text().uuid(), userName: text().trim().max(USER_NAME_MAX) });
export const messageResponse = z.object({ message: text() });

// The set-password page (/account/password?token=) of the account-creation and reset mails.
export const setPasswordRequest = z
  .object({ token: text().min(1).max(2000), password: text('Password').max(128).optional(), confirmPassword: text('Confirm password').max(128).optional() })
  .superRefine((v, ctx) => checkPasswords({ ...v, emailCreatePassword: false }, ctx));

// The web's edit form (one flat object); the page maps it to the bodies above. Same texts as the server's.
export const adminUserForm = z
  .object({
    id: text().optional(),
    roleType: z.enum(roleTypes),
    userName: userNameField,
    firstName: firstNameField,
    lastName: lastNameField,
    email: emailField,
    roleName: text().min(1, adminUserMessages.roleRequired),
    organizationId: text(),
    jobFunctionId: z.number().int().nullable(),
    emailCreatePassword: z.boolean(),
    password: text().max(128),
    confirmPassword: text().max(128),
    userPreferences: userPreferencesSchema,
  })
  .superRefine((v, ctx) => {
    // Editing, or creating a system user: no organization, job function or password on this form.
    if (v.id || v.roleType === 'System') return;
    if (!organizationId.safeParse(v.organizationId).success) ctx.addIssue({ code: 'custom', path: ['organizationId'], message: adminUserMessages.chooseFromList });
    if (!v.jobFunctionId) ctx.addIssue({ code: 'custom', path: ['jobFunctionId'], message: adminUserMessages.jobFunctionRequired });
    checkPasswords(v, ctx);
  });
export type AdminUserFormValues = z.infer<typeof adminUserForm>;
