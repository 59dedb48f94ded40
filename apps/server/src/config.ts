import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import dns from 'node:dns';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_DEMO_PASSWORD } from '@clinicrelay/contracts/constants.ts';
import { parseClamdUrl, type ClamdAddress } from './platform/antivirus/clamd.ts';
import { defaultMailFrom, parseMailFrom, parseSmtpUrl, type MailAddress, type SmtpSettings } from './platform/mail/settings.ts';

// 32+ bytes once decoded, not all the same byte: 44 '=' characters or an all-zero key are no key at all.
const key = z
  .string()
  .regex(/^[A-Za-z0-9+/=_-]{43,}$/, 'must be at least 32 random bytes, base64 encoded')
  .refine((v) => {
    const bytes = Buffer.from(v, 'base64');
    return bytes.length >= 32 && new Set(bytes).size > 1;
  }, 'must decode (base64) to at least 32 random bytes, not all equal; make one with `openssl rand -base64 32`');

// A proxy address: an IP or a CIDR range (proxy-addr's notation).
const proxyAddress = (v: string) => {
  const [ip, bits, ...rest] = v.split('/');
  const family = isIP(ip ?? '');
  return family !== 0 && rest.length === 0 && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)));
};

// Beside 8080 (the app) and 8081 (`npm run demo:peer`'s app; its service takes 8091).
const DEFAULT_EMERGENCY_SERVICE_PORT = 8090;

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  PUBLIC_URL: z.string().url().optional(),
  TOKEN_SIGNING_KEY: key.optional(),
  BLOB_ENCRYPTION_KEY: key.optional(),
  // The mail outbox (platform/mail): smtp://[user:pass@]host[:port][?requireTLS=true] or smtps://…; unset, mail
  // is written as .eml files under DATA_DIR/outbox.
  SMTP_URL: z
    .string()
    .max(2000)
    .transform((v, ctx) => {
      const parsed = parseSmtpUrl(v);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    })
    .optional(),
  // A PEM file of CA certificates the SMTP server's certificate may chain to, besides the system's.
  SMTP_CA_FILE: z.string().max(4000).optional(),
  // The From of every mail; default: ClinicRelay <no-reply@PUBLIC_URL's host> (no-reply@localhost without one).
  MAIL_FROM: z
    .string()
    .max(500)
    .transform((v, ctx) => {
      const parsed = parseMailFrom(v);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    })
    .optional(),
  DEMO_PASSWORD: z.string().min(8).max(128).default(DEFAULT_DEMO_PASSWORD),
  // Which demo world a first start seeds: 'peer' is `npm run demo:peer`'s second installation (db/seed/demo-peer.ts).
  DEMO_WORLD: z.enum(['main', 'peer']).default('main'),
  // A boolean trusted the first X-Forwarded-For entry, which the client writes: refused, not reinterpreted.
  TRUST_PROXY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === 'false', 'is no longer supported: set TRUST_PROXY_HOPS to the number of proxies in front of the server (1 behind one load balancer), or TRUST_PROXY_ADDRESSES to their addresses'),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  TRUST_PROXY_ADDRESSES: z
    .string()
    .max(4000)
    .transform((v) => v.split(',').map((a) => a.trim()).filter(Boolean))
    .refine((list) => list.every(proxyAddress), 'must be a comma-separated list of IP addresses or CIDR ranges')
    .optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(30),
  // Issue 27 §3: how long a server error's secure log is kept under its reference id.
  SECURE_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // Issue 27 §1: the dashboard's per-minute rollups; at least the 7 days its charts can show.
  MESSAGING_ROLLUP_RETENTION_DAYS: z.coerce.number().int().min(7).max(3650).default(31),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(7 * 24).default(12),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  // Issue 14 §6: system administrators and organization Administrators must enrol in two-factor sign-in; default
  // true, except in development (the demo and the e2e journeys).
  REQUIRE_ADMIN_TWO_FACTOR: z.enum(['true', 'false']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  // Workflow loops per lane (issue 26): WORKER_CONCURRENCY is delivery's (sending, receiving), and 0 runs no workflows
  // at all in this process (an API beside `npm run worker`); the other lanes have their own.
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(2),
  WORKER_CONCURRENCY_WEBHOOKS: z.coerce.number().int().min(1).max(64).default(2),
  WORKER_CONCURRENCY_FILES: z.coerce.number().int().min(1).max(64).optional(),
  WORKER_CONCURRENCY_MAIL: z.coerce.number().int().min(1).max(64).default(1),
  WORKER_CONCURRENCY_BACKGROUND: z.coerce.number().int().min(1).max(64).default(1),
  // How long a webhook receiver has to connect and answer.
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(30).default(5),
  // Threads that decode untrusted files (renditions, PDF checks, extraction), and each job's limits.
  FILE_WORKERS: z.coerce.number().int().min(1).max(8).default(1),
  FILE_WORKER_MEMORY_MB: z.coerce.number().int().min(32).max(16_384).default(512),
  FILE_WORKER_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  // Only the sandbox provider exists so far: it never sends a real fax.
  FAX_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  // Only the sandbox identity-proofing provider exists so far: fixed test identities decide the outcome (issue 14 §3).
  IDENTITY_PROOFING_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  // Plan payments (issue 14 §4): only the sandbox exists, which behaves like a provider's test mode (test cards).
  PAYMENT_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  // The e-signature connector (issue 29 §7): only the sandbox exists, served by this server like a provider's test mode.
  ESIGNATURE_PROVIDER: z.enum(['sandbox']).default('sandbox'),
  // Direct over SMTP (issue 12). The listener's port ('off' disables it); default 2525 (development/test), 25 (production).
  DIRECT_SMTP_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).optional(),
  DIRECT_SMTP_HOST: z.string().max(200).optional(),
  // The name this HISP gives itself in EHLO, Message-IDs and MDNs' Reporting-UA; default PUBLIC_URL's host, else the machine's.
  DIRECT_HOSTNAME: z.string().regex(/^[A-Za-z0-9.-]{1,253}$/, 'must be a host name').optional(),
  // STARTTLS certificate and key (PEM files); unset, smtp-server's built-in self-signed pair (S/MIME protects the content anyway).
  DIRECT_TLS_CERT_FILE: z.string().max(4000).optional(),
  DIRECT_TLS_KEY_FILE: z.string().max(4000).optional(),
  // A DNS responder publishing this installation's CERT records ('off' disables it); default 5300 in development
  // (`npm run demo:peer`'s peer uses 5301), off otherwise. A real installation publishes CERT records in its DNS zone.
  DIRECT_DNS_PUBLISH_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).optional(),
  DIRECT_DNS_PUBLISH_HOST: z.string().max(200).default('127.0.0.1'),
  // DNS servers for CERT, SRV and MX lookups (host or host:port, comma-separated); default the system's, after the
  // two loopback demo responders (127.0.0.1:5300 and :5301) in development.
  DIRECT_DNS_SERVERS: z
    .string()
    .max(2000)
    .transform((v) => v.split(',').map((a) => a.trim()).filter(Boolean))
    .optional(),
  // Per-domain smarthosts instead of MX: 'peer.example.org=127.0.0.1:2526,*=relay.example.net:25'.
  DIRECT_SMARTHOSTS: z
    .string()
    .max(4000)
    .transform((v, ctx) => {
      const routes = parseSmarthosts(v);
      if (typeof routes === 'string') {
        ctx.addIssue({ code: 'custom', message: routes });
        return z.NEVER;
      }
      return routes;
    })
    .optional(),
  DIRECT_MDN_TIMEOUT_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(60),
  // Strict mode refuses 3DES content encryption from other HISPs (AES only).
  DIRECT_STRICT_MODE: z.enum(['true', 'false']).default('true'),
  DIRECT_CONTENT_CIPHER: z.enum(['aes-128-cbc', 'aes-256-cbc']).default('aes-256-cbc'),
  DIRECT_MAX_MESSAGE_MB: z.coerce.number().int().min(1).max(200).default(50),
  // Issue 28 §1: how long after a certificate of ours expires (or a re-import replaced it and it then expired) a message
  // encrypted to it is still opened: senders cache certificates and SMTP queues retry for up to 5 days (RFC 5321 §4.5.4.1).
  DIRECT_DECRYPT_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  // Issue 28 §1 (DCDT D18): a missing intermediate is fetched from the certificate's AIA caIssuers URL (http only);
  // never from a private or loopback address unless this is 'true' (tests on loopback, a private PKI inside the network).
  DIRECT_AIA_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  // Issue 26: the SMTP listener's open connections in all and from one client address, and how long an idle one stays.
  DIRECT_SMTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(10_000).default(100),
  DIRECT_SMTP_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(1).max(10_000).default(10),
  DIRECT_SMTP_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // clamd scanning uploads; unset: uploads are not scanned (health says so).
  CLAMD_URL: z
    .string()
    .max(1000)
    .transform(parseClamdUrl)
    .refine((address) => address !== null, "must be tcp://host:port or the path of clamd's unix socket")
    .optional(),
  // Issue 27 §3: how long API capture records are kept before the sweep deletes them.
  API_CAPTURE_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  // Issue 27 §5: the bearer token Prometheus sends to /metrics; unset, /metrics answers 404. METRICS_PORT serves it on
  // a port of its own instead of the app's.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(500).optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  // Issue 29 §6: the Carequality-type service of the emergency organizations, a second application this process runs on a
  // port of its own ('off': not here, EMERGENCY_SERVICE_URL names where it runs); its URL as browsers reach it.
  EMERGENCY_SERVICE_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).default(DEFAULT_EMERGENCY_SERVICE_PORT),
  EMERGENCY_SERVICE_HOST: z.string().max(200).optional(),
  EMERGENCY_SERVICE_URL: z.string().url().max(2000).optional(),
  // Issue 29 §1: the OAuth 2.0 authorization server's token lifetimes and each client application's calls per minute.
  OAUTH_ACCESS_TOKEN_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(60),
  OAUTH_CLIENT_CREDENTIALS_TOKEN_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(60),
  OAUTH_REFRESH_TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  OAUTH_AUTHORIZATION_CODE_SECONDS: z.coerce.number().int().min(10).max(600).default(60),
  OAUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
});


export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  // Where links in mails and reseller URLs point: PUBLIC_URL, else this server on localhost at PORT (development).
  appUrl: string;
  tokenSigningKey: Uint8Array;
  blobEncryptionKey: Uint8Array;
  // Parsed SMTP_URL (it may hold a password: never log it) with SMTP_CA_FILE's certificates.
  smtp: SmtpSettings | undefined;
  mailFrom: MailAddress;
  demoPassword: string;
  demoWorld: 'main' | 'peer';
  // Fastify's trustProxy: false, the trusted proxies' addresses, or a hop count as a function (Fastify
  // trusts nothing for a plain number); the client IP is the address the nearest untrusted hop gave.
  trustProxy: false | string[] | ((address: string, hop: number) => boolean);
  sessionIdleMinutes: number;
  secureLogRetentionDays: number;
  messagingRollupRetentionDays: number;
  sessionMaxHours: number;
  loginRateLimitPerMinute: number;
  requireAdminTwoFactor: boolean;
  logLevel: string;
  webDistDir: string;
  // Delivery's loops; 0: no workflow runs in this process.
  workerConcurrency: number;
  workerLanes: { webhooks: number; files: number; mail: number; background: number };
  // Webhooks may call loopback addresses (a local development receiver): never in production.
  webhooks: { timeoutMs: number; allowLoopback: boolean };
  fileWorkers: { size: number; memoryMb: number; timeoutMs: number };
  faxProvider: 'sandbox';
  identityProofingProvider: 'sandbox';
  paymentProvider: 'sandbox';
  esignatureProvider: 'sandbox';
  clamd: ClamdAddress | undefined;
  direct: DirectConfig;
  apiCapture: { retentionDays: number };
  // token undefined: no /metrics at all; port set: served there, not on the app's port.
  metrics: { token: string | undefined; port: number | undefined };
  // port null: the service runs elsewhere; url: its base URL for browsers; corsOrigins: the web app's origins it answers.
  emergencyService: { port: number | null; host: string; url: string; corsOrigins: string[] };
  // Issue 29 §1: lifetimes in seconds; calls per client application and minute.
  oauth: { accessTokenSeconds: number; clientCredentialsSeconds: number; refreshTokenSeconds: number; authorizationCodeSeconds: number; rateLimitPerMinute: number };
}

export interface SmtpRoute {
  host: string;
  port: number;
}

export interface DirectConfig {
  // null: no SMTP listener.
  smtpPort: number | null;
  smtpHost: string;
  hostname: string;
  tls: { certFile: string; keyFile: string } | undefined;
  // null: no CERT responder.
  dnsPublish: { host: string; port: number } | null;
  dnsServers: string[] | undefined;
  // Lower-case domain (or '*') → where mail for it goes instead of its MX.
  smarthosts: Map<string, SmtpRoute>;
  mdnTimeoutMinutes: number;
  strictMode: boolean;
  contentCipher: 'aes-128-cbc' | 'aes-256-cbc';
  maxMessageBytes: number;
  // Days an expired certificate of ours still decrypts (DIRECT_DECRYPT_GRACE_DAYS).
  decryptGraceDays: number;
  // AIA caIssuers fetches may reach private and loopback addresses.
  aiaAllowPrivate: boolean;
  maxConnections: number;
  maxConnectionsPerClient: number;
  idleTimeoutMs: number;
}

// 'domain=host:port' pairs, comma-separated; the error text when one is not.
export function parseSmarthosts(value: string): Map<string, SmtpRoute> | string {
  const routes = new Map<string, SmtpRoute>();
  for (const pair of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^(\*|[A-Za-z0-9.-]+)=([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/.exec(pair);
    if (!match || Number(match[3]) > 65535) return `"${pair}" is not domain=host:port`;
    routes.set(match[1]!.toLowerCase(), { host: match[2]!.replace(/^\[|\]$/g, ''), port: Number(match[3]) });
  }
  return routes;
}

export class ConfigError extends Error {}

// The origins the web app is opened from: PUBLIC_URL's, else this server's on the loopback names (development, e2e).
function webOrigins(publicUrl: string | undefined, port: number): string[] {
  if (publicUrl) return [new URL(publicUrl).origin];
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`];
}

// Development defaults that let `npm start` and `npm run demo:peer` find each other on one machine (README, "Direct").
const DEMO_DNS_PUBLISH_PORT = 5300;
const DEMO_DNS_RESPONDERS = ['127.0.0.1:5300', '127.0.0.1:5301'];
const DEMO_PEER_ROUTE = 'peer.example.net=127.0.0.1:2526';

// Parsed and validated once at start-up. Production refuses to start without real keys; development
// generates them once and keeps them in DATA_DIR so sessions and encrypted blobs survive restarts.
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (DATABASE_URL= in a .env file) means not set.
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.TRUST_PROXY_ADDRESSES && e.TRUST_PROXY_HOPS > 0) {
    throw new ConfigError('Invalid configuration:\n  TRUST_PROXY_HOPS and TRUST_PROXY_ADDRESSES: set one of them, not both.');
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const development = e.NODE_ENV === 'development';
  const publishPort = e.DIRECT_DNS_PUBLISH_PORT === 'off' ? null : (e.DIRECT_DNS_PUBLISH_PORT ?? (development ? DEMO_DNS_PUBLISH_PORT : null));
  let signing = e.TOKEN_SIGNING_KEY;
  let blob = e.BLOB_ENCRYPTION_KEY;
  if (e.NODE_ENV === 'production') {
    const missing = [!signing && 'TOKEN_SIGNING_KEY', !blob && 'BLOB_ENCRYPTION_KEY'].filter(Boolean);
    if (missing.length) throw new ConfigError(`Production mode needs ${missing.join(' and ')} (32+ random bytes, base64).`);
  } else if (!signing || !blob) {
    const keys = developmentKeys(dataDir);
    signing ??= keys.tokenSigningKey;
    blob ??= keys.blobEncryptionKey;
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL,
    appUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    tokenSigningKey: Buffer.from(signing!, 'base64'),
    blobEncryptionKey: Buffer.from(blob!, 'base64').subarray(0, 32),
    smtp: e.SMTP_URL ? { ...e.SMTP_URL, ca: e.SMTP_CA_FILE ? readCaFile(e.SMTP_CA_FILE) : undefined } : undefined,
    mailFrom: e.MAIL_FROM ?? defaultMailFrom(e.PUBLIC_URL),
    demoPassword: e.DEMO_PASSWORD,
    demoWorld: e.DEMO_WORLD,
    trustProxy: e.TRUST_PROXY_ADDRESSES ?? (e.TRUST_PROXY_HOPS > 0 ? trustHops(e.TRUST_PROXY_HOPS) : false),
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    secureLogRetentionDays: e.SECURE_LOG_RETENTION_DAYS,
    messagingRollupRetentionDays: e.MESSAGING_ROLLUP_RETENTION_DAYS,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    requireAdminTwoFactor: e.REQUIRE_ADMIN_TWO_FACTOR ? e.REQUIRE_ADMIN_TWO_FACTOR === 'true' : !development,
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    workerConcurrency: e.WORKER_CONCURRENCY,
    workerLanes: {
      webhooks: e.WORKER_CONCURRENCY_WEBHOOKS,
      // One loop per file thread by default: more would only wait for a thread.
      files: e.WORKER_CONCURRENCY_FILES ?? e.FILE_WORKERS,
      mail: e.WORKER_CONCURRENCY_MAIL,
      background: e.WORKER_CONCURRENCY_BACKGROUND,
    },
    webhooks: { timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000, allowLoopback: e.NODE_ENV !== 'production' },
    fileWorkers: { size: e.FILE_WORKERS, memoryMb: e.FILE_WORKER_MEMORY_MB, timeoutMs: e.FILE_WORKER_TIMEOUT_SECONDS * 1000 },
    faxProvider: e.FAX_PROVIDER,
    identityProofingProvider: e.IDENTITY_PROOFING_PROVIDER,
    paymentProvider: e.PAYMENT_PROVIDER,
    esignatureProvider: e.ESIGNATURE_PROVIDER,
    clamd: e.CLAMD_URL ?? undefined,
    direct: {
      smtpPort: e.DIRECT_SMTP_PORT === 'off' ? null : (e.DIRECT_SMTP_PORT ?? (e.NODE_ENV === 'production' ? 25 : 2525)),
      smtpHost: e.DIRECT_SMTP_HOST ?? e.HOST,
      hostname: e.DIRECT_HOSTNAME ?? (e.PUBLIC_URL ? new URL(e.PUBLIC_URL).hostname : os.hostname()),
      tls: directTls(e.DIRECT_TLS_CERT_FILE, e.DIRECT_TLS_KEY_FILE),
      dnsPublish: publishPort === null ? null : { host: e.DIRECT_DNS_PUBLISH_HOST, port: publishPort },
      dnsServers: e.DIRECT_DNS_SERVERS ?? (development ? [...DEMO_DNS_RESPONDERS, ...dns.getServers()] : undefined),
      smarthosts: e.DIRECT_SMARTHOSTS ?? (development ? (parseSmarthosts(DEMO_PEER_ROUTE) as Map<string, SmtpRoute>) : new Map<string, SmtpRoute>()),
      mdnTimeoutMinutes: e.DIRECT_MDN_TIMEOUT_MINUTES,
      strictMode: e.DIRECT_STRICT_MODE === 'true',
      contentCipher: e.DIRECT_CONTENT_CIPHER,
      maxMessageBytes: e.DIRECT_MAX_MESSAGE_MB * 1024 * 1024,
      decryptGraceDays: e.DIRECT_DECRYPT_GRACE_DAYS,
      aiaAllowPrivate: e.DIRECT_AIA_ALLOW_PRIVATE === 'true',
      maxConnections: e.DIRECT_SMTP_MAX_CONNECTIONS,
      maxConnectionsPerClient: e.DIRECT_SMTP_MAX_CONNECTIONS_PER_CLIENT,
      idleTimeoutMs: e.DIRECT_SMTP_IDLE_TIMEOUT_SECONDS * 1000,
    },
    apiCapture: { retentionDays: e.API_CAPTURE_RETENTION_DAYS },
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    emergencyService: {
      port: e.EMERGENCY_SERVICE_PORT === 'off' ? null : e.EMERGENCY_SERVICE_PORT,
      host: e.EMERGENCY_SERVICE_HOST ?? e.HOST,
      url: (e.EMERGENCY_SERVICE_URL ?? `http://localhost:${e.EMERGENCY_SERVICE_PORT === 'off' ? DEFAULT_EMERGENCY_SERVICE_PORT : e.EMERGENCY_SERVICE_PORT}`).replace(/\/+$/, ''),
      corsOrigins: webOrigins(e.PUBLIC_URL, e.PORT),
    },
    oauth: {
      accessTokenSeconds: e.OAUTH_ACCESS_TOKEN_MINUTES * 60,
      clientCredentialsSeconds: e.OAUTH_CLIENT_CREDENTIALS_TOKEN_MINUTES * 60,
      refreshTokenSeconds: e.OAUTH_REFRESH_TOKEN_DAYS * 86_400,
      authorizationCodeSeconds: e.OAUTH_AUTHORIZATION_CODE_SECONDS,
      rateLimitPerMinute: e.OAUTH_RATE_LIMIT_PER_MINUTE,
    },
  };
}

function directTls(certFile: string | undefined, keyFile: string | undefined) {
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new ConfigError('Invalid configuration:\n  DIRECT_TLS_CERT_FILE and DIRECT_TLS_KEY_FILE: set both or neither.');
  return { certFile, keyFile };
}

function readCaFile(file: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  SMTP_CA_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`Invalid configuration:\n  SMTP_CA_FILE: ${file} holds no PEM certificate`);
  return pem;
}

// Hop 0 is the peer that connected; with n hops the n nearest are proxies and the next address is the client's.
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

function developmentKeys(dataDir: string): { tokenSigningKey: string; blobEncryptionKey: string } {
  const file = path.join(dataDir, 'dev-keys.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { tokenSigningKey: string; blobEncryptionKey: string };
  mkdirSync(dataDir, { recursive: true });
  const keys = {
    tokenSigningKey: randomBytes(32).toString('base64'),
    blobEncryptionKey: randomBytes(32).toString('base64'),
  };
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}
