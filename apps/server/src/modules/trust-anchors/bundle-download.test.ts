import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from './bundle-download.ts';

const LIMITS = { timeoutMs: 300, maxBytes: 1000 };

// A bundle server on loopback with one path per way of failing.
const routes: Record<string, (response: ServerResponse) => void> = {
  '/bundle.p7b': (response) => response.writeHead(200).end(Buffer.alloc(1000, 1)),
  '/moved': (response) => response.writeHead(302, { location: '/bundle.p7b' }).end(),
  '/declared-too-large': (response) => response.writeHead(200, { 'content-length': '1001' }).end(Buffer.alloc(1001)),
  '/streamed-too-large': (response) => {
    response.writeHead(200);
    for (let i = 0; i < 5; i++) response.write(Buffer.alloc(300));
    response.end();
  },
  '/silent': () => undefined,
  '/stalls-midway': (response) => {
    response.writeHead(200);
    response.write(Buffer.alloc(10));
  },
};
const server = createServer((request, response) => (routes[request.url ?? ''] ?? ((r: ServerResponse) => r.writeHead(404).end()))(response));
let base = '';

describe('reading a bundle URL', () => {
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reads a bundle up to the limit, following redirects', async () => {
    expect((await download(`${base}/bundle.p7b`, LIMITS)).length).toBe(1000);
    expect((await download(`${base}/moved`, LIMITS)).length).toBe(1000);
  });

  it('says why a bundle could not be read', async () => {
    const reason = (path: string) => download(`${base}${path}`, LIMITS).then(() => 'read', (error: Error) => error.message);
    expect(await reason('/nothing-here')).toBe('The bundle could not be downloaded: the server answered 404 Not Found.');
    expect(await reason('/declared-too-large')).toBe('The bundle could not be downloaded: it is larger than 1000 bytes.');
    expect(await reason('/streamed-too-large')).toBe('The bundle could not be downloaded: it is larger than 1000 bytes.');
    expect(await reason('/silent')).toBe('The bundle could not be downloaded: no answer within 0.3 seconds.');
    expect(await reason('/stalls-midway')).toBe('The bundle could not be downloaded: no answer within 0.3 seconds.');
  });
});
