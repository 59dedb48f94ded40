import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { workflowSteps, workflows } from '../../db/schema/workflows.ts';
import { createTestDatabase } from '../../test/database.ts';
import { testConfig } from '../../test/app.ts';
import { selfSignedCertificate, type TestCertificate } from '../../test/self-signed-cert.ts';
import { workflowContext, type WorkflowLogger } from '../workflows/context.ts';
import { runOnce } from '../workflows/runner.ts';
import { escapeHtml, html } from './html.ts';
import { findMail, queueMail, SEND_MAIL_ATTEMPTS, SEND_MAIL_WORKFLOW, sendMailWorkflow, type MailToQueue } from './outbox.ts';
import { fileTransport, mailTransport, messageIdOf, SMTP_TIMEOUTS, smtpTransport, type MailTransport } from './transports.ts';

const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const tmp = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));

interface Received {
  mailFrom: string | false;
  rcptTo: string[];
  secure: boolean;
  user: unknown;
  parsed: ParsedMail;
}

// A real SMTP server on 127.0.0.1 and a random port, keeping what it accepted. Plain SMTP unless options say otherwise.
async function startSmtpServer(options: SMTPServerOptions = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        simpleParser(Buffer.concat(chunks)).then(
          (parsed) => {
            const { envelope } = session;
            received.push({ mailFrom: envelope.mailFrom && envelope.mailFrom.address, rcptTo: envelope.rcptTo.map((r) => r.address), secure: session.secure, user: session.user, parsed });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
    ...options,
  });
  // A client that refuses the server's certificate drops the handshake: the server reports it as an error event.
  const errors: Error[] = [];
  server.on('error', (error) => errors.push(error));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return { port, received, errors, close: () => new Promise<void>((done) => server.close(() => done())) };
}

const addressesOf = (field: ParsedMail['to'] | ParsedMail['from']) => [field ?? []].flat().flatMap((a) => a.value.map((v) => ({ name: v.name, address: v.address })));

const invitationLike = (overrides: Partial<MailToQueue> = {}): MailToQueue => ({
  kind: 'Invitation',
  from: { name: 'ClinicRelay', address: 'no-reply@relay.example.org' },
  to: { name: 'Dr. Ana Souza', address: 'ana.souza@clinic.example.com' },
  replyTo: 'maria.lee@lakeside.example.org',
  subject: 'Maria Lee invites you to ClinicRelay',
  text: 'Hello Dr. Ana Souza,\n\nCreate your account:\nhttp://localhost:8080/account/register?invitation=abc\n',
  html: html`<p>Hello ${'Dr. Ana Souza'},</p><p><a href="${'http://localhost:8080/account/register?invitation=abc&x=1'}">Create your account</a></p>`,
  queuedAt: new Date('2026-03-02T15:04:05Z'),
  ...overrides,
});

describe('the mail outbox', () => {
  let handle: DatabaseHandle;
  const db = () => handle.db;
  const clock = { now: new Date('2026-03-02T15:05:00Z') };
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());
  // A test that stopped half-way leaves no send-mail workflow for the next one's worker to pick up.
  afterEach(async () => {
    await db()
      .update(workflows)
      .set({ status: 'Completed' })
      .where(and(eq(workflows.type, SEND_MAIL_WORKFLOW), inArray(workflows.status, ['Pending', 'Running'])));
  });

  const queue = (mail: MailToQueue = invitationLike()) => db().transaction((tx) => queueMail(tx, mail));
  const run = (transport: MailTransport) =>
    runOnce({ db: db(), handlers: new Map([[SEND_MAIL_WORKFLOW, sendMailWorkflow({ db: db(), transport, now: () => clock.now })]]), logger: quiet });
  const workflowOf = async (mailId: string) => (await db().select().from(workflows).where(eq(workflows.correlationId, mailId)))[0]!;
  // Moves the retry's time to now, as if its backoff had passed.
  const makeDue = async (mailId: string) => db().update(workflows).set({ runAfter: sql`now()` }).where(eq(workflows.correlationId, mailId));

  it('queues a mail and its send-mail workflow in the caller’s transaction: a rollback leaves neither', async () => {
    const rollback = new Error('the invitation could not be saved');
    let queuedId = '';
    await expect(
      db().transaction(async (tx) => {
        queuedId = await queueMail(tx, invitationLike());
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await findMail(db(), queuedId)).toBeUndefined();
    expect(await db().select().from(workflows).where(eq(workflows.correlationId, queuedId))).toEqual([]);

    const id = await queue();
    const workflow = await workflowOf(id);
    expect(workflow).toMatchObject({ type: SEND_MAIL_WORKFLOW, status: 'Pending', payload: { mailId: id }, maxAttempts: SEND_MAIL_ATTEMPTS });
    expect(await findMail(db(), id)).toMatchObject({ status: 'Queued', attempts: 0, lastError: null, workflowId: workflow.id, kind: 'Invitation', toAddress: 'ana.souza@clinic.example.com' });
  });

  describe('over SMTP (SMTP_URL)', () => {
    it('sends through a plain SMTP server: the server receives the subject, addresses and both bodies, and the row says Sent', async () => {
      const server = await startSmtpServer();
      try {
        const config = testConfig({ SMTP_URL: `smtp://127.0.0.1:${server.port}` });
        expect(config.smtp).toMatchObject({ host: '127.0.0.1', port: server.port, secure: false, requireTLS: false, auth: undefined });
        const id = await queue();
        expect(await run(mailTransport(config))).toBe(1);

        expect(server.received).toHaveLength(1);
        const [got] = server.received;
        expect(got).toMatchObject({ mailFrom: 'no-reply@relay.example.org', rcptTo: ['ana.souza@clinic.example.com'], secure: false });
        const mail = got!.parsed;
        expect(mail.subject).toBe('Maria Lee invites you to ClinicRelay');
        expect(addressesOf(mail.from)).toEqual([{ name: 'ClinicRelay', address: 'no-reply@relay.example.org' }]);
        expect(addressesOf(mail.to)).toEqual([{ name: 'Dr. Ana Souza', address: 'ana.souza@clinic.example.com' }]);
        expect(addressesOf(mail.replyTo)).toEqual([{ name: '', address: 'maria.lee@lakeside.example.org' }]);
        expect(mail.text).toContain('http://localhost:8080/account/register?invitation=abc');
        expect(mail.html).toContain('<a href="http://localhost:8080/account/register?invitation=abc&amp;x=1">Create your account</a>');
        expect(mail.messageId).toBe(`<${id}@relay.example.org>`);
        expect(mail.date?.toISOString()).toBe('2026-03-02T15:04:05.000Z');

        const row = await findMail(db(), id);
        expect(row).toMatchObject({ status: 'Sent', attempts: 1, lastError: null, sentAt: clock.now });
        expect(row!.deliveredTo).toMatch(/^250 /);
        expect((await workflowOf(id)).status).toBe('Completed');

        // Done is done: another worker pass sends nothing.
        expect(await run(mailTransport(config))).toBe(0);
        expect(server.received).toHaveLength(1);
      } finally {
        await server.close();
      }
    });

    it('keeps trying a server that refuses, with backoff, and ends Failed with the server’s reason for all to see', async () => {
      let refusals = 0;
      const server = await startSmtpServer({
        onRcptTo(_address, _session, callback) {
          refusals++;
          callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        },
      });
      try {
        const transport = mailTransport(testConfig({ SMTP_URL: `smtp://127.0.0.1:${server.port}` }));
        const id = await queue();
        await run(transport);
        expect(await findMail(db(), id)).toMatchObject({ status: 'Queued', attempts: 1, sentAt: null });
        expect((await findMail(db(), id))!.lastError).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+: .*550 Mailbox unavailable/);
        const first = await workflowOf(id);
        expect(first).toMatchObject({ status: 'Pending', attempts: 1 });
        // The runner's backoff, not an immediate retry.
        expect(first.runAfter.getTime()).toBeGreaterThan(Date.now() + 1000);
        expect(await run(transport)).toBe(0);

        for (let attempt = 2; attempt <= SEND_MAIL_ATTEMPTS; attempt++) {
          await makeDue(id);
          expect(await run(transport)).toBe(1);
          expect((await findMail(db(), id))!.attempts).toBe(attempt);
        }
        const row = await findMail(db(), id);
        expect(row).toMatchObject({ status: 'Failed', attempts: SEND_MAIL_ATTEMPTS, sentAt: null, deliveredTo: null });
        expect(row!.lastError).toContain('550 Mailbox unavailable');
        expect(await workflowOf(id)).toMatchObject({ status: 'Failed', attempts: SEND_MAIL_ATTEMPTS });
        expect(refusals).toBe(SEND_MAIL_ATTEMPTS);
        expect(server.received).toEqual([]);
      } finally {
        await server.close();
      }
    });

    it('gives up on a server that accepts the connection but never greets, within the greeting timeout', async () => {
      const sockets = new Set<Socket>();
      const silent = createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = silent.address() as AddressInfo;
        const settings = testConfig({ SMTP_URL: `smtp://127.0.0.1:${port}` }).smtp!;
        const transport = smtpTransport(settings, { ...SMTP_TIMEOUTS, greetingMs: 300 });
        const id = await queue();
        const started = Date.now();
        await run(transport);
        expect(Date.now() - started).toBeLessThan(5000);
        expect(await findMail(db(), id)).toMatchObject({ status: 'Queued', attempts: 1 });
        expect((await findMail(db(), id))!.lastError).toMatch(/Greeting never received/);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((done) => silent.close(() => done()));
      }
    });

    describe('with TLS', () => {
      let cert: TestCertificate;
      let caFile: string;
      beforeAll(() => {
        cert = selfSignedCertificate();
        caFile = path.join(tmp('clinicrelay-smtp-ca-'), 'ca.pem');
        writeFileSync(caFile, cert.certPem);
      });

      it('refuses a server whose certificate it cannot verify, and delivers once SMTP_CA_FILE trusts it (smtps://, with a password)', async () => {
        const server = await startSmtpServer({
          secure: true,
          key: cert.keyPem,
          cert: cert.certPem,
          authOptional: false,
          onAuth(auth, _session, callback) {
            if (auth.username === 'relay' && auth.password === 'p@ss word') callback(null, { user: 'relay' });
            else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
          },
        });
        try {
          const url = `smtps://relay:p%40ss%20word@127.0.0.1:${server.port}`;
          const untrusting = testConfig({ SMTP_URL: url });
          expect(untrusting.smtp).toMatchObject({ secure: true, auth: { user: 'relay', pass: 'p@ss word' }, ca: undefined });
          const id = await queue();
          await run(mailTransport(untrusting));
          const refused = await findMail(db(), id);
          expect(refused).toMatchObject({ status: 'Queued', attempts: 1 });
          expect(refused!.lastError).toMatch(/^smtps:\/\/127\.0\.0\.1:\d+: .*self-signed certificate/);
          // The password never shows in what is stored.
          expect(refused!.lastError).not.toContain('p@ss');
          expect(server.received).toEqual([]);

          // The operator adds the server's CA; the next retry delivers.
          const trusting = testConfig({ SMTP_URL: url, SMTP_CA_FILE: caFile });
          expect(trusting.smtp!.ca).toContain('BEGIN CERTIFICATE');
          await makeDue(id);
          expect(await run(mailTransport(trusting))).toBe(1);
          expect(await findMail(db(), id)).toMatchObject({ status: 'Sent', attempts: 2, lastError: null });
          expect(server.received).toHaveLength(1);
          expect(server.received[0]).toMatchObject({ secure: true, user: 'relay' });
          expect(server.received[0]!.parsed.subject).toBe('Maria Lee invites you to ClinicRelay');
        } finally {
          await server.close();
        }
      });

      it('upgrades smtp:// with STARTTLS and verifies the certificate; requireTLS refuses a server without STARTTLS', async () => {
        const starttls = await startSmtpServer({ key: cert.keyPem, cert: cert.certPem, disabledCommands: [] });
        const plain = await startSmtpServer();
        try {
          // Offered STARTTLS with a certificate nobody vouches for: not sent in the clear instead.
          const id = await queue();
          await run(mailTransport(testConfig({ SMTP_URL: `smtp://127.0.0.1:${starttls.port}` })));
          expect((await findMail(db(), id))!.lastError).toMatch(/self-signed certificate/);
          expect(starttls.received).toEqual([]);

          await makeDue(id);
          await run(mailTransport(testConfig({ SMTP_URL: `smtp://127.0.0.1:${starttls.port}?requireTLS=true`, SMTP_CA_FILE: caFile })));
          expect(await findMail(db(), id)).toMatchObject({ status: 'Sent', attempts: 2 });
          expect(starttls.received).toHaveLength(1);
          expect(starttls.received[0]!.secure).toBe(true);

          const second = await queue();
          await run(mailTransport(testConfig({ SMTP_URL: `smtp://127.0.0.1:${plain.port}?requireTLS=true` })));
          expect(await findMail(db(), second)).toMatchObject({ status: 'Queued', attempts: 1 });
          expect((await findMail(db(), second))!.lastError).toMatch(/STARTTLS/);
          expect(plain.received).toEqual([]);
        } finally {
          await Promise.all([starttls.close(), plain.close()]);
        }
      });
    });
  });

  describe('as .eml files (no SMTP_URL)', () => {
    it('writes DATA_DIR/outbox/<id>.eml, a whole RFC 5322 message with both bodies, readable by the server’s user only', async () => {
      const dataDir = tmp('clinicrelay-outbox-');
      const config = testConfig({ DATA_DIR: dataDir });
      expect(config.smtp).toBeUndefined();
      const id = await queue();
      expect(await run(mailTransport(config))).toBe(1);

      const outbox = path.join(dataDir, 'outbox');
      // No temporary file is left beside it.
      expect(readdirSync(outbox)).toEqual([`${id}.eml`]);
      const file = path.join(outbox, `${id}.eml`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const raw = readFileSync(file);
      // CRLF line ends throughout, as RFC 5322 wants.
      expect(raw.toString('latin1')).not.toMatch(/[^\r]\n/);
      const mail = await simpleParser(raw);
      expect(mail.subject).toBe('Maria Lee invites you to ClinicRelay');
      expect(addressesOf(mail.from)).toEqual([{ name: 'ClinicRelay', address: 'no-reply@relay.example.org' }]);
      expect(addressesOf(mail.to)).toEqual([{ name: 'Dr. Ana Souza', address: 'ana.souza@clinic.example.com' }]);
      expect(mail.text).toContain('Create your account:');
      expect(mail.html).toContain('Create your account</a>');
      expect(mail.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
      expect(mail.messageId).toBe(`<${id}@relay.example.org>`);
      expect(await findMail(db(), id)).toMatchObject({ status: 'Sent', attempts: 1, deliveredTo: `${id}.eml` });
    });

    it('sends a mail once: a rerun of its workflow, even one that lost its step record, sends nothing again', async () => {
      const dataDir = tmp('clinicrelay-outbox-');
      const files = fileTransport(path.join(dataDir, 'outbox'));
      let sends = 0;
      const counting: MailTransport = { kind: 'file', send: (mail) => (sends++, files.send(mail)) };
      const id = await queue();
      await run(counting);
      expect(sends).toBe(1);

      // The worker died after the row said Sent but before its step was recorded: the rerun finds the row.
      const workflow = await workflowOf(id);
      await db().delete(workflowSteps).where(eq(workflowSteps.workflowId, workflow.id));
      const handler = sendMailWorkflow({ db: db(), transport: counting, now: () => clock.now });
      await handler(workflowContext({ db: db(), workflow, now: () => clock.now, signal: new AbortController().signal }));
      expect(sends).toBe(1);

      // A send repeated before anything was recorded replaces the file with the same message, never a second one.
      const mail = (await findMail(db(), id))!;
      const before = await simpleParser(readFileSync(path.join(dataDir, 'outbox', `${id}.eml`)));
      await files.send(mail);
      expect(readdirSync(path.join(dataDir, 'outbox'))).toEqual([`${id}.eml`]);
      const after = await simpleParser(readFileSync(path.join(dataDir, 'outbox', `${id}.eml`)));
      expect(after.messageId).toBe(before.messageId);
      expect(after.messageId).toBe(messageIdOf(mail));
    });

    it('keeps a header on one line whatever a name holds', async () => {
      const dataDir = tmp('clinicrelay-outbox-');
      const id = await queue(invitationLike({ to: { name: 'Ana\r\nBcc: victim@example.com', address: 'ana.souza@clinic.example.com' }, subject: 'Hi\r\nX-Injected: yes' }));
      await run(fileTransport(path.join(dataDir, 'outbox')));
      const mail = await simpleParser(readFileSync(path.join(dataDir, 'outbox', `${id}.eml`)));
      expect(mail.headers.has('x-injected')).toBe(false);
      expect(mail.bcc).toBeUndefined();
      expect(mail.subject).toBe('Hi X-Injected: yes');
      expect(addressesOf(mail.to)).toEqual([{ name: 'Ana Bcc: victim@example.com', address: 'ana.souza@clinic.example.com' }]);
    });
  });
});

describe('html`` for mail bodies', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const name = `<script>alert("x")</script> & O'Brien`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; O&#39;Brien">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; O&#39;Brien</p>',
    );
    expect(escapeHtml('a&b')).toBe('a&amp;b');
  });

  it('keeps fragments built with html`` as markup, and leaves out empty values', () => {
    const item = (text: string) => html`<li>${text}</li>`;
    expect(html`<ul>${['<a>', 'b'].map(item)}</ul>${null}${false}${undefined}${3}`.value).toBe('<ul><li>&lt;a&gt;</li><li>b</li></ul>3');
  });
});

describe('mail configuration', () => {
  const load = (env: Record<string, string>) => testConfig(env);

  it('takes From from MAIL_FROM, else no-reply at PUBLIC_URL’s host, else no-reply@localhost', () => {
    expect(load({}).mailFrom).toEqual({ name: 'ClinicRelay', address: 'no-reply@localhost' });
    expect(load({ PUBLIC_URL: 'https://relay.example.org' }).mailFrom).toEqual({ name: 'ClinicRelay', address: 'no-reply@relay.example.org' });
    expect(load({ PUBLIC_URL: 'http://10.0.0.5:8080' }).mailFrom).toEqual({ name: 'ClinicRelay', address: 'no-reply@localhost' });
    expect(load({ MAIL_FROM: 'Lakeside Relay <relay@lakeside.example.org>', PUBLIC_URL: 'https://relay.example.org' }).mailFrom).toEqual({ name: 'Lakeside Relay', address: 'relay@lakeside.example.org' });
    expect(load({ MAIL_FROM: 'relay@lakeside.example.org' }).mailFrom).toEqual({ name: 'ClinicRelay', address: 'relay@lakeside.example.org' });
    expect(() => load({ MAIL_FROM: 'not an address' })).toThrow(/MAIL_FROM: must be one address/);
    expect(() => load({ MAIL_FROM: 'a@example.org, b@example.org' })).toThrow(/MAIL_FROM: must be one address/);
  });

  it('understands smtp:// and smtps:// URLs and refuses anything else, naming SMTP_URL', () => {
    expect(load({ SMTP_URL: 'smtp://mail.example.org' }).smtp).toEqual({ host: 'mail.example.org', port: 587, secure: false, requireTLS: false, auth: undefined, ca: undefined });
    expect(load({ SMTP_URL: 'smtps://u%40x:secret@mail.example.org' }).smtp).toEqual({ host: 'mail.example.org', port: 465, secure: true, requireTLS: false, auth: { user: 'u@x', pass: 'secret' }, ca: undefined });
    expect(load({ SMTP_URL: 'smtp://[::1]:2525?requireTLS=true' }).smtp).toMatchObject({ host: '::1', port: 2525, requireTLS: true });
    expect(() => load({ SMTP_URL: 'http://mail.example.org' })).toThrow(/SMTP_URL: must start with smtp:\/\//);
    expect(() => load({ SMTP_URL: 'smtp://mail.example.org?tls.rejectUnauthorized=false' })).toThrow(/SMTP_URL: has unknown options \(tls\.rejectUnauthorized\)/);
    expect(() => load({ SMTP_URL: 'smtps://mail.example.org?requireTLS=true' })).toThrow(/SMTP_URL: requireTLS is for smtp:\/\//);
    expect(() => load({ SMTP_URL: 'smtp://mail.example.org', SMTP_CA_FILE: '/nonexistent/ca.pem' })).toThrow(/SMTP_CA_FILE: cannot read/);
  });
});
