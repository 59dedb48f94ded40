import { z } from 'zod';
import { text } from './text.ts';
import { organizationRoles } from './roles.ts';

// end-user §3 "Invitation", §5 "Invitation", §8: POST /api/users/sendinvitation from the Send an Invite dialog.

// Not in the spec: a limit so the dialog cannot be used to send mail in bulk (apps/server/src/modules/users/invitations.ts).
export const INVITATIONS_PER_HOUR = 20;

export const invitationMessages = {
  sent: 'Invitation has been sent.',
  failed: 'An error occurred while sending the invitation.',
  // Field texts are not in the spec; the spec's rules are "required" and "valid".
  fullNameRequired: 'Full name is required.',
  emailRequired: 'Email address is required.',
  emailInvalid: 'Email address is not valid.',
  directAddressNotOurs: 'Choose one of your organization’s Direct addresses.',
  tooManyInvitations: `You can send at most ${INVITATIONS_PER_HOUR} invitations an hour. Please try again later.`,
} as const;

// A pragmatic email rule (one @, a dotted domain, no spaces): the same in the dialog and at the server.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

export const invitationRequest = z.object({
  fullName: text('Full name').trim().min(1, invitationMessages.fullNameRequired).max(100),
  // An empty address is only "required", not also "not valid".
  emailAddress: text('Email address').trim().min(1, { error: invitationMessages.emailRequired, abort: true }).max(254).regex(EMAIL_PATTERN, invitationMessages.emailInvalid),
  // The address value of one of the organization's document sources (§5: "the payload uses its address value").
  directAddress: text('Direct address').trim().max(254).nullish(),
});
export type InvitationRequest = z.input<typeof invitationRequest>;
export const invitationSent = z.object({ message: text() });

// Issue 13 §2: the organization's users, for its Administrators (/settings/users). end-user §7 names GET /api/users,
// GET/PUT/DELETE /api/users/{id}, POST /api/users/{id}/enable?enable=, POST /api/users/find?username=; creating a user is
// not shown: POST /api/users, named in the same style. Every call acts on the caller's current organization only.
export const orgUserMessages = {
  // end-user §5 "Username", checked 1 s after the last key.
  userNameNotValid: 'Username is not valid',
  userNameExists: 'Username already exists',
  userNameAvailable: 'Username is available',
  // Not in the spec: the wording of the other list areas' toasts and field texts.
  userNameRequired: 'Username is required.',
  firstNameRequired: 'First name is required.',
  lastNameRequired: 'Last name is required.',
  roleRequired: 'Role is required.',
  jobFunctionRequired: 'Primary job function is required.',
  created: 'The user was created. An email with a link to set a password has been sent.',
  saved: 'The user was saved successfully.',
  deleted: 'The user was deleted successfully.',
  enabled: 'The user was enabled successfully.',
  disabled: 'The user was disabled successfully.',
  // Issue 13 §2: "An Administrator can never remove the organization's last Administrator or disable themselves."
  lastAdministrator: 'The organization must keep at least one enabled Administrator.',
  cannotDisableSelf: 'You cannot disable your own account.',
  cannotDeleteSelf: 'You cannot delete your own account.',
  // A user who also works in another organization is disabled or enabled by a system administrator, not by one of
  // the organizations (disabling is the whole account's).
  otherOrganization: 'This user also belongs to another organization. Remove them from yours with Delete instead.',
  deletePrompt: 'The user will be removed from your organization. Are you sure?',
  disablePrompt: 'The user is about to be disabled and signed out at once. Are you sure?',
  enablePrompt: 'The user is about to be enabled. Are you sure?',
  resetPasswordPrompt: 'A password reset email will be sent to the user. Are you sure?',
} as const;

const ORG_USER_NAME_MAX = 256;
export const orgUserName = text('Username').trim().toLowerCase().min(1, { error: orgUserMessages.userNameRequired, abort: true }).max(ORG_USER_NAME_MAX).regex(EMAIL_PATTERN, orgUserMessages.userNameNotValid);

// POST /api/users/find?username=: whether the (valid) user name is free; a malformed one answers 400 with the §5 text.
export const userNameQuery = z.object({ username: orgUserName });
export const userNameCheck = z.object({ exists: z.boolean(), message: text() });

export const invitationStatuses = ['Pending', 'Accepted'] as const;

// GET /api/users and GET /api/users/{id}. fullName and roles are kept for the Triage user picker (intake.ts
// organizationUser); role is the one role in the current organization. lastSignIn is ISO 8601 (UTC), null if never.
// invitationStatus: Pending until the user sets a password from the account-creation mail.
export const orgUser = z.object({
  id: text(),
  userName: text(),
  firstName: text(),
  lastName: text(),
  fullName: text(),
  email: text(),
  roles: z.array(z.enum(organizationRoles)),
  role: z.enum(organizationRoles),
  jobFunctionId: z.number().int().nullable(),
  jobFunction: text().nullable(),
  sendPermissions: z.number().int(),
  intakeRules: z.number().int(),
  lastSignIn: text().nullable(),
  invitationStatus: z.enum(invitationStatuses),
  enabled: z.boolean(),
  // includeNetwork: a user of another organization of a network the caller administers, read-only in the list.
  organizationId: text().optional(),
  organizationName: text().optional(),
});
export type OrgUser = z.infer<typeof orgUser>;
export const orgUsersPage = z.object({ items: z.array(orgUser), totalCount: z.number().int() });

// sort is JSON {"col","dir"}; the columns include the Triage picker's (userName, firstName, lastName, role).
export const orgUserSortColumns = ['name', 'userName', 'firstName', 'lastName', 'role', 'jobFunction', 'lastSignIn', 'enabled'] as const;
export const orgUserSort = z.object({ col: z.enum(orgUserSortColumns), dir: z.enum(['asc', 'desc']).default('asc') });
export type OrgUserSort = z.infer<typeof orgUserSort>;
export const ORG_USERS_PAGE_SIZE = 25;
export const orgUsersQuery = z.object({
  search: text('Search').trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(ORG_USERS_PAGE_SIZE),
  sort: text()
    .max(200)
    .optional()
    .transform((v, ctx): OrgUserSort => {
      if (!v) return { col: 'lastName', dir: 'asc' };
      try {
        const parsed = orgUserSort.safeParse(JSON.parse(v));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: `Sort is invalid: col is one of ${orgUserSortColumns.join(', ')}, dir asc or desc.` });
      return z.NEVER;
    }),
  // For network administrators: also the users of the other organizations of the networks they administer
  // (read-only rows carrying organizationName); for anyone else it changes nothing.
  includeNetwork: z.enum(['true', 'false']).optional(),
});

const orgUserFields = {
  firstName: text('First name').trim().min(1, orgUserMessages.firstNameRequired).max(255),
  lastName: text('Last name').trim().min(1, orgUserMessages.lastNameRequired).max(255),
  role: z.enum(organizationRoles, { error: orgUserMessages.roleRequired }),
  jobFunctionId: z.number({ error: orgUserMessages.jobFunctionRequired }).int().min(1, orgUserMessages.jobFunctionRequired),
};
// PUT /api/users/{id}: the user name (the sign-in, shared by every organization of the user) is not changed here.
export const orgUserUpdate = z.object(orgUserFields);
export type OrgUserUpdate = z.input<typeof orgUserUpdate>;
// POST /api/users: the user receives the account-creation mail with a link to set a password; send permissions and
// intake rules (issue 13 §2) may be given at once, as with PUT /api/users/{id}/documentsources and /intakerules.
export const orgUserCreate = z.object({
  userName: orgUserName,
  ...orgUserFields,
  documentSourceIds: z.array(text().uuid()).max(500).default([]),
  intakeRuleIds: z.array(text().uuid()).max(500).default([]),
});
export type OrgUserCreate = z.input<typeof orgUserCreate>;
export const orgUserEnableQuery = z.object({ enable: z.enum(['true', 'false']).transform((v) => v === 'true') });

// end-user §5: the user name is checked 1 s after the last key.
export const USERNAME_CHECK_DEBOUNCE_MS = 1_000;

// The web's create and edit form: one flat object whose role and job function stay blank until chosen; the same
// texts as the server's. The user name is only entered (and checked) when creating.
export const orgUserForm = z
  .object({
    id: text().optional(),
    userName: text().max(ORG_USER_NAME_MAX),
    firstName: orgUserFields.firstName,
    lastName: orgUserFields.lastName,
    role: text().refine((v) => (organizationRoles as readonly string[]).includes(v), orgUserMessages.roleRequired),
    jobFunctionId: z
      .number()
      .int()
      .nullable()
      .refine((v) => v !== null && v >= 1, orgUserMessages.jobFunctionRequired),
  })
  .superRefine((v, ctx) => {
    if (v.id) return;
    const userName = orgUserName.safeParse(v.userName);
    if (!userName.success) ctx.addIssue({ code: 'custom', path: ['userName'], message: userName.error.issues[0]!.message });
  });
export type OrgUserFormValues = z.infer<typeof orgUserForm>;

// ---- Issue 13 §2: a user's detail (security, activity, requests) ----

export const userDetailMessages = {
  authenticatorsRemoved: 'The authenticator was removed. The user will set up two-factor sign-in again.',
  applicationRemoved: 'The application was removed and its sessions were ended.',
  removeAuthenticatorPrompt: 'The user’s authenticator will be removed, and two-factor codes from it will no longer be asked for. Are you sure?',
  removeApplicationPrompt: 'The application will be signed out at once. Are you sure?',
  noAuthenticator: 'Two-factor sign-in is not set up.',
  noApplications: 'The user is not signed in anywhere.',
  noEvents: 'No activity in the last 14 days.',
  noRequests: 'The user has made no requests.',
} as const;

// Not shown in the spec: an "application" is where the user is signed in — their live sessions in this organization
// grouped by client (the user agent), since one browser or app renews its session with refresh tokens and may hold
// several. appId is derived from the user agent (stable while that client stays signed in); removing it ends those
// sessions and burns their refresh tokens at once, as disabling a user does.
export const userApplication = z.object({
  id: text(),
  name: text(),
  userAgent: text().nullable(),
  ipAddress: text(),
  sessions: z.number().int(),
  signedInOn: text(),
  lastUsedOn: text(),
});
export type UserApplication = z.infer<typeof userApplication>;
export const userApplicationParams = z.object({ id: text().uuid(), appId: text().regex(/^[0-9a-f]{16}$/, 'Application is invalid.') });

// GET /api/users/{id}: the list row plus what the detail's Security section shows.
// tokenAuthEnabled: the second factor is an authenticator app (else codes by email).
export const orgUserDetail = orgUser.extend({ twoFactorEnabled: z.boolean(), tokenAuthEnabled: z.boolean(), applications: z.array(userApplication) });
export type OrgUserDetail = z.infer<typeof orgUserDetail>;

// GET /api/users/{id}/events: the user's own actions in the organization from the audit log, newest first (30 over
// the last 14 days by default). Like the message Activity, only the type and time: audit details never leave here.
export const USER_EVENTS_PAGE_SIZE = 30;
export const USER_EVENTS_DAYS = 14;
export const userEventsQuery = z.object({
  pageSize: z.coerce.number().int().min(1).max(100).default(USER_EVENTS_PAGE_SIZE),
  pageStart: z.coerce.number().int().min(1).default(1),
  // Comma-separated event types (GET /api/users/{id}/events/type), as query parameters carry lists.
  eventTypes: text().trim().max(1000).optional(),
  // Only events at or after this instant (ISO 8601); the last 14 days when absent.
  start: text().trim().max(40).optional().refine((v) => !v || !Number.isNaN(Date.parse(v)), 'Start is invalid.'),
});
export const userEvent = z.object({ id: text(), eventType: text(), name: text(), createdOn: text(), ipAddress: text().nullable() });
export type UserEvent = z.infer<typeof userEvent>;
export const userEventsPage = z.object({ items: z.array(userEvent), totalCount: z.number().int() });
// GET /api/users/{id}/events/type: the types the user's events have, for the filter.
export const userEventType = z.object({ eventType: text(), name: text() });

// GET /api/users/{id}/requests: not shown in the spec; read as what the user asked the platform for and its state —
// invitations they sent (Sent, or Failed when the mail could not be delivered), Direct addresses and fax numbers
// they requested (the address's status now), and reactivation requests (Requested until the organization is active).
export const userRequestTypes = ['Invitation', 'DirectAddress', 'FaxNumber', 'Reactivation'] as const;
export const USER_REQUESTS_PAGE_SIZE = 10;
export const userRequestsQuery = z.object({
  pageSize: z.coerce.number().int().min(1).max(100).default(USER_REQUESTS_PAGE_SIZE),
  pageStart: z.coerce.number().int().min(1).default(1),
});
export const userRequest = z.object({ id: text(), type: z.enum(userRequestTypes), description: text(), status: text(), requestedOn: text() });
export type UserRequest = z.infer<typeof userRequest>;
export const userRequestsPage = z.object({ items: z.array(userRequest), totalCount: z.number().int() });
