import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet } from './http-get.ts';

// What a certificate or a DNS record points at is a stranger's server: the wait and the size are capped.

let web: Server;
let base: string;

beforeAll(async () => {
  web = createServer((req, res) => {
    if (req.url === '/small') return res.end('ok');
    // Chunked, with no Content-Length to refuse it up front.
    if (req.url === '/endless') {
      const chunk = Buffer.alloc(64 * 1024);
      const timer = setInterval(() => res.write(chunk), 1);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (req.url === '/mute') return; // never answers
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});

afterAll(async () => {
  web.closeAllConnections();
  await new Promise((resolve) => web.close(resolve));
});

describe('httpGet', () => {
  it('returns the body', async () => {
    expect(Buffer.from(await httpGet(`${base}/small`, { timeoutMs: 2_000, maxBytes: 1024 })).toString()).toBe('ok');
  });

  it('stops reading a body larger than allowed', async () => {
    await expect(httpGet(`${base}/endless`, { timeoutMs: 5_000, maxBytes: 1_048_576 })).rejects.toThrow(`${base}/endless sent more than 1 MB.`);
  });

  it('gives up on a server that does not answer in time', async () => {
    await expect(httpGet(`${base}/mute`, { timeoutMs: 200, maxBytes: 1024 })).rejects.toThrow(`${base}/mute did not answer within 0.2 s.`);
  });

  it('refuses what is not an http address, in words', async () => {
    await expect(httpGet('file:///etc/passwd', { timeoutMs: 200, maxBytes: 1024 })).rejects.toThrow('"file:///etc/passwd" is not an http or https address.');
    await expect(httpGet('not a url', { timeoutMs: 200, maxBytes: 1024 })).rejects.toThrow('"not a url" is not a web address.');
  });
});
