import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { testConfig } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createDirectDeps } from './direct-deps.ts';
import { startDirectListener, type DirectListener } from './listener.ts';

// Issue 26: 3,000 idle connections from one address were all accepted. The listener now refuses connections past a
// limit per client address and in total with a 421 reply in plain ASCII, and closes idle ones.

const quiet = { info: () => undefined, warn: () => undefined };

interface Client {
  socket: net.Socket;
  // Everything the server has written so far.
  received(): string;
  // Resolves once the server has written a full reply line (or closed).
  firstLine: Promise<string>;
  closed: Promise<void>;
}

function connect(port: number, localAddress = '127.0.0.1'): Client {
  const socket = net.createConnection({ host: '127.0.0.1', port, localAddress });
  let text = '';
  const firstLine = new Promise<string>((resolve) => {
    const check = () => {
      const end = text.indexOf('\r\n');
      if (end >= 0) resolve(text.slice(0, end));
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      check();
    });
    socket.on('close', () => resolve(text));
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  return { socket, received: () => text, firstLine, closed };
}

const ascii = /^[\x20-\x7e]*$/;

describe('Direct SMTP listener connection limits', () => {
  let handle: DatabaseHandle;
  const listeners: DirectListener[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    handle = await createTestDatabase();
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) client.socket.destroy();
    await Promise.all(listeners.map((listener) => listener.close()));
    await handle?.close();
  });

  async function listen(overrides: Record<string, string>) {
    const config = testConfig(overrides);
    const blobs = createBlobStore({ db: handle.db, dataDir: config.dataDir, key: config.blobEncryptionKey });
    const listener = await startDirectListener(createDirectDeps({ config, db: handle.db, blobs, now: () => new Date() }), quiet, 0);
    listeners.push(listener);
    return listener;
  }
  const open = (port: number, localAddress?: string) => {
    const client = connect(port, localAddress);
    clients.push(client);
    return client;
  };

  it('answers 421 in ASCII to a client past its limit, and accepts it again once one of its connections closes', async () => {
    const listener = await listen({ DIRECT_SMTP_MAX_CONNECTIONS_PER_CLIENT: '3', DIRECT_SMTP_MAX_CONNECTIONS: '50', DIRECT_HOSTNAME: 'hisp.test' });
    const first = [open(listener.port), open(listener.port), open(listener.port)];
    for (const client of first) expect(await client.firstLine).toMatch(/^220 /);

    const refused = open(listener.port);
    const line = await refused.firstLine;
    expect(line).toMatch(/^421 4\.7\.0 Too many connections from (::ffff:)?127\.0\.0\.1, try again later$/);
    expect(line).toMatch(ascii);
    await refused.closed;

    // Another address still gets in: the limit is per client.
    expect(await open(listener.port, '127.0.0.2').firstLine).toMatch(/^220 /);

    first[0]!.socket.end('QUIT\r\n');
    await first[0]!.closed;
    // The server counts the session closed a moment after the socket: ask until it lets the client in again.
    let again = open(listener.port);
    for (let tries = 0; !(await again.firstLine).startsWith('220') && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = open(listener.port);
    }
    expect(await again.firstLine).toMatch(/^220 /);
  });

  it('answers 421 in ASCII past the total, whatever the client', async () => {
    const listener = await listen({ DIRECT_SMTP_MAX_CONNECTIONS_PER_CLIENT: '10', DIRECT_SMTP_MAX_CONNECTIONS: '4', DIRECT_HOSTNAME: 'hisp.test' });
    const accepted = [open(listener.port), open(listener.port, '127.0.0.2'), open(listener.port, '127.0.0.3'), open(listener.port, '127.0.0.4')];
    for (const client of accepted) expect(await client.firstLine).toMatch(/^220 /);
    const refused = open(listener.port, '127.0.0.5');
    const line = await refused.firstLine;
    expect(line).toBe('421 hisp.test Too many connected clients, try again in a moment');
    await refused.closed;
  });

  it('closes a connection that stays idle past DIRECT_SMTP_IDLE_TIMEOUT_SECONDS, with a 421', async () => {
    const listener = await listen({ DIRECT_SMTP_IDLE_TIMEOUT_SECONDS: '1', DIRECT_HOSTNAME: 'hisp.test' });
    const idle = open(listener.port);
    expect(await idle.firstLine).toMatch(/^220 /);
    // Generous: the requirement is "sooner than before" (60 s), the setting is 1 s.
    await idle.closed;
    const lines = idle.received().split('\r\n').filter(Boolean);
    expect(lines.at(-1)).toMatch(/^421 /);
    for (const reply of lines) expect(reply).toMatch(ascii);
  }, 30_000);
});
