import { and, desc, eq } from 'drizzle-orm';
import { passwordMessages } from '@clinicrelay/contracts/passwords.ts';
import { describe, expect, it } from 'vitest';
import { registrationMessages as text, VERIFICATION_LINK_TTL_HOURS } from '@clinicrelay/contracts/registration.ts';
import { orgUserMessages } from '@clinicrelay/contracts/users.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { TEST_PASSWORD, useTestApp, type TestContext } from '../../test/app.ts';
import { subdomainBase } from './service.ts';

const PASSWORD = 'Harbor-Lights-2031';
const SYSADMIN = 'sysadmin@example.org';

const form = (overrides: Record<string, unknown> = {}) => ({
  organizationName: 'Harbor Family Clinic',
  firstName: 'Hazel',
  lastName: 'Harbor',
  email: 'hazel@harbor.example.com',
  password: PASSWORD,
  confirmPassword: PASSWORD,
  ...overrides,
});

const register = (t: TestContext, body: unknown) => t.call(null, 'POST', '/api/account/register', body);
const signIn = (t: TestContext, userName: string, password = PASSWORD) => t.app.inject({ method: 'POST', url: '/api/account/login', payload: { userName, password } });

// The verification link of the latest mail to the address: /account/verify?token=…
async function latestToken(t: TestContext, address: string) {
  const [mail] = await t.handle.db.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, address), eq(mailOutbox.kind, 'EmailVerification'))).orderBy(desc(mailOutbox.createdAt)).limit(1);
  const link = /https?:\/\/\S+\/account\/verify\?token=([^\s"<]+)/.exec(mail!.textBody)![1]!;
  return decodeURIComponent(link);
}
const mailsTo = (t: TestContext, address: string) => t.handle.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, address));
const verify = (t: TestContext, token: string) => t.call(null, 'POST', '/api/account/verify', { token });

describe('Registration: POST /api/account/register', () => {
  const t = useTestApp();

  it('Hazel registers Harbor Family Clinic: a new organization not activated, her account its unconfirmed Administrator, a verification mail queued', async () => {
    const res = await register(t, form({ email: '  Hazel@Harbor.example.com ' }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: text.registered });

    const [user] = await t.handle.db.select().from(users).where(eq(users.userName, 'hazel@harbor.example.com'));
    expect(user).toMatchObject({ email: 'hazel@harbor.example.com', firstName: 'Hazel', lastName: 'Harbor', emailConfirmedAt: null, isDisabled: false });
    const [org] = await t.handle.db.select().from(organizations).where(eq(organizations.id, user!.defaultOrganizationId!));
    expect(org).toMatchObject({ name: 'Harbor Family Clinic', subdomain: 'harbor-family-clinic', isActivated: false, isAcceptedEula: false, isIdProofed: false, brandId: 'clinicrelay', planId: 'free', affiliateResellerId: null, licensingResellerId: null });
    expect(await t.handle.db.select({ role: memberships.role }).from(memberships).where(eq(memberships.userId, user!.id))).toEqual([{ role: 'Administrator' }]);

    const [mail] = await mailsTo(t, 'hazel@harbor.example.com');
    expect(mail).toMatchObject({ kind: 'EmailVerification', organizationId: org!.id, toName: 'Hazel Harbor', subject: 'Confirm your email address for ClinicRelay', status: 'Queued' });
    expect(mail!.textBody).toContain(`expires in ${VERIFICATION_LINK_TTL_HOURS} hours`);
    expect(mail!.htmlBody).toContain('/account/verify?token=');

    const audit = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.userId, user!.id));
    expect(audit.map((a) => a.eventType).sort()).toEqual(['EmailVerificationSent', 'OrganizationRegistered']);
    expect(audit.find((a) => a.eventType === 'OrganizationRegistered')).toMatchObject({ organizationId: org!.id, ip: '127.0.0.1', details: { subdomain: 'harbor-family-clinic', resellerId: null } });
    // No password or token in the audit trail.
    expect(JSON.stringify(audit)).not.toContain(PASSWORD);
  });

  it('a second organization of the same name gets its own subdomain', async () => {
    expect((await register(t, form({ email: 'other@harbor.example.com' }))).statusCode).toBe(200);
    const [user] = await t.handle.db.select().from(users).where(eq(users.userName, 'other@harbor.example.com'));
    const [org] = await t.handle.db.select().from(organizations).where(eq(organizations.id, user!.defaultOrganizationId!));
    expect(org!.subdomain).toBe('harbor-family-clinic-2');
  });

  it('derives a DNS label from the name', () => {
    expect(subdomainBase("St. Mary's Clínica & Co.")).toBe('st-marys-clinica-co');
    expect(subdomainBase('***')).toBe('');
  });

  it('answers an existing user name (any case) as a new one, creates nothing, and mails the address instead (issue 26)', async () => {
    const before = await t.handle.db.$count(organizations);
    const fresh = await register(t, form({ organizationName: 'Fresh Clinic', email: 'fresh@fresh.example.com' }));
    const res = await register(t, form({ email: 'Admin@Lakeside.example.org' }));
    expect(res.statusCode).toBe(fresh.statusCode);
    expect(res.json()).toEqual(fresh.json());
    expect(res.json()).toEqual({ message: text.registered });
    expect(await t.handle.db.$count(organizations)).toBe(before + 1);
    const [mail] = await t.handle.db.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, 'admin@lakeside.example.org'), eq(mailOutbox.kind, 'RegistrationAccountExists')));
    expect(mail!.subject).toBe('You already have a ClinicRelay account');
    expect(mail!.textBody).toContain('An account with this address already exists');
    expect(mail!.textBody).toContain('/account/login');
    // The account itself is untouched: its password still signs in.
    expect((await t.call(null, 'POST', '/api/account/login', { userName: 'admin@lakeside.example.org', password: TEST_PASSWORD })).statusCode).not.toBe(401);
  });

  it('answers every field rule with its text', async () => {
    const bad = await register(t, { organizationName: ' ', firstName: '', lastName: '', email: 'not-an-email', password: '', confirmPassword: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().modelState).toMatchObject({
      organizationName: [text.organizationNameRequired],
      firstName: [text.firstNameRequired],
      lastName: [text.lastNameRequired],
      email: [orgUserMessages.userNameNotValid],
      password: [text.passwordRequired],
      confirmPassword: [text.confirmPasswordRequired],
    });
    const mismatch = await register(t, form({ email: 'mismatch@harbor.example.com', confirmPassword: 'Something-else-2031' }));
    expect(mismatch.json().modelState).toEqual({ confirmPassword: [text.passwordsDoNotMatch] });
    const noEmail = await register(t, form({ email: '' }));
    expect(noEmail.json().modelState).toEqual({ email: [orgUserMessages.userNameRequired] });
  });

  it('refuses a password the policy refuses (passwordProblem), with its message on the password field', async () => {
    const short = await register(t, form({ email: 'weak@harbor.example.com', password: 'short', confirmPassword: 'short' }));
    expect(short.statusCode).toBe(400);
    expect(short.json().modelState.password).toEqual([expect.stringMatching(/at least 8 characters/)]);
    const withName = await register(t, form({ email: 'weakling@harbor.example.com', password: 'weakling-2031!', confirmPassword: 'weakling-2031!' }));
    expect(withName.statusCode).toBe(400);
    expect(withName.json().modelState.password).toHaveLength(1);
    const guessable = await register(t, form({ email: 'rowan@harbor.example.com', password: 'Summer2023!', confirmPassword: 'Summer2023!' }));
    expect(guessable.statusCode).toBe(400);
    expect(guessable.json().modelState.password).toEqual([passwordMessages.wordAndYear]);
    const breached = await register(t, form({ email: 'ash@harbor.example.com', password: 'Sunshine', confirmPassword: 'Sunshine' }));
    expect(breached.json().modelState.password).toEqual([passwordMessages.breached]);
    expect(await t.handle.db.$count(users, eq(users.userName, 'weakling@harbor.example.com'))).toBe(0);
  });

  it('refuses an unknown reseller code instead of registering without it', async () => {
    const res = await register(t, form({ email: 'lost@harbor.example.com', urlCode: 'no-such-reseller' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: text.resellerNotFound, modelState: { urlCode: [text.resellerNotFound] } });
  });
});

describe('Email verification: POST /api/account/verify and /verify/resend, sign-in', () => {
  const t = useTestApp();
  const EMAIL = 'quinn@quayside.example.com';

  it('refuses sign-in before the address is confirmed, only after the password matched', async () => {
    await register(t, form({ organizationName: 'Quayside Clinic', firstName: 'Quinn', lastName: 'Quay', email: EMAIL }));
    const wrong = await signIn(t, EMAIL, 'Not-the-password-1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).not.toBe(text.emailNotConfirmed);
    const right = await signIn(t, EMAIL);
    expect(right.statusCode).toBe(401);
    expect(right.json()).toEqual({ message: text.emailNotConfirmed });
    const [refused] = await t.handle.db.select().from(auditEvents).where(and(eq(auditEvents.userName, EMAIL), eq(auditEvents.eventType, 'LoginRefusedEmailNotConfirmed')));
    expect(refused).toBeDefined();
  });

  it('confirms the address once from the link; then Quinn signs in, and the link is used up', async () => {
    const token = await latestToken(t, EMAIL);
    const first = await verify(t, token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: text.emailConfirmed });
    const [user] = await t.handle.db.select().from(users).where(eq(users.userName, EMAIL));
    expect(user!.emailConfirmedAt).toBeInstanceOf(Date);
    expect(await t.handle.db.$count(auditEvents, and(eq(auditEvents.userId, user!.id), eq(auditEvents.eventType, 'EmailConfirmed')))).toBe(1);

    const again = await verify(t, token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: text.linkInvalid, modelState: { token: [text.linkInvalid] } });

    const res = await signIn(t, EMAIL);
    expect(res.statusCode).toBe(200);
    const me = await t.call(res.json().accessToken, 'GET', '/api/users/profiledata');
    expect(me.statusCode).toBe(200);
  });

  it('refuses an expired, tampered or malformed link', async () => {
    const email = 'late@quayside.example.com';
    await register(t, form({ organizationName: 'Late Clinic', email }));
    const token = await latestToken(t, email);
    const [payload, sig] = token.split('.');
    const forged = `${Buffer.from(`${Buffer.from(payload!, 'base64url').toString().split('.')[0]}.${Date.now() + 10 ** 10}`).toString('base64url')}.${sig}`;
    for (const bad of [forged, 'garbage', `${token}x`, '']) {
      const res = await verify(t, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe(text.linkInvalid);
    }
    const saved = t.clock.now;
    t.clock.now = new Date(saved.getTime() + (VERIFICATION_LINK_TTL_HOURS * 3600 + 60) * 1000);
    try {
      const expired = await verify(t, token);
      expect(expired.statusCode).toBe(400);
      expect(expired.json().message).toBe(text.linkInvalid);
    } finally {
      t.clock.now = saved;
    }
  });

  it('resends a link without telling whether the account exists; the new link works', async () => {
    const email = 'late@quayside.example.com';
    const answers = await Promise.all(
      [email, 'nobody@nowhere.example.com', 'admin@lakeside.example.org', EMAIL].map((e) => t.call(null, 'POST', '/api/account/verify/resend', { email: e })),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: text.resent });
    }
    // Only the address still waiting got a mail; confirmed and unknown ones none.
    expect((await mailsTo(t, email)).length).toBe(2);
    expect((await mailsTo(t, 'nobody@nowhere.example.com')).length).toBe(0);
    expect((await mailsTo(t, 'admin@lakeside.example.org')).filter((m) => m.kind === 'EmailVerification')).toHaveLength(0);
    expect((await mailsTo(t, EMAIL)).length).toBe(1);

    expect((await verify(t, await latestToken(t, email))).statusCode).toBe(200);
    expect((await signIn(t, email)).statusCode).toBe(200);
  });

  it('sends at most five verification mails an hour to one address', async () => {
    const email = 'flood@quayside.example.com';
    await register(t, form({ organizationName: 'Flood Clinic', email }));
    for (let i = 0; i < 8; i++) expect((await t.call(null, 'POST', '/api/account/verify/resend', { email })).statusCode).toBe(200);
    expect((await mailsTo(t, email)).length).toBe(5);
  });

  it('asks for an email address to resend to', async () => {
    const res = await t.call(null, 'POST', '/api/account/verify/resend', { email: ' ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().modelState).toEqual({ email: [text.emailRequired] });
  });

  it('leaves accounts made by administrators and the seed confirmed', async () => {
    const res = await t.login('admin@lakeside.example.org');
    expect(res.accessToken).toBeTruthy();
  });
});

describe('The registration page’s public reads', () => {
  const t = useTestApp();

  it('offers no public username check: whether an account exists is not told to an anonymous caller (issue 26)', async () => {
    expect((await t.call(null, 'POST', '/api/account/register/find?username=admin%40lakeside.example.org')).statusCode).toBe(404);
    // POST /api/users/find stays the Administrators' (spec): anonymous 401, a User 403.
    expect((await t.call(null, 'POST', '/api/users/find?username=admin%40lakeside.example.org')).statusCode).toBe(401);
    expect((await t.call('user@lakeside.example.org', 'POST', '/api/users/find?username=admin%40lakeside.example.org')).statusCode).toBe(403);
    expect((await t.call('admin@lakeside.example.org', 'POST', '/api/users/find?username=admin%40lakeside.example.org')).json()).toEqual({ exists: true, message: orgUserMessages.userNameExists });
  });

  it('brands a reseller link: name, logo, colour and texts only; a registration from it carries the reseller', async () => {
    const created = await t.call(SYSADMIN, 'POST', '/api/resellers', {
      name: 'Northwind Health Partners',
      urlCode: 'Northwind',
      welcomeText: 'Welcome, Northwind members!',
      registrationText: 'Register with your practice details.',
      logoBackgroundColor: '3f4449',
      sponsor: 'Secret sponsor',
    });
    expect(created.statusCode).toBe(200);
    const branding = await t.call(null, 'GET', '/api/account/register/reseller/northwind');
    expect(branding.statusCode).toBe(200);
    expect(branding.json()).toEqual({ name: 'Northwind Health Partners', logoUrl: null, logoBackgroundColor: '3f4449', welcomeText: 'Welcome, Northwind members!', registrationText: 'Register with your practice details.' });
    const missing = await t.call(null, 'GET', '/api/account/register/reseller/nobody');
    expect(missing.statusCode).toBe(404);

    expect((await register(t, form({ organizationName: 'Northwind Pediatrics', email: 'nora@northwind.example.com', urlCode: 'NORTHWIND' }))).statusCode).toBe(200);
    const [user] = await t.handle.db.select().from(users).where(eq(users.userName, 'nora@northwind.example.com'));
    const [org] = await t.handle.db.select().from(organizations).where(eq(organizations.id, user!.defaultOrganizationId!));
    // An affiliate's link makes it the organization's affiliate reseller (back-office-a §3).
    expect(created.json().type).toBe(0);
    expect(org).toMatchObject({ affiliateResellerId: created.json().id, licensingResellerId: null });
  });

  it('prefills the form from an invitation link, which carries the invitation code', async () => {
    const sent = await t.call('user@lakeside.example.org', 'POST', '/api/users/sendinvitation', { fullName: 'Dr. Ana Souza', emailAddress: 'ana.souza@clinic.example.com' });
    expect(sent.statusCode).toBe(200);
    const [mail] = await mailsTo(t, 'ana.souza@clinic.example.com');
    const code = decodeURIComponent(/\/account\/register\?invitation=([^\s"<]+)/.exec(mail!.textBody)![1]!);
    const prefill = await t.call(null, 'GET', `/api/account/register/invitation?code=${encodeURIComponent(code)}`);
    expect(prefill.statusCode).toBe(200);
    expect(prefill.json()).toEqual({ firstName: 'Dr. Ana', lastName: 'Souza', email: 'ana.souza@clinic.example.com', invitedBy: 'Lakeside Family Medicine' });
    expect((await t.call(null, 'GET', '/api/account/register/invitation?code=unknown')).statusCode).toBe(404);

    expect((await register(t, form({ organizationName: 'Souza Cardiology', email: 'ana.souza@clinic.example.com', invitation: code }))).statusCode).toBe(200);
    const [registered] = await t.handle.db.select().from(auditEvents).where(and(eq(auditEvents.userName, 'ana.souza@clinic.example.com'), eq(auditEvents.eventType, 'OrganizationRegistered')));
    expect(registered!.details).toMatchObject({ invitationId: expect.any(String) });
  });

  it('needs no session for any of them, and a signed-in caller gets the same answers', async () => {
    const res = await t.call('user@lakeside.example.org', 'GET', '/api/account/register/invitation?code=unknown');
    expect(res.statusCode).toBe(404);
  });
});

describe('Rate limits of the public registration calls', () => {
  const t = useTestApp({ config: { LOGIN_RATE_LIMIT_PER_MINUTE: '2' } });

  it('answers 429 past the limit for registration, verification and resend', async () => {
    for (const [url, body] of [
      ['/api/account/register', form({ email: 'x@rate.example.com', password: 'x', confirmPassword: 'x' })],
      ['/api/account/verify', { token: 'nope' }],
      ['/api/account/verify/resend', { email: 'x@rate.example.com' }],
    ] as const) {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await t.call(null, 'POST', url, body)).statusCode);
      expect(codes[2], url).toBe(429);
    }
  });
});
