import { createServer, type Server } from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certRecord, startDnsTestServer, type DnsTestServer } from '../../test/dns-test-server.ts';
import { startLdapTestServer, type LdapTestServer } from '../../test/ldap-test-server.ts';
import { createCertificateAuthority, issueDirectCertificate, type IssuedCertificate } from './certificate-authority.ts';
import { discoverCertificates } from './discovery.ts';

// Lakeside looks for Riverview's certificates the way any HISP would: DNS CERT at the address, then at
// the domain, then the LDAP directory named by SRV (the address, then the domain: ONC DCDT D4); and when nothing
// is found it can say where it looked.

const DOMAIN = 'direct.riverview.example';
const ANN = `ann.carter@${DOMAIN}`;
let dns: DnsTestServer;
let ldap: LdapTestServer;
let web: Server;
let webBase: string;
let annCertificate: IssuedCertificate;
let domainCertificate: IssuedCertificate;
const served = new Map<string, Uint8Array | string>();
const opts = () => ({ servers: [dns.address], timeoutMs: 2_000, ldapTimeoutMs: 2_000 });
const der = (issued: IssuedCertificate) => Buffer.from(issued.certificateDer);

// A port nothing listens on: bound, noted, released.
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  const ca = await createCertificateAuthority({ commonName: 'Riverview Demo CA', organization: 'Riverview', validDays: 3650 });
  [annCertificate, domainCertificate] = await Promise.all([
    issueDirectCertificate(ca, { address: ANN, usage: 'both', validDays: 365 }),
    issueDirectCertificate(ca, { domain: DOMAIN, usage: 'both', validDays: 365 }),
  ]);
  web = createServer((req, res) => {
    const body = served.get(req.url ?? '');
    res.writeHead(body === undefined ? 404 : 200).end(body);
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webBase = `http://127.0.0.1:${(web.address() as net.AddressInfo).port}`;
  [dns, ldap] = await Promise.all([
    startDnsTestServer([]),
    startLdapTestServer(
      [
        { dn: 'uid=ann.carter,ou=people,dc=riverview,dc=example', mail: ANN, certificates: [annCertificate.certificateDer] },
        { dn: 'uid=bo.lee,ou=people,dc=riverview,dc=example', mail: `bo.lee@${DOMAIN}`, certificates: [] },
        // DCDT D4_valD: a domain-bound certificate under an entry whose mail attribute is the domain.
        { dn: 'cn=direct,ou=domains,dc=riverview,dc=example', mail: DOMAIN, certificates: [domainCertificate.certificateDer] },
      ],
      // An empty context first: every naming context is searched, not only the first.
      { namingContexts: ['o=archive', 'dc=riverview,dc=example'] },
    ),
  ]);
});

afterAll(async () => {
  await Promise.all([dns.close(), ldap.close(), new Promise((resolve) => web.close(resolve))]);
});

describe('certificate discovery in DNS', () => {
  it('finds the address-bound certificate at user.domain', async () => {
    dns.setRecords([certRecord(`ann.carter.${DOMAIN}`, 'PKIX', annCertificate.certificateDer)]);
    const found = await discoverCertificates(ANN, opts());
    expect(found.source).toBe('dns');
    expect(found.certificates).toEqual([der(annCertificate)]);
    expect(found.attempts).toEqual([{ method: 'dns', query: `ann.carter.${DOMAIN}`, outcome: '1 certificate' }]);
  });

  it('finds the domain-bound certificate at the domain when the address has none', async () => {
    dns.setRecords([certRecord(DOMAIN, 'PKIX', domainCertificate.certificateDer)]);
    const found = await discoverCertificates(ANN, opts());
    expect(found.source).toBe('dns');
    expect(found.certificates).toEqual([der(domainCertificate)]);
    expect(found.attempts).toEqual([
      { method: 'dns', query: `ann.carter.${DOMAIN}`, outcome: 'no CERT record' },
      { method: 'dns', query: DOMAIN, outcome: '1 certificate' },
    ]);
  });

  it('reads an answer too large for UDP over TCP', async () => {
    const many = Array.from({ length: 6 }, () => certRecord(`ann.carter.${DOMAIN}`, 'PKIX', annCertificate.certificateDer));
    dns.setRecords(many);
    dns.queries.length = 0;
    const found = await discoverCertificates(ANN, opts());
    expect(found.certificates).toHaveLength(6);
    expect(dns.queries.map((query) => query.transport)).toEqual(['udp', 'tcp']);
  });

  it('fetches the certificate an IPKIX (or URI) record points at, PEM or DER', async () => {
    served.set('/ann.pem', annCertificate.certificatePem);
    served.set('/domain.cer', domainCertificate.certificateDer);
    dns.setRecords([
      certRecord(`ann.carter.${DOMAIN}`, 'IPKIX', `${webBase}/ann.pem`),
      certRecord(`ann.carter.${DOMAIN}`, 'URI', `${webBase}/domain.cer`),
    ]);
    const found = await discoverCertificates(ANN, opts());
    expect(found.source).toBe('dns');
    expect(found.certificates).toEqual([der(annCertificate), der(domainCertificate)]);
  });

  it('keeps only what parses, and says what could not be used', async () => {
    dns.setRecords([
      certRecord(`ann.carter.${DOMAIN}`, 'PKIX', Buffer.from('not a certificate')),
      certRecord(`ann.carter.${DOMAIN}`, 'IPKIX', `${webBase}/missing.cer`),
      certRecord(DOMAIN, 'PKIX', domainCertificate.certificateDer),
    ]);
    const found = await discoverCertificates(ANN, opts());
    expect(found.certificates).toEqual([der(domainCertificate)]);
    expect(found.attempts[0]?.outcome).toBe(
      `2 CERT records, no certificate; a CERT record holds no readable certificate; ${webBase}/missing.cer could not be fetched: ${webBase}/missing.cer answered 404 Not Found.`,
    );
  });
});

describe('certificate discovery in LDAP', () => {
  it('finds the certificate through the domain SRV record when DNS has none', async () => {
    dns.setRecords([{ type: 'SRV', name: `_ldap._tcp.${DOMAIN}`, data: { priority: 0, weight: 0, port: ldap.port, target: '127.0.0.1' } }]);
    const found = await discoverCertificates(ANN, opts());
    expect(found.source).toBe('ldap');
    expect(found.certificates).toEqual([der(annCertificate)]);
    expect(found.attempts.at(-1)).toEqual({ method: 'ldap', query: `ldap://127.0.0.1:${ldap.port} (mail=${ANN})`, outcome: '1 certificate' });
  });

  // DCDT D4 (D4_LDAP_DB_Valid): a valid domain-bound certificate in LDAP, SRV priority 0; the address has none of its own.
  it('DCDT D4: searches (mail=<domain>) after (mail=<address>) finds nothing, and finds the domain-bound certificate', async () => {
    dns.setRecords([{ type: 'SRV', name: `_ldap._tcp.${DOMAIN}`, data: { priority: 0, weight: 0, port: ldap.port, target: '127.0.0.1' } }]);
    const found = await discoverCertificates(`bo.lee@${DOMAIN}`, opts());
    expect(found.source).toBe('ldap');
    expect(found.certificates).toEqual([der(domainCertificate)]);
    expect(found.attempts.filter((attempt) => attempt.method === 'ldap')).toEqual([
      { method: 'ldap', query: `ldap://127.0.0.1:${ldap.port} (mail=bo.lee@${DOMAIN})`, outcome: 'no certificate for the address' },
      { method: 'ldap', query: `ldap://127.0.0.1:${ldap.port} (mail=${DOMAIN})`, outcome: '1 certificate' },
    ]);
    // The address's own entry comes first: its certificate alone, the domain is not searched.
    const ann = await discoverCertificates(ANN, opts());
    expect(ann.certificates).toEqual([der(annCertificate)]);
    expect(ann.attempts.filter((attempt) => attempt.method === 'ldap')).toHaveLength(1);
  });

  it('says so when neither the address nor the domain has a certificate in the directory', async () => {
    dns.setRecords([{ type: 'SRV', name: '_ldap._tcp.elsewhere.example', data: { priority: 0, weight: 0, port: ldap.port, target: '127.0.0.1' } }]);
    const found = await discoverCertificates('cy@elsewhere.example', opts());
    expect(found.source).toBeNull();
    expect(found.attempts.slice(-2).map((attempt) => attempt.outcome)).toEqual(['no certificate for the address', 'no certificate for the domain']);
  });

  // Issue 28 §1: the SRV target is a name only the configured DNS server knows, so the system resolver cannot find it.
  it('resolves the SRV target with the configured DNS servers, not the system resolver', async () => {
    const target = 'ldap.directory.riverview.example';
    dns.setRecords([
      { type: 'SRV', name: `_ldap._tcp.${DOMAIN}`, data: { priority: 0, weight: 0, port: ldap.port, target } },
      { type: 'A', name: target, data: '127.0.0.1' },
    ]);
    dns.queries.length = 0;
    const found = await discoverCertificates(ANN, opts());
    expect(found.source).toBe('ldap');
    expect(found.certificates).toEqual([der(annCertificate)]);
    expect(found.attempts.at(-1)).toEqual({ method: 'ldap', query: `ldap://${target}:${ldap.port} (mail=${ANN})`, outcome: '1 certificate' });
    expect(dns.queries).toContainEqual({ transport: 'udp', name: target, type: 'A' });

    dns.setRecords([{ type: 'SRV', name: `_ldap._tcp.${DOMAIN}`, data: { priority: 0, weight: 0, port: ldap.port, target: 'nowhere.riverview.example' } }]);
    const unresolved = await discoverCertificates(ANN, opts());
    expect(unresolved.source).toBeNull();
    expect(unresolved.attempts.at(-1)).toEqual({ method: 'ldap', query: `ldap://nowhere.riverview.example:${ldap.port} (mail=${ANN})`, outcome: 'server unreachable: nowhere.riverview.example has no address in DNS' });
  });

  it('tries the next directory when one is down', async () => {
    const down = await closedPort();
    dns.setRecords([
      { type: 'SRV', name: `_ldap._tcp.${DOMAIN}`, data: { priority: 0, weight: 0, port: down, target: '127.0.0.1' } },
      { type: 'SRV', name: `_ldap._tcp.${DOMAIN}`, data: { priority: 10, weight: 0, port: ldap.port, target: '127.0.0.1' } },
    ]);
    const found = await discoverCertificates(ANN, opts());
    expect(found.source).toBe('ldap');
    const ldapAttempts = found.attempts.filter((attempt) => attempt.method === 'ldap');
    expect(ldapAttempts[0]?.outcome).toMatch(/^server unreachable: /);
    expect(ldapAttempts[1]?.outcome).toBe('1 certificate');
  });
  it('gives up on a directory that accepts the connection and never answers, in time', async () => {
    const mute = net.createServer(() => undefined);
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    try {
      const port = (mute.address() as net.AddressInfo).port;
      dns.setRecords([{ type: 'SRV', name: `_ldap._tcp.${DOMAIN}`, data: { priority: 0, weight: 0, port, target: '127.0.0.1' } }]);
      const started = Date.now();
      const found = await discoverCertificates(ANN, { ...opts(), ldapTimeoutMs: 300 });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(found.source).toBeNull();
      expect(found.attempts.at(-1)?.outcome).toMatch(/^server unreachable: /);
    } finally {
      mute.close();
    }
  });
});

describe('when nothing is found', () => {
  it('returns no source and lists every place it tried', async () => {
    dns.setRecords([]);
    const found = await discoverCertificates(ANN, opts());
    expect(found).toEqual({
      source: null,
      certificates: [],
      attempts: [
        { method: 'dns', query: `ann.carter.${DOMAIN}`, outcome: 'no CERT record' },
        { method: 'dns', query: DOMAIN, outcome: 'no CERT record' },
        { method: 'ldap', query: `_ldap._tcp.${DOMAIN}`, outcome: 'no SRV record' },
      ],
    });
  });

  it('reports a silent DNS server as a timeout, not a hang', async () => {
    dns.setSilent(true);
    try {
      const started = Date.now();
      const found = await discoverCertificates(ANN, { servers: [dns.address], timeoutMs: 200 });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(found.source).toBeNull();
      expect(found.attempts.map((attempt) => attempt.outcome)).toEqual(
        Array(3).fill('DNS lookup failed: The DNS server did not answer in time.'),
      );
    } finally {
      dns.setSilent(false);
    }
  });

  it('refuses something that is not an address, in words', async () => {
    await expect(discoverCertificates('ann.carter', opts())).rejects.toThrow('"ann.carter" is not a Direct address.');
  });
});
