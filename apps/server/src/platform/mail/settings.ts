import { isIP } from 'node:net';
import addressparser from 'nodemailer/lib/addressparser';

// How the outbox reaches the mail server, read from SMTP_URL (and SMTP_CA_FILE) by config.ts.
export interface SmtpSettings {
  host: string;
  port: number;
  // smtps://: TLS from the first byte. smtp://: STARTTLS whenever the server offers it.
  secure: boolean;
  // smtp://…?requireTLS=true: refuse to send when the server does not offer STARTTLS.
  requireTLS: boolean;
  auth: { user: string; pass: string } | undefined;
  // PEM certificates trusted besides the system's (SMTP_CA_FILE), for a server with a private CA.
  ca: string | undefined;
}

export interface MailAddress {
  name: string;
  address: string;
}

const SMTP_OPTIONS = new Set(['requireTLS']);
// Looser than the invitation form's rule: no-reply@localhost is a fine sender for the .eml outbox.
const MAILBOX = /^[^\s@<>]+@[^\s@<>]+$/;

// smtp://[user:pass@]host[:port][?requireTLS=true] or smtps://…; the error names what is wrong (config.ts shows it).
export function parseSmtpUrl(value: string): Omit<SmtpSettings, 'ca'> | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL: smtp://host:port or smtps://host:port';
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return 'must start with smtp:// (STARTTLS when offered) or smtps:// (TLS)';
  if (!url.hostname) return 'must name the mail server: smtp://host:port';
  const unknown = [...url.searchParams.keys()].filter((k) => !SMTP_OPTIONS.has(k));
  if (unknown.length) return `has unknown options (${unknown.join(', ')}); only requireTLS=true is understood`;
  const requireTLS = url.searchParams.get('requireTLS');
  if (requireTLS !== null && requireTLS !== 'true' && requireTLS !== 'false') return 'requireTLS must be true or false';
  const secure = url.protocol === 'smtps:';
  if (secure && requireTLS === 'true') return 'requireTLS is for smtp:// (STARTTLS); smtps:// always uses TLS';
  return {
    // URL keeps IPv6 literals in brackets; net.connect wants them bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: requireTLS === 'true',
    auth: url.username || url.password ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
  };
}

// MAIL_FROM: "Name <address>" or a bare address; one mailbox, no group.
export function parseMailFrom(value: string): MailAddress | string {
  const parsed = addressparser(value);
  const [first] = parsed;
  if (parsed.length !== 1 || !first?.address || !MAILBOX.test(first.address)) return 'must be one address, like "ClinicRelay <no-reply@relay.example.org>"';
  return { name: first.name || 'ClinicRelay', address: first.address };
}

// Without MAIL_FROM: no-reply at PUBLIC_URL's host name, so replies and bounces name the installation; an IP
// address or no PUBLIC_URL gives no-reply@localhost (fine for the .eml outbox, set MAIL_FROM for real mail).
export function defaultMailFrom(publicUrl: string | undefined): MailAddress {
  const host = publicUrl ? new URL(publicUrl).hostname : '';
  const domain = host && !isIP(host.replace(/^\[(.*)\]$/, '$1')) && host.includes('.') ? host : 'localhost';
  return { name: 'ClinicRelay', address: `no-reply@${domain}` };
}

// Where SMTP_URL's password must never go: logs and error texts.
export const describeSmtp = (s: Pick<SmtpSettings, 'host' | 'port' | 'secure'>) => `${s.secure ? 'smtps' : 'smtp'}://${s.host}:${s.port}`;
