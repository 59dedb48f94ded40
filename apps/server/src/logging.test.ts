import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from './app.ts';
import { createTestDatabase } from './test/database.ts';
import { testConfig, TEST_PASSWORD } from './test/app.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { App } from './platform/http.ts';

describe('request logs', () => {
  const lines: string[] = [];
  let handle: DatabaseHandle;
  let app: App;

  beforeAll(async () => {
    handle = await createTestDatabase();
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    app = await buildApp({ config: testConfig(), db: handle.db, logger: { ...(loggerOptions('info') as object), stream } });
  });
  afterAll(async () => {
    await app.close();
    await handle.close();
  });

  it('carry a request id and the path, never passwords, tokens or query strings', async () => {
    const login = await app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: 'user@lakeside.example.org', password: TEST_PASSWORD } });
    const { accessToken, refreshToken } = login.json();
    await app.inject({ method: 'GET', url: '/api/users/profiledata?search=Jane%20Doe%2001/02/1960', headers: { authorization: `Bearer ${accessToken}` } });
    const log = lines.join('');
    expect(log).toContain('"reqId"');
    expect(log).toContain('/api/users/profiledata');
    expect(log).not.toContain(TEST_PASSWORD);
    expect(log).not.toContain(accessToken);
    expect(log).not.toContain(refreshToken);
    expect(log).not.toContain('Jane');
  });
});
