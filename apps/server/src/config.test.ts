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
