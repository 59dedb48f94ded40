import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

// Tests: a webhook receiver on loopback that answers each request with the next queued status (200 when none is
// queued); a 3xx names another place, which a delivery must not follow.
export function startReceiver() {
  const received: ReceivedRequest[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = statuses.shift() ?? 200;
      if (res.statusCode >= 300 && res.statusCode < 400) res.setHeader('location', '/elsewhere');
      res.end();
    });
  });
  return {
    received,
    statuses,
    server,
    port: () => (server.address() as AddressInfo).port,
    listen: () => new Promise<string>((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`))),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
