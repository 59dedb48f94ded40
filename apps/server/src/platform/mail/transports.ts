import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { rootCertificates } from 'node:tls';
import { createTransport, type SMTPTransportOptions } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { mailOutbox } from '../../db/schema/mail.ts';
import { describeSmtp, type SmtpSettings } from './settings.ts';

export type OutboxMail = typeof mailOutbox.$inferSelect;

// Where a mail went: the SMTP server's reply ("250 2.0.0 Ok: queued as …") or the .eml file's name.
export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  send(mail: OutboxMail): Promise<{ deliveredTo: string }>;
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1) || 'localhost';

// The same Message-ID on every attempt: a retry after a lost reply is recognisably the same mail.
export const messageIdOf = (mail: Pick<OutboxMail, 'id' | 'fromAddress'>) => `<${mail.id}@${domainOf(mail.fromAddress)}>`;

// Header values come from people's names: a line break in one must not start a header of its own.
const oneLine = (text: string) => text.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();

// The RFC 5322 message (CRLF line ends, multipart/alternative text and HTML), dated when the mail was queued.
export async function composeMail(mail: OutboxMail): Promise<Buffer> {
  const composer = new MailComposer({
    from: { name: oneLine(mail.fromName ?? ''), address: mail.fromAddress },
    to: { name: oneLine(mail.toName ?? ''), address: mail.toAddress },
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    subject: oneLine(mail.subject),
    text: mail.textBody,
    html: mail.htmlBody,
    messageId: messageIdOf(mail),
    date: mail.createdAt,
    ...(mail.headers ? { headers: Object.fromEntries(Object.entries(mail.headers).map(([k, v]) => [k, oneLine(v)])) } : {}),
    newline: 'win',
    // Bodies are strings we wrote; nothing in them may make the composer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}

export interface SmtpTimeouts {
  connectionMs: number;
  greetingMs: number;
  socketMs: number;
  dnsMs: number;
}

// A mail server that does not answer ties a worker up for at most about a minute and a half per attempt.
export const SMTP_TIMEOUTS: SmtpTimeouts = { connectionMs: 20_000, greetingMs: 20_000, socketMs: 60_000, dnsMs: 15_000 };

// SMTP_URL: one connection per mail (mail is rare here; a pool would hold sockets open for nothing). The server's
// certificate is verified (Node's default, never turned off), against the system's CAs plus SMTP_CA_FILE's.
export function smtpTransport(settings: SmtpSettings, timeouts: SmtpTimeouts = SMTP_TIMEOUTS): MailTransport {
  const options: SMTPTransportOptions = {
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: settings.requireTLS,
    ...(settings.auth ? { auth: settings.auth } : {}),
    tls: { minVersion: 'TLSv1.2', ...(settings.ca ? { ca: [...rootCertificates, settings.ca] } : {}) },
    connectionTimeout: timeouts.connectionMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    dnsTimeout: timeouts.dnsMs,
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  };
  const transporter = createTransport(options);
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        const info = await transporter.sendMail({ envelope: { from: mail.fromAddress, to: [mail.toAddress] }, raw: await composeMail(mail) });
        return { deliveredTo: oneLine(String(info.response ?? '')).slice(0, 500) || describeSmtp(settings) };
      } catch (error) {
        // nodemailer's texts name the command and the server's reply, never the password; say which server.
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`${describeSmtp(settings)}: ${oneLine(reason)}`, { cause: error });
      }
    },
  };
}

// No SMTP_URL: DATA_DIR/outbox/<id>.eml, a file any mail client opens. Written to a temporary name in the
// same folder, flushed, then renamed: the .eml appears whole or not at all, and a retry replaces it.
export function fileTransport(outboxDir: string): MailTransport {
  return {
    kind: 'file',
    async send(mail) {
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const name = `${mail.id}.eml`;
      const temporary = path.join(outboxDir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
      const bytes = await composeMail(mail);
      // Invitation links and later password resets are secrets: readable by the server's user only.
      const file = await open(temporary, 'wx', 0o600);
      try {
        try {
          await file.writeFile(bytes);
          await file.sync();
        } finally {
          await file.close();
        }
        await rename(temporary, path.join(outboxDir, name));
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return { deliveredTo: name };
    },
  };
}

export const outboxDirOf = (dataDir: string) => path.join(dataDir, 'outbox');

export const mailTransport = (opts: { smtp: SmtpSettings | undefined; dataDir: string }): MailTransport =>
  opts.smtp ? smtpTransport(opts.smtp) : fileTransport(outboxDirOf(opts.dataDir));
