import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-config-'));

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({ DATA_DIR: tmp() });
    expect(c).toMatchObject({ env: 'development', port: 8080, databaseUrl: undefined, demoPassword: 'Demo-pass-2026!' });
  });

  it('refuses to start in production without real keys', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp() })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp() })).toThrow(/TOKEN_SIGNING_KEY and BLOB_ENCRYPTION_KEY/);
  });

  it('generates development keys once and keeps them in DATA_DIR', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir });
    expect(existsSync(path.join(dir, 'dev-keys.json'))).toBe(true);
    const second = loadConfig({ DATA_DIR: dir });
    expect(Buffer.from(second.tokenSigningKey).equals(Buffer.from(first.tokenSigningKey))).toBe(true);
    expect(first.blobEncryptionKey).toHaveLength(32);
  });

  it('gives each workflow lane its loops, and webhooks their timeout and loopback rule (issue 26)', () => {
    expect(loadConfig({ DATA_DIR: tmp() })).toMatchObject({
      workerConcurrency: 2,
      workerLanes: { webhooks: 2, files: 1, mail: 1, background: 1 },
      webhooks: { timeoutMs: 5000, allowLoopback: true },
    });
    const tuned = loadConfig({ DATA_DIR: tmp(), FILE_WORKERS: '3', WORKER_CONCURRENCY_WEBHOOKS: '4', WORKER_CONCURRENCY_MAIL: '2', WORKER_CONCURRENCY_BACKGROUND: '3', WEBHOOK_TIMEOUT_SECONDS: '8' });
    expect(tuned).toMatchObject({ workerLanes: { webhooks: 4, files: 3, mail: 2, background: 3 }, webhooks: { timeoutMs: 8000 } });
    expect(loadConfig({ DATA_DIR: tmp(), FILE_WORKERS: '3', WORKER_CONCURRENCY_FILES: '1' }).workerLanes.files).toBe(1);
    // A lane with no loop anywhere would never run: only WORKER_CONCURRENCY=0 turns a process's workers off.
    expect(() => loadConfig({ DATA_DIR: tmp(), WORKER_CONCURRENCY_WEBHOOKS: '0' })).toThrow(/WORKER_CONCURRENCY_WEBHOOKS/);
    expect(() => loadConfig({ DATA_DIR: tmp(), WEBHOOK_TIMEOUT_SECONDS: '60' })).toThrow(/WEBHOOK_TIMEOUT_SECONDS/);
    const keys = { TOKEN_SIGNING_KEY: randomBytes(32).toString('base64'), BLOB_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    expect(loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp(), ...keys }).webhooks.allowLoopback).toBe(false);
  });

  it('treats an empty variable as not set', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '', DATA_DIR: tmp() })).toMatchObject({ databaseUrl: undefined, port: 8080 });
  });

  it('names every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', DATA_DIR: tmp() })).toThrow(/PORT[\s\S]*DATABASE_URL/);
  });

  it('refuses a key that is too short', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', TOKEN_SIGNING_KEY: 'short', BLOB_ENCRYPTION_KEY: 'short', DATA_DIR: tmp() })).toThrow(ConfigError);
  });
});

describe('configuration of sign-in hardening', () => {
  const good = Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
  const production = (keys: Record<string, string>) => loadConfig({ NODE_ENV: 'production', TOKEN_SIGNING_KEY: good, BLOB_ENCRYPTION_KEY: good, DATA_DIR: tmp(), ...keys });

  it.each([
    ['44 "=" characters', '='.repeat(44)],
    ['an all-zero key', Buffer.alloc(32).toString('base64')],
    ['one byte repeated', Buffer.alloc(48, 7).toString('base64')],
    ['31 bytes', Buffer.from('0123456789abcdef0123456789abcde').toString('base64')],
  ])('refuses %s as a key, naming the variable', (_name, value) => {
    for (const variable of ['TOKEN_SIGNING_KEY', 'BLOB_ENCRYPTION_KEY']) {
      expect(() => production({ [variable]: value })).toThrow(new RegExp(`${variable}: must decode \\(base64\\) to at least 32 random bytes, not all equal`));
    }
  });

  it('accepts 32 random bytes, base64 or base64url', () => {
    expect(production({ TOKEN_SIGNING_KEY: randomBytes(32).toString('base64url') }).tokenSigningKey).toHaveLength(32);
  });

  it('has the automatic logoff defaults and reads them', () => {
    expect(loadConfig({ DATA_DIR: tmp() })).toMatchObject({ sessionIdleMinutes: 30, sessionMaxHours: 12, trustProxy: false });
    expect(loadConfig({ DATA_DIR: tmp(), SESSION_IDLE_MINUTES: '15', SESSION_MAX_HOURS: '8' })).toMatchObject({ sessionIdleMinutes: 15, sessionMaxHours: 8 });
    expect(() => loadConfig({ DATA_DIR: tmp(), SESSION_IDLE_MINUTES: '0' })).toThrow(/SESSION_IDLE_MINUTES/);
  });

  it('refuses TRUST_PROXY=true at start-up, pointing to TRUST_PROXY_HOPS', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: is no longer supported: set TRUST_PROXY_HOPS/);
  });

  it('trusts the given number of proxy hops, or the given proxy addresses, never both', () => {
    const hops = loadConfig({ DATA_DIR: tmp(), TRUST_PROXY_HOPS: '1' }).trustProxy;
    expect(typeof hops === 'function' && [hops('10.0.0.1', 0), hops('203.0.113.7', 1)]).toEqual([true, false]);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY_ADDRESSES: '10.0.0.1, 10.1.0.0/16,::1' }).trustProxy).toEqual(['10.0.0.1', '10.1.0.0/16', '::1']);
    expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY_ADDRESSES: '10.0.0.1,proxy.example.org' })).toThrow(/TRUST_PROXY_ADDRESSES/);
    expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY_ADDRESSES: '10.0.0.1', TRUST_PROXY_HOPS: '1' })).toThrow(/set one of them, not both/);
  });

  it('has the Direct defaults: a demo-peer route and the loopback CERT responders in development, nothing of it in production', () => {
    const development = loadConfig({ DATA_DIR: tmp() }).direct;
    expect(development).toMatchObject({ smtpPort: 2525, dnsPublish: { host: '127.0.0.1', port: 5300 }, mdnTimeoutMinutes: 60, strictMode: true, contentCipher: 'aes-256-cbc' });
    expect(development.dnsServers?.slice(0, 2)).toEqual(['127.0.0.1:5300', '127.0.0.1:5301']);
    expect([...development.smarthosts]).toEqual([['peer.example.net', { host: '127.0.0.1', port: 2526 }]]);
    const keys = { TOKEN_SIGNING_KEY: randomBytes(32).toString('base64'), BLOB_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    const production = loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production', PUBLIC_URL: 'https://relay.example.org', ...keys }).direct;
    expect(production).toMatchObject({ smtpPort: 25, dnsPublish: null, dnsServers: undefined, hostname: 'relay.example.org' });
    expect(production.smarthosts.size).toBe(0);
  });

  it('reads Direct smarthosts and switches, and names a malformed one', () => {
    const c = loadConfig({ DATA_DIR: tmp(), DIRECT_SMARTHOSTS: 'Peer.Example.net=127.0.0.1:2526, *=[::1]:25', DIRECT_SMTP_PORT: 'off', DIRECT_DNS_PUBLISH_PORT: 'off', DIRECT_STRICT_MODE: 'false' }).direct;
    expect([...c.smarthosts]).toEqual([
      ['peer.example.net', { host: '127.0.0.1', port: 2526 }],
      ['*', { host: '::1', port: 25 }],
    ]);
    expect(c).toMatchObject({ smtpPort: null, dnsPublish: null, strictMode: false });
    expect(() => loadConfig({ DATA_DIR: tmp(), DIRECT_SMARTHOSTS: 'peer.example.net' })).toThrow(/DIRECT_SMARTHOSTS: "peer.example.net" is not domain=host:port/);
    expect(() => loadConfig({ DATA_DIR: tmp(), DIRECT_TLS_CERT_FILE: '/x.pem' })).toThrow(/set both or neither/);
  });
});
