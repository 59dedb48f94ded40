import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { App } from '../platform/http.ts';
import { createTestDatabase, TEST_PASSWORD } from './database.ts';

export { TEST_PASSWORD };

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-test-')),
    TOKEN_SIGNING_KEY: 'dGVzdC1zaWduaW5nLWtleS10ZXN0LXNpZ25pbmcta2V5LTMyYnl0ZXMhIQ==',
    BLOB_ENCRYPTION_KEY: 'dGVzdC1ibG9iLWtleS10ZXN0LWJsb2Ita2V5LXRlc3QtYmxvYi1rZXkhIQ==',
    WEB_DIST_DIR: path.join(os.tmpdir(), 'clinicrelay-no-web'),
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    // Certificate discovery never leaves the machine in tests: a closed loopback port answers at once.
    DIRECT_DNS_SERVERS: '127.0.0.1:9',
    // Off unless a test turns it on (two-factor.test.ts): the demo administrators have not enrolled.
    REQUIRE_ADMIN_TWO_FACTOR: 'false',
    ...overrides,
  });
}

export interface TestContext {
  app: App;
  config: Config;
  handle: DatabaseHandle;
  clock: { now: Date };
  // Signs a demo user in and returns the token pair.
  login(userName: string, password?: string): Promise<{ accessToken: string; refreshToken: string }>;
  // app.inject as a signed-in user (null: anonymous).
  call(userOrToken: string | null, method: string, url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

// One app on its own database with the demo world; the clock can be moved by tests.
export async function createTestApp(options: { config?: Record<string, string> } = {}): Promise<TestContext> {
  const handle = await createTestDatabase();
  const clock = { now: new Date() };
  const config = testConfig(options.config);
  const app = await buildApp({ config, db: handle.db, now: () => clock.now, logger: false });
  await app.ready();
  // Per user: the access token and the test clock when it was issued.
  const tokens = new Map<string, { token: string; issuedAt: number }>();
  // A token from another point of the clock's story may have expired, or its session gone idle: sign in anew.
  const REUSE_WITHIN_MS = 10 * 60_000;
  const login: TestContext['login'] = async (userName, password = TEST_PASSWORD) => {
    const res = await app.inject({ method: 'POST', url: '/api/account/login', payload: { userName, password } });
    if (res.statusCode !== 200) throw new Error(`login ${userName} failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  return {
    app,
    config,
    handle,
    clock,
    login,
    async call(userOrToken, method, url, payload) {
      let token: string | undefined;
      if (userOrToken?.includes('@')) {
        const cached = tokens.get(userOrToken);
        if (cached && Math.abs(clock.now.getTime() - cached.issuedAt) < REUSE_WITHIN_MS) token = cached.token;
        else {
          const issuedAt = clock.now.getTime();
          token = (await login(userOrToken)).accessToken;
          tokens.set(userOrToken, { token, issuedAt });
        }
      } else if (userOrToken) token = userOrToken;
      return app.inject({
        method: method as 'GET',
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    },
    async close() {
      await app.close();
      await handle.close();
    },
  };
}

// The app for a describe block: built before its tests, closed after them.
export function useTestApp(options: Parameters<typeof createTestApp>[0] = {}): TestContext {
  const t = {} as TestContext;
  beforeAll(async () => {
    Object.assign(t, await createTestApp(options));
  });
  afterAll(() => t.close());
  return t;
}

// POST /api/messages/{id}/attachments with a multipart body as a browser's FormData sends it.
export async function uploadAttachment(app: App, token: string, messageId: string, fileName: string, bytes: Uint8Array, attachmentMeta?: object) {
  const form = new FormData();
  if (attachmentMeta) form.append('attachmentMeta', JSON.stringify(attachmentMeta));
  form.append('file', new Blob([Buffer.from(bytes)]), fileName);
  const request = new Response(form);
  return app.inject({
    method: 'POST',
    url: `/api/messages/${messageId}/attachments?convert=true&usePriorityQueue=true`,
    headers: { authorization: `Bearer ${token}`, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}
