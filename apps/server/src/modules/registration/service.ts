import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { DEFAULT_BRAND_NAME } from '@clinicrelay/contracts/messages.ts';
import { RESELLER_TYPE_LICENSING } from '@clinicrelay/contracts/organizations.ts';
import { registrationMessages as text, VERIFICATION_LINK_TTL_HOURS, type registrationRequest } from '@clinicrelay/contracts/registration.ts';
import type { Database, DbOrTx, Tx } from '../../db/client.ts';
import type { organizations } from '../../db/schema/organizations.ts';
import { writeAudit } from '../../platform/audit.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { passwordProblem } from '../../platform/auth/password-policy.ts';
import { createSignedToken, readSignedToken } from '../../platform/auth/signed-link.ts';
import { badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import { appUrl, linkMail } from '../../platform/mail/layout.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';
import * as userQueries from '../admin-users/queries.ts';
import * as orgQueries from '../organizations/queries.ts';
import { subdomainIsValid } from '../organizations/service.ts';
import { logoPath } from '../resellers/service.ts';
import * as q from './queries.ts';

export interface RegistrationDeps {
  db: Database;
  now: () => Date;
  signingKey: Uint8Array;
  mailFrom: MailAddress;
  publicUrl: string;
}

export interface Caller {
  ip: string;
}

// Self-registered organizations get the installation's one brand: resellers carry no brand of their own.
const DEFAULT_BRAND_ID = 'clinicrelay';
const VERIFY_PURPOSE = 'email-verification';
const VERIFICATION_MAIL = 'EmailVerification';
// At most this many verification mails to one address an hour (registration and resends together).
const VERIFICATION_MAILS_PER_HOUR = 5;

// Registering an address that already has an account mails that address instead of answering on screen (issue 26).
const ACCOUNT_EXISTS_MAIL = 'RegistrationAccountExists';

const field = (name: string, message: string) => badRequest(message, { [name]: [message] });
class UserNameExists extends Error {}

/** GET /api/account/register/reseller/{urlCode}: the branding of a reseller's registration link. */
export async function resellerBranding(deps: Pick<RegistrationDeps, 'db'>, urlCode: string) {
  const row = await q.findResellerByUrlCode(deps.db, urlCode);
  if (!row) throw notFound();
  return { name: row.name, logoUrl: logoPath(row), logoBackgroundColor: row.logoBackgroundColor, welcomeText: row.welcomeText, registrationText: row.registrationText };
}

// "Dr. Ana Souza" → first "Dr. Ana", last "Souza": the invitation keeps one full name; the form asks for two.
function splitName(fullName: string) {
  const parts = fullName.trim().split(/\s+/);
  const lastName = parts.length > 1 ? parts.pop()! : '';
  return { firstName: parts.join(' '), lastName };
}

/** GET /api/account/register/invitation?code=: the invitee's name and address to prefill the form. */
export async function invitationPrefill(deps: Pick<RegistrationDeps, 'db'>, code: string) {
  const row = await q.findInvitationByCode(deps.db, code);
  if (!row) throw notFound();
  return { ...splitName(row.fullName), email: row.emailAddress, invitedBy: row.organizationName };
}

// A DNS label from the organization's name ("St. Mary's Clinic" → "st-marys-clinic"), made unique with -2, -3, …;
// a name that gives nothing usable (or a reserved word) falls back to "org-" and random characters.
export function subdomainBase(name: string) {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return slug;
}

async function freeSubdomain(tx: DbOrTx, name: string) {
  const base = subdomainBase(name);
  if (base) {
    for (let n = 1; n <= 20; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      if (!(await subdomainIsValid({ db: tx }, candidate))) break;
      if (!(await orgQueries.subdomainTaken(tx, candidate))) return candidate;
    }
  }
  return `org-${randomBytes(4).toString('hex')}`;
}

export const verificationLink = (publicUrl: string, token: string) => appUrl(publicUrl, `/account/verify?token=${encodeURIComponent(token)}`);

const verificationMail = (name: string, link: string) =>
  linkMail({
    subject: `Confirm your email address for ${DEFAULT_BRAND_NAME}`,
    name,
    intro: `Thank you for registering with ${DEFAULT_BRAND_NAME}. Confirm your email address to sign in:`,
    action: 'Confirm your email address',
    link,
    validity: `The link works once and expires in ${VERIFICATION_LINK_TTL_HOURS} hours. If you did not register, you can ignore this email.`,
  });

// The link is bound to the unconfirmed state: once the address is confirmed, no earlier link works again.
const binding = (user: { userName: string }) => `${user.userName}\nunconfirmed`;

async function queueVerificationMail(
  deps: Omit<RegistrationDeps, 'db'>,
  tx: DbOrTx,
  user: { id: string; userName: string; email: string; firstName: string; lastName: string },
  organizationId: string | null,
) {
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + VERIFICATION_LINK_TTL_HOURS * 3_600_000);
  const token = createSignedToken(deps.signingKey, VERIFY_PURPOSE, user.id, binding(user), expiresAt);
  const name = `${user.firstName} ${user.lastName}`.trim();
  const mail = verificationMail(name, verificationLink(deps.publicUrl, token));
  return queueMail(tx, { kind: VERIFICATION_MAIL, organizationId, from: deps.mailFrom, to: { name, address: user.email }, ...mail, queuedAt: now });
}

type Registration = z.output<typeof registrationRequest>;

/** POST /api/account/register: a new organization (not activated, terms not accepted, not ID-proofed) and its first Administrator, unconfirmed. */
export async function register(deps: RegistrationDeps, body: Registration, caller: Caller) {
  const userName = body.email;
  const problem = await passwordProblem(body.password, userName);
  if (problem) throw field('password', problem);
  const reseller = body.urlCode ? await q.findResellerByUrlCode(deps.db, body.urlCode) : undefined;
  if (body.urlCode && !reseller) throw field('urlCode', text.resellerNotFound);
  const invitation = body.invitation ? await q.findInvitationByCode(deps.db, body.invitation) : undefined;
  // argon2 outside the transaction (no connection waits on it), and before the existence check, so both answers cost the same.
  const passwordHash = await hashPassword(body.password);
  if (await userQueries.userNameTaken(deps.db, userName)) return accountExists(deps, userName, caller);

  const attempt = (tx: Tx) => createAccount(deps, tx, body, { passwordHash, reseller: reseller ? { id: reseller.id, type: reseller.type } : null, invitationId: invitation?.id ?? null }, caller);
  // Two registrations of one organization name at once: the loser's subdomain collides and is derived again.
  for (let tries = 0; ; tries++) {
    try {
      await deps.db.transaction(attempt);
      break;
    } catch (error) {
      if (error instanceof UserNameExists) return accountExists(deps, userName, caller);
      if (!isUniqueViolation(error)) throw error;
      if (await userQueries.userNameTaken(deps.db, userName)) return accountExists(deps, userName, caller);
      if (tries >= 2) throw error;
    }
  }
  return { message: text.registered };
}

async function createAccount(
  deps: RegistrationDeps,
  tx: Tx,
  body: Registration,
  extra: { passwordHash: string; reseller: { id: string; type: number } | null; invitationId: string | null },
  caller: Caller,
) {
  const now = deps.now();
  const subdomain = await freeSubdomain(tx, body.organizationName);
  // The free plan: a new organization starts without payment and chooses a paid plan later (issue 14 §4).
  const plan = await orgQueries.findFreePlan(tx);
  const organization = await orgQueries.insertOrganization(tx, {
    name: body.organizationName,
    subdomain,
    brandId: DEFAULT_BRAND_ID,
    planId: plan?.id ?? null,
    // The registration link's reseller takes the role its type says (back-office-a §3).
    affiliateResellerId: extra.reseller && extra.reseller.type !== RESELLER_TYPE_LICENSING ? extra.reseller.id : null,
    licensingResellerId: extra.reseller?.type === RESELLER_TYPE_LICENSING ? extra.reseller.id : null,
    isActivated: false,
    isAcceptedEula: false,
    isIdProofed: false,
    primaryContactFirstName: body.firstName,
    primaryContactLastName: body.lastName,
    primaryContactEmail: body.email,
    createdAt: now,
    modifiedAt: now,
  } satisfies typeof organizations.$inferInsert);
  const user = await userQueries.insertUser(tx, {
    userName: body.email,
    email: body.email,
    firstName: body.firstName,
    lastName: body.lastName,
    passwordHash: extra.passwordHash,
    passwordChangedAt: now,
    emailConfirmedAt: null,
    defaultOrganizationId: organization.id,
    createdAt: now,
    modifiedAt: now,
  });
  if (!user) throw new UserNameExists();
  await userQueries.insertMembership(tx, { userId: user.id, organizationId: organization.id, role: 'Administrator', createdAt: now });
  const mailId = await queueVerificationMail(deps, tx, user, organization.id);
  const audit = { userId: user.id, userName: user.userName, organizationId: organization.id, ip: caller.ip };
  await writeAudit(tx, { ...audit, eventType: 'OrganizationRegistered', correlationId: organization.id, details: { organizationId: organization.id, subdomain, resellerId: extra.reseller?.id ?? null, invitationId: extra.invitationId } }, now);
  await writeAudit(tx, { ...audit, eventType: 'EmailVerificationSent', correlationId: user.id, details: { mailId } }, now);
}

const accountExistsMail = (name: string, link: string) =>
  linkMail({
    subject: `You already have a ${DEFAULT_BRAND_NAME} account`,
    name,
    intro: `Someone, perhaps you, tried to register an organization with this email address. An account with this address already exists: sign in with it, or choose "Forgot password" on the sign-in page to set a new password.`,
    action: 'Sign in',
    link,
    validity: 'If it was not you, you can ignore this email: nothing was changed.',
  });

// The same answer as a new registration; the owner of the address learns from this mail (at most 5 an hour).
async function accountExists(deps: RegistrationDeps, userName: string, caller: Caller) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const user = await q.findUserByUserName(tx, userName);
    if (!user) return;
    if ((await q.countMailsSince(tx, ACCOUNT_EXISTS_MAIL, user.email, new Date(now.getTime() - 3_600_000))) >= VERIFICATION_MAILS_PER_HOUR) return;
    const name = `${user.firstName} ${user.lastName}`.trim();
    const mail = accountExistsMail(name, appUrl(deps.publicUrl, '/account/login'));
    const mailId = await queueMail(tx, { kind: ACCOUNT_EXISTS_MAIL, organizationId: user.defaultOrganizationId, from: deps.mailFrom, to: { name, address: user.email }, ...mail, queuedAt: now });
    await writeAudit(tx, { eventType: 'RegistrationOfExistingAccount', userId: user.id, userName: user.userName, organizationId: user.defaultOrganizationId, ip: caller.ip, correlationId: user.id, details: { mailId } }, now);
  });
  return { message: text.registered };
}

/** POST /api/account/verify: confirms the address of the link's user; the link is then used up. */
export async function verifyEmail(deps: Pick<RegistrationDeps, 'db' | 'now' | 'signingKey'>, token: string, caller: Caller) {
  const invalid = () => field('token', text.linkInvalid);
  const read = readSignedToken(token);
  const now = deps.now();
  if (!read || read.expiresAt <= now) throw invalid();
  await deps.db.transaction(async (tx) => {
    const user = await q.findUserForConfirmation(tx, read.subjectId);
    if (!user || user.isDisabled || user.emailConfirmedAt !== null || !read.verify(deps.signingKey, VERIFY_PURPOSE, binding(user))) throw invalid();
    if (!(await q.confirmEmail(tx, user.id, now))) throw invalid();
    await writeAudit(tx, { eventType: 'EmailConfirmed', userId: user.id, userName: user.userName, organizationId: user.defaultOrganizationId, ip: caller.ip, correlationId: user.id }, now);
  });
  return { message: text.emailConfirmed };
}

/** POST /api/account/verify/resend: a new link when the account waits for confirmation; the same answer either way. */
export async function resendVerification(deps: RegistrationDeps, email: string, caller: Caller) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const user = await q.findUnconfirmedUser(tx, email);
    if (!user) return;
    const recent = await q.countMailsSince(tx, VERIFICATION_MAIL, user.email, new Date(now.getTime() - 3_600_000));
    if (recent >= VERIFICATION_MAILS_PER_HOUR) return;
    const mailId = await queueVerificationMail(deps, tx, user, user.defaultOrganizationId);
    await writeAudit(tx, { eventType: 'EmailVerificationResent', userId: user.id, userName: user.userName, organizationId: user.defaultOrganizationId, ip: caller.ip, correlationId: user.id, details: { mailId } }, now);
  });
  return { message: text.resent };
}
