import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certRecord, startDnsTestServer, type DnsTestServer } from '../../test/dns-test-server.ts';
import { queryDns, resolveMx } from './dns.ts';

// The DNS client against an authoritative server on loopback: CERT records Node's resolver refuses,
// the fall-back to TCP for a truncated answer, NXDOMAIN, a silent server, MX order and the implicit MX.

let server: DnsTestServer;
let silent: DnsTestServer;
const opts = () => ({ servers: [server.address], timeoutMs: 2_000 });

beforeAll(async () => {
  [server, silent] = await Promise.all([startDnsTestServer([]), startDnsTestServer([])]);
  silent.setSilent(true);
});

afterAll(async () => {
  await Promise.all([server.close(), silent.close()]);
});

describe('queryDns', () => {
  it('reads a CERT record as its raw RDATA, over UDP', async () => {
    server.setRecords([certRecord('ann.lakeside.example', 'PKIX', Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01]))]);
    server.queries.length = 0;
    const answers = await queryDns('ann.lakeside.example', 'CERT', opts());
    expect(answers).toHaveLength(1);
    const [answer] = answers;
    expect(answer?.type).toBe('CERT');
    expect(answer?.type === 'CERT' && answer.data.readUInt16BE(0)).toBe(1);
    expect(server.queries).toEqual([{ transport: 'udp', name: 'ann.lakeside.example', type: 'CERT' }]);
  });

  it('asks again over TCP when the UDP answer is truncated', async () => {
    server.setRecords([{ type: 'A', name: 'mx.lakeside.example', data: '192.0.2.7' }]);
    server.setTruncateUdp(true);
    server.queries.length = 0;
    try {
      const answers = await queryDns('mx.lakeside.example', 'A', opts());
      expect(answers.map((answer) => answer.type === 'A' && answer.data)).toEqual(['192.0.2.7']);
      expect(server.queries.map((query) => query.transport)).toEqual(['udp', 'tcp']);
    } finally {
      server.setTruncateUdp(false);
    }
  });

  it('gives no records for a name that does not exist, or has none of the type', async () => {
    server.setRecords([{ type: 'A', name: 'lakeside.example', data: '192.0.2.1' }]);
    expect(await queryDns('nobody.lakeside.example', 'CERT', opts())).toEqual([]);
    expect(await queryDns('lakeside.example', 'CERT', opts())).toEqual([]);
  });

  it('says the server did not answer in time instead of hanging', async () => {
    const started = Date.now();
    await expect(queryDns('lakeside.example', 'CERT', { servers: [silent.address], timeoutMs: 300 })).rejects.toThrow(
      'The DNS server did not answer in time.',
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('moves on to the next server when one stays silent', async () => {
    server.setRecords([{ type: 'A', name: 'lakeside.example', data: '192.0.2.1' }]);
    const answers = await queryDns('lakeside.example', 'A', { servers: [silent.address, server.address], timeoutMs: 300 });
    expect(answers.map((answer) => answer.type === 'A' && answer.data)).toEqual(['192.0.2.1']);
  });

  it('refuses names and server addresses that cannot be used, in words', async () => {
    await expect(queryDns(`${'a'.repeat(64)}.example`, 'A', opts())).rejects.toThrow('is not a name that can be looked up in DNS.');
    await expect(queryDns('two..dots.example', 'A', opts())).rejects.toThrow('is not a name that can be looked up in DNS.');
    await expect(queryDns('lakeside.example', 'A', { servers: ['127.0.0.1:99999'] })).rejects.toThrow('is not a DNS server address');
  });
});

describe('resolveMx', () => {
  it('lists the mail exchangers, most preferred first', async () => {
    server.setRecords([
      { type: 'MX', name: 'riverview.example', data: { preference: 20, exchange: 'backup.riverview.example' } },
      { type: 'MX', name: 'riverview.example', data: { preference: 10, exchange: 'mx.riverview.example' } },
    ]);
    expect(await resolveMx('riverview.example', opts())).toEqual([
      { exchange: 'mx.riverview.example', priority: 10 },
      { exchange: 'backup.riverview.example', priority: 20 },
    ]);
  });

  it('falls back to the domain itself when it has no MX record', async () => {
    server.setRecords([{ type: 'A', name: 'small-clinic.example', data: '192.0.2.9' }]);
    expect(await resolveMx('small-clinic.example', opts())).toEqual([{ exchange: 'small-clinic.example', priority: 0 }]);
  });

  it('gives none for a domain that publishes a null MX (it takes no mail)', async () => {
    server.setRecords([{ type: 'MX', name: 'no-mail.example', data: { preference: 0, exchange: '.' } }]);
    expect(await resolveMx('no-mail.example', opts())).toEqual([]);
  });
});
