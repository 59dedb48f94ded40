import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createServer, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openssl, opensslMissing } from '../../test/openssl.ts';
import {
  createCertificateAuthority,
  issueCrl,
  issueDirectCertificate,
  type CertificateAuthority,
  type IssuedCertificate,
} from './certificate-authority.ts';
import { createRevocationChecker } from './revocation.ts';

// Riverview's CA publishes a revocation list on a web server; Lakeside checks a certificate against it
// before sending: revoked says when, a list from an impostor or an unreachable server is not trusted
// and says so, and a list is downloaded once until its next update.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let web: Server;
let base: string;
let ca: CertificateAuthority;
let impostor: CertificateAuthority;
let good: IssuedCertificate;
let revoked: IssuedCertificate;
const served = new Map<string, Uint8Array | string>();
const requests: string[] = [];

const pemCrl = (der: Uint8Array) =>
  `-----BEGIN X509 CRL-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END X509 CRL-----\n`;
const serial = (issued: IssuedCertificate) => new x509.X509Certificate(issued.certificateDer).serialNumber;
const fresh = () => ({ thisUpdate: new Date(Date.now() - HOUR), nextUpdate: new Date(Date.now() + 7 * DAY) });
const issuedWithCrl = (path: string) =>
  issueDirectCertificate(ca, { address: `${path.slice(1).replace(/\W/g, '')}@direct.riverview.example`, usage: 'both', validDays: 365, crlUrl: `${base}${path}` });

beforeAll(async () => {
  web = createServer((req, res) => {
    requests.push(req.url ?? '');
    const body = served.get(req.url ?? '');
    res.writeHead(body === undefined ? 404 : 200).end(body);
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  [ca, impostor] = await Promise.all([
    createCertificateAuthority({ commonName: 'Riverview Demo CA', organization: 'Riverview', validDays: 3650 }),
    // Same name, another key: only the signature tells the two apart.
    createCertificateAuthority({ commonName: 'Riverview Demo CA', organization: 'Riverview', validDays: 3650 }),
  ]);
  [good, revoked] = await Promise.all([issuedWithCrl('/riverview.crl'), issuedWithCrl('/riverview.crl')]);
  served.set('/riverview.crl', await issueCrl(ca, [{ serialNumber: serial(revoked), revocationDate: new Date('2025-03-04T12:00:00Z') }], fresh()));
});

afterAll(async () => {
  await new Promise((resolve) => web.close(resolve));
});

const countOf = (path: string) => requests.filter((url) => url === path).length;

describe('revocation through CRL distribution points', () => {
  it('says a revoked certificate was revoked, and when', async () => {
    const result = await createRevocationChecker().check(revoked.certificateDer, ca.certificateDer);
    expect(result).toEqual({ revoked: true, reason: 'The certificate was revoked on 03/04/2025.' });
  });

  it('passes a certificate the list does not name, as checked', async () => {
    const result = await createRevocationChecker().check(good.certificateDer, ca.certificateDer);
    expect(result).toEqual({ revoked: false, checked: true });
  });

  it('downloads a list once and uses it until its next update', async () => {
    let now = new Date();
    const checker = createRevocationChecker({ now: () => now });
    const before = countOf('/riverview.crl');
    await checker.check(good.certificateDer, ca.certificateDer);
    expect(await checker.check(revoked.certificateDer, ca.certificateDer)).toMatchObject({ revoked: true });
    expect(countOf('/riverview.crl')).toBe(before + 1);
    // Kept a day at most, even when the list's next update is a week away.
    now = new Date(Date.now() + DAY + HOUR);
    await checker.check(good.certificateDer, ca.certificateDer);
    expect(countOf('/riverview.crl')).toBe(before + 2);
  });

  it('tells each list’s failures, and its first use after a download, for the dashboard', async () => {
    const outcomes: [string, string | null][] = [];
    const checker = createRevocationChecker({ onListOutcome: (url, problem) => outcomes.push([url, problem]) });
    const certificate = await issuedWithCrl('/flaky.crl');
    await checker.check(certificate.certificateDer, ca.certificateDer);
    served.set('/flaky.crl', await issueCrl(ca, [], fresh()));
    await checker.check(certificate.certificateDer, ca.certificateDer);
    // Kept: a use of the cached list tells nothing more.
    await checker.check(certificate.certificateDer, ca.certificateDer);
    expect(outcomes).toEqual([
      [`${base}/flaky.crl`, `The revocation list at ${base}/flaky.crl could not be reached.`],
      [`${base}/flaky.crl`, null],
    ]);
  });

  it('refuses a list signed by another CA with the same name', async () => {
    const certificate = await issuedWithCrl('/impostor.crl');
    served.set('/impostor.crl', await issueCrl(impostor, [], fresh()));
    const result = await createRevocationChecker().check(certificate.certificateDer, ca.certificateDer);
    expect(result).toEqual({
      revoked: false,
      checked: false,
      note: `The revocation list at ${base}/impostor.crl is not signed by the certificate's issuer.`,
    });
  });

  it('refuses a list that is out of date', async () => {
    const certificate = await issuedWithCrl('/stale.crl');
    served.set('/stale.crl', await issueCrl(ca, [], { thisUpdate: new Date('2025-01-01T00:00:00Z'), nextUpdate: new Date('2025-01-08T00:00:00Z') }));
    const result = await createRevocationChecker().check(certificate.certificateDer, ca.certificateDer);
    expect(result).toEqual({
      revoked: false,
      checked: false,
      note: `The revocation list at ${base}/stale.crl is out of date (its next update was due 01/08/2025).`,
    });
  });

  it('reads a list published as PEM', async () => {
    const certificate = await issuedWithCrl('/pem.crl');
    const der = await issueCrl(ca, [{ serialNumber: serial(certificate) }], fresh());
    served.set('/pem.crl', pemCrl(der));
    expect(await createRevocationChecker().check(certificate.certificateDer, ca.certificateDer)).toMatchObject({ revoked: true });
  });

  it('says the list could not be reached when its server is down, without refusing the certificate', async () => {
    // A port nothing listens on: bound, noted, released.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const crlUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/riverview.crl`;
    await new Promise((resolve) => probe.close(resolve));
    const unreachable = await issueDirectCertificate(ca, { address: 'down@direct.riverview.example', usage: 'both', validDays: 365, crlUrl });
    const result = await createRevocationChecker({ timeoutMs: 2_000 }).check(unreachable.certificateDer, ca.certificateDer);
    expect(result).toEqual({ revoked: false, checked: false, note: `The revocation list at ${crlUrl} could not be reached.` });
  });

  it('does not check a certificate without an http distribution point, and says nothing more', async () => {
    const [none, ldapOnly] = await Promise.all([
      issueDirectCertificate(ca, { address: 'plain@direct.riverview.example', usage: 'both', validDays: 365 }),
      issueDirectCertificate(ca, { address: 'ldap@direct.riverview.example', usage: 'both', validDays: 365, crlUrl: 'ldap://ldap.riverview.example/cn=CRL' }),
    ]);
    const checker = createRevocationChecker();
    expect(await checker.check(none.certificateDer, ca.certificateDer)).toEqual({ revoked: false, checked: false });
    expect(await checker.check(ldapOnly.certificateDer, ca.certificateDer)).toEqual({ revoked: false, checked: false });
  });

  it('refuses input that is not a certificate, or the wrong issuer, in words', async () => {
    const checker = createRevocationChecker();
    await expect(checker.check(new Uint8Array([1, 2, 3]), ca.certificateDer)).rejects.toThrow('The certificate could not be read as an X.509 certificate.');
    await expect(checker.check(good.certificateDer, good.certificateDer)).rejects.toThrow('is not the one named as the issuer');
  });
});

const missing = opensslMissing();

describe.skipIf(missing)(`OpenSSL reads the demo CA's revocation list${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('accepts its signature and refuses the revoked certificate, as another HISP would', async () => {
    const files = {
      'ca.pem': ca.certificatePem,
      'crl.pem': pemCrl(served.get('/riverview.crl') as Uint8Array),
      'good.pem': good.certificatePem,
      'revoked.pem': revoked.certificatePem,
    };
    const check = (leaf: string) => openssl(['verify', '-crl_check', '-CAfile', 'ca.pem', '-CRLfile', 'crl.pem', leaf], files);
    expect((await check('good.pem')).stdout).toBe('good.pem: OK\n');
    const refused = await check('revoked.pem');
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('certificate revoked');
    expect((await openssl(['x509', '-in', 'good.pem', '-noout', '-ext', 'crlDistributionPoints'], files)).stdout).toContain(`URI:${base}/riverview.crl`);
  });
});
