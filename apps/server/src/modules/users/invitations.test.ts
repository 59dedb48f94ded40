import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { INVITATIONS_PER_HOUR, invitationMessages } from '@clinicrelay/contracts/users.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { invitations } from '../../db/schema/directory.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { workflows } from '../../db/schema/workflows.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { SEND_MAIL_WORKFLOW } from '../../platform/mail/outbox.ts';
import { testConfig, useTestApp, type TestContext } from '../../test/app.ts';

const SEND = '/api/users/sendinvitation';
const LAKESIDE_USER = 'user@lakeside.example.org'; // Leo Shore
const LAKESIDE_ADMIN = 'admin@lakeside.example.org'; // Laura Lake
const LAKESIDE_DIRECT = 'intake@lakeside.direct.example.org';
const LAKESIDE_FAX = '5035550101';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const addressesOf = (field: ParsedMail['to'] | ParsedMail['from']) => [field ?? []].flat().flatMap((a) => a.value.map((v) => ({ name: v.name, address: v.address })));

// One app on its own database whose outbox is DATA_DIR/outbox (no SMTP_URL), with the worker that empties it.
function outboxApp(config: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-invitations-'));
  const t = useTestApp({ config: { DATA_DIR: dataDir, ...config } });
  const db = () => t.handle.db;
  return {
    t,
    db,
    dataDir,
    runWorkers: () => runOnce({ db: db(), handlers: workflowHandlers({ config: testConfig({ DATA_DIR: dataDir, ...config }), db: db(), now: () => t.clock.now }), logger: quiet }),
    emlPath: (mailId: string) => path.join(dataDir, 'outbox', `${mailId}.eml`),
    invitationsTo: (emailAddress: string) => db().select().from(invitations).where(eq(invitations.emailAddress, emailAddress)),
  };
}

const userId = async (t: TestContext, userName: string) => (await t.handle.db.select().from(users).where(eq(users.userName, userName)))[0]!.id;

describe('Send an Invite: POST /api/users/sendinvitation', () => {
  const { t, db, runWorkers, emlPath, invitationsTo } = outboxApp();
  const invite = (user: string | null, body: unknown) => t.call(user, 'POST', SEND, body);
  let lakeside: string;
  beforeAll(async () => {
    lakeside = (await db().select().from(organizations).where(eq(organizations.subdomain, 'lakeside')))[0]!.id;
  });
  const totals = async () => ({
    invitations: (await db().select({ n: count() }).from(invitations))[0]!.n,
    mails: (await db().select({ n: count() }).from(mailOutbox))[0]!.n,
  });

  it('Leo at Lakeside invites Dr. Ana Souza with Lakeside’s Direct address: stored, audited, and in the outbox once the worker ran', async () => {
    const res = await invite(LAKESIDE_USER, { fullName: '  Dr. Ana Souza ', emailAddress: 'ana.souza@clinic.example.com', directAddress: 'Intake@Lakeside.Direct.Example.org' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Invitation has been sent.' });

    const leo = await userId(t, LAKESIDE_USER);
    const [invitation] = await invitationsTo('ana.souza@clinic.example.com');
    expect(invitation).toMatchObject({ organizationId: lakeside, invitedBy: leo, fullName: 'Dr. Ana Souza', directAddress: LAKESIDE_DIRECT, createdAt: t.clock.now });
    // 32 random bytes, base64url.
    expect(invitation!.code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [audit] = await db().select().from(auditEvents).where(and(eq(auditEvents.eventType, 'InvitationSent'), eq(auditEvents.correlationId, invitation!.id)));
    expect(audit).toMatchObject({ userId: leo, userName: LAKESIDE_USER, organizationId: lakeside, ip: '127.0.0.1', details: { mailId: invitation!.mailId, directAddressShared: true } });
    // Who was invited stays in the invitation, not in the audit trail.
    expect(JSON.stringify(audit)).not.toMatch(/Souza|clinic\.example\.com/);

    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.id, invitation!.mailId!));
    expect(mail).toMatchObject({ kind: 'Invitation', organizationId: lakeside, status: 'Queued', toAddress: 'ana.souza@clinic.example.com', toName: 'Dr. Ana Souza' });
    const [workflow] = await db().select().from(workflows).where(eq(workflows.id, mail!.workflowId!));
    expect(workflow).toMatchObject({ type: SEND_MAIL_WORKFLOW, status: 'Pending', payload: { mailId: mail!.id } });
    // Nothing leaves before the worker runs.
    expect(existsSync(emlPath(mail!.id))).toBe(false);

    await runWorkers();
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.id, mail!.id))).toEqual([expect.objectContaining({ status: 'Sent', attempts: 1, deliveredTo: `${mail!.id}.eml` })]);
    const eml = await simpleParser(readFileSync(emlPath(mail!.id)));
    expect(eml.subject).toBe('Leo Shore invites you to ClinicRelay');
    expect(addressesOf(eml.from)).toEqual([{ name: 'ClinicRelay', address: 'no-reply@localhost' }]);
    expect(addressesOf(eml.to)).toEqual([{ name: 'Dr. Ana Souza', address: 'ana.souza@clinic.example.com' }]);
    expect(addressesOf(eml.replyTo)).toEqual([{ name: '', address: LAKESIDE_USER }]);
    const link = `http://localhost:8080/account/register?invitation=${invitation!.code}`;
    expect(eml.text).toContain('Hello Dr. Ana Souza,');
    expect(eml.text).toContain('Leo Shore of Lakeside Family Medicine invites you to join ClinicRelay');
    expect(eml.text).toContain(`Lakeside Family Medicine receives Direct messages at ${LAKESIDE_DIRECT}.`);
    expect(eml.text).toContain(link);
    expect(eml.html).toContain('<strong>Leo Shore</strong> of <strong>Lakeside Family Medicine</strong>');
    expect(eml.html).toContain(`<strong>${LAKESIDE_DIRECT}</strong>`);
    expect(eml.html).toContain(`<a href="${link}"`);
  });

  it('lets an Administrator invite too; without a Direct address the mail offers none', async () => {
    for (const [email, directAddress] of [['no.address@clinic.example.com', undefined], ['null.address@clinic.example.com', null], ['empty.address@clinic.example.com', '']] as const) {
      const res = await invite(LAKESIDE_ADMIN, { fullName: 'Dr. Ben Ortiz', emailAddress: email, ...(directAddress === undefined ? {} : { directAddress }) });
      expect(res.statusCode, `${String(directAddress)}: ${res.body}`).toBe(200);
      const [invitation] = await invitationsTo(email);
      expect(invitation).toMatchObject({ organizationId: lakeside, invitedBy: await userId(t, LAKESIDE_ADMIN), directAddress: null });
    }
    await runWorkers();
    const [invitation] = await invitationsTo('no.address@clinic.example.com');
    const eml = await simpleParser(readFileSync(emlPath(invitation!.mailId!)));
    expect(eml.subject).toBe('Laura Lake invites you to ClinicRelay');
    expect(eml.text).not.toContain('Direct messages at');
    expect(eml.html).not.toContain('Direct messages at');
  });

  it('says what is missing or wrong at its field, and stores and sends nothing', async () => {
    const before = await totals();
    const cases: [string, unknown, { message: string; modelState: Record<string, string[]> }][] = [
      ['nothing filled in', {}, { message: messages.invalidRequest, modelState: { fullName: [invitationMessages.fullNameRequired], emailAddress: [invitationMessages.emailRequired] } }],
      ['no full name', { emailAddress: 'ana@clinic.example.com' }, { message: invitationMessages.fullNameRequired, modelState: { fullName: [invitationMessages.fullNameRequired] } }],
      ['a blank full name', { fullName: '   ', emailAddress: 'ana@clinic.example.com' }, { message: invitationMessages.fullNameRequired, modelState: { fullName: [invitationMessages.fullNameRequired] } }],
      ['no email address', { fullName: 'Dr. Ana Souza' }, { message: invitationMessages.emailRequired, modelState: { emailAddress: [invitationMessages.emailRequired] } }],
      ['an empty email address', { fullName: 'Dr. Ana Souza', emailAddress: '' }, { message: invitationMessages.emailRequired, modelState: { emailAddress: [invitationMessages.emailRequired] } }],
      ['an email address without a domain', { fullName: 'Dr. Ana Souza', emailAddress: 'ana@clinic' }, { message: invitationMessages.emailInvalid, modelState: { emailAddress: [invitationMessages.emailInvalid] } }],
      ['an email address with spaces', { fullName: 'Dr. Ana Souza', emailAddress: 'ana souza@clinic.example.com' }, { message: invitationMessages.emailInvalid, modelState: { emailAddress: [invitationMessages.emailInvalid] } }],
      ['Riverview’s Direct address', { fullName: 'Dr. Ana Souza', emailAddress: 'ana@clinic.example.com', directAddress: RIVERVIEW_DIRECT }, { message: invitationMessages.directAddressNotOurs, modelState: { directAddress: [invitationMessages.directAddressNotOurs] } }],
      ['Lakeside’s fax number', { fullName: 'Dr. Ana Souza', emailAddress: 'ana@clinic.example.com', directAddress: LAKESIDE_FAX }, { message: invitationMessages.directAddressNotOurs, modelState: { directAddress: [invitationMessages.directAddressNotOurs] } }],
      ['an address of nobody here', { fullName: 'Dr. Ana Souza', emailAddress: 'ana@clinic.example.com', directAddress: 'someone@direct.elsewhere.example.org' }, { message: invitationMessages.directAddressNotOurs, modelState: { directAddress: [invitationMessages.directAddressNotOurs] } }],
    ];
    for (const [what, body, expected] of cases) {
      const res = await invite(LAKESIDE_USER, body);
      expect(res.statusCode, what).toBe(400);
      expect(res.json(), what).toEqual(expected);
    }
    expect(await totals()).toEqual(before);
  });

  it('refuses anonymous callers (401) and system administrators (403)', async () => {
    const body = { fullName: 'Dr. Ana Souza', emailAddress: 'ana@clinic.example.com' };
    const anonymous = await invite(null, body);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: messages.tokenRevokedOrExpired });
    const sysadmin = await invite('sysadmin@example.org', body);
    expect(sysadmin.statusCode).toBe(403);
    expect(sysadmin.json()).toEqual({ message: messages.notAuthorized });
    // Oakwood is canceled: its users invite nobody.
    expect((await invite('user@oakwood.example.org', body)).statusCode).toBe(403);
  });

  it('escapes a name like <script> in the HTML, and keeps it as typed in the text', async () => {
    const nina = eq(users.userName, 'netadmin@example.org');
    const [before] = await db().select().from(users).where(nina);
    await db().update(users).set({ firstName: '<img src=x onerror=alert(1)>' }).where(nina);
    try {
      const fullName = '<script>alert("hi")</script> & Co';
      expect((await invite('netadmin@example.org', { fullName, emailAddress: 'script@clinic.example.com', directAddress: LAKESIDE_DIRECT })).statusCode).toBe(200);
      await runWorkers();
      const [invitation] = await invitationsTo('script@clinic.example.com');
      const eml = await simpleParser(readFileSync(emlPath(invitation!.mailId!)));
      expect(eml.html).not.toContain('<script');
      expect(eml.html).not.toContain('<img');
      expect(eml.html).toContain('Hello &lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &amp; Co,');
      expect(eml.html).toContain('<strong>&lt;img src=x onerror=alert(1)&gt; Network</strong>');
      expect(eml.text).toContain(`Hello ${fullName},`);
      expect(eml.subject).toBe('<img src=x onerror=alert(1)> Network invites you to ClinicRelay');
      expect(addressesOf(eml.to)).toEqual([{ name: fullName, address: 'script@clinic.example.com' }]);
    } finally {
      await db().update(users).set({ firstName: before!.firstName }).where(nina);
    }
  });

  it(`lets one user send ${INVITATIONS_PER_HOUR} an hour, then answers 429 until the oldest is an hour old`, async () => {
    const start = new Date();
    t.clock.now = start;
    try {
      const ray = 'user@riverview.example.org';
      const send = (n: number, user = ray) => invite(user, { fullName: `Provider ${n}`, emailAddress: `provider${n}@limit.example.com`, directAddress: RIVERVIEW_DIRECT });
      for (let n = 1; n <= INVITATIONS_PER_HOUR; n++) {
        // Spread over the hour: the first one leaves the window first.
        t.clock.now = new Date(start.getTime() + n * 60_000);
        const res = await send(n);
        expect(res.statusCode, `invitation ${n}: ${res.body}`).toBe(200);
      }
      const before = await totals();
      const refused = await send(21);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ message: invitationMessages.tooManyInvitations });
      // The first was sent 19 minutes before: it leaves the hour in 41 minutes.
      expect(Number(refused.headers['retry-after'])).toBe(41 * 60);
      expect(await totals()).toEqual(before);

      // Another user of the same organization is not held back.
      expect((await send(22, 'admin@riverview.example.org')).statusCode).toBe(200);

      // An hour after the first, one more fits, and only one.
      t.clock.now = new Date(start.getTime() + 61 * 60_000 + 1000);
      expect((await send(23)).statusCode).toBe(200);
      expect((await send(24)).statusCode).toBe(429);
    } finally {
      t.clock.now = new Date();
    }
  });

  it('holds to the limit when a client sends many at the same moment', async () => {
    const morgan = 'multi@example.org';
    // Signed in first, so the requests below start together rather than one sign-in apart.
    expect((await t.call(morgan, 'GET', '/api/users/profiledata')).statusCode).toBe(200);
    const attempts = INVITATIONS_PER_HOUR + 5;
    const results = await Promise.all(
      Array.from({ length: attempts }, (_, n) => invite(morgan, { fullName: `Provider ${n}`, emailAddress: `burst${n}@limit.example.com` })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(INVITATIONS_PER_HOUR);
    expect(codes.filter((c) => c === 429)).toHaveLength(attempts - INVITATIONS_PER_HOUR);
    const sent = await db().select({ n: count() }).from(invitations).where(eq(invitations.invitedBy, await userId(t, morgan)));
    expect(sent[0]!.n).toBe(INVITATIONS_PER_HOUR);
  });
});

describe('Send an Invite on an installation with PUBLIC_URL', () => {
  const { t, runWorkers, emlPath, invitationsTo } = outboxApp({ PUBLIC_URL: 'https://relay.example.org/' });

  it('links to PUBLIC_URL’s registration page and sends from no-reply at its host', async () => {
    const res = await t.call(LAKESIDE_USER, 'POST', SEND, { fullName: 'Dr. Ana Souza', emailAddress: 'ana@clinic.example.com' });
    expect(res.statusCode, res.body).toBe(200);
    await runWorkers();
    const [invitation] = await invitationsTo('ana@clinic.example.com');
    const eml = await simpleParser(readFileSync(emlPath(invitation!.mailId!)));
    expect(eml.text).toContain(`https://relay.example.org/account/register?invitation=${invitation!.code}`);
    expect(addressesOf(eml.from)).toEqual([{ name: 'ClinicRelay', address: 'no-reply@relay.example.org' }]);
    expect(eml.messageId).toBe(`<${invitation!.mailId}@relay.example.org>`);
  });
});
