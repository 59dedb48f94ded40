import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_DEMO_PASSWORD } from '@clinicrelay/contracts/constants.ts';

const key = z.string().regex(/^[A-Za-z0-9+/=_-]{43,}$/, 'must be at least 32 random bytes, base64 encoded');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  PUBLIC_URL: z.string().url().optional(),
  TOKEN_SIGNING_KEY: key.optional(),
  BLOB_ENCRYPTION_KEY: key.optional(),
  SMTP_URL: z.string().url().optional(),
  DEMO_PASSWORD: z.string().min(8).max(128).default(DEFAULT_DEMO_PASSWORD),
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(2),
  // Only the sandbox provider exists so far: it never sends a real fax.
  FAX_PROVIDER: z.enum(['sandbox']).default('sandbox'),
});


export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string | undefined;
  tokenSigningKey: Uint8Array;
  blobEncryptionKey: Uint8Array;
  smtpUrl: string | undefined;
  demoPassword: string;
  trustProxy: boolean;
  loginRateLimitPerMinute: number;
  logLevel: string;
  webDistDir: string;
  workerConcurrency: number;
  faxProvider: 'sandbox';
}

export class ConfigError extends Error {}

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
  const dataDir = path.resolve(e.DATA_DIR);
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
    tokenSigningKey: Buffer.from(signing!, 'base64'),
    blobEncryptionKey: Buffer.from(blob!, 'base64').subarray(0, 32),
    smtpUrl: e.SMTP_URL,
    demoPassword: e.DEMO_PASSWORD,
    trustProxy: e.TRUST_PROXY,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    workerConcurrency: e.WORKER_CONCURRENCY,
    faxProvider: e.FAX_PROVIDER,
  };
}

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
