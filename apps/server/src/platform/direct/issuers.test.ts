import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDnsTestServer, type DnsTestServer } from '../../test/dns-test-server.ts';
import { createCertificateAuthority, createIntermediateAuthority, issueDirectCertificate, type CertificateAuthority } from './certificate-authority.ts';
import { completeChain, createIssuerFetcher } from './issuers.ts';
import { verifyChain } from './trust.ts';

// ONC DCDT D18 rebuilt on loopback: a Direct certificate issued by an intermediate CA that neither the message nor the
// directory carries; the leaf's Authority Information Access names an http caIssuers URL where the intermediate is
// served. The chain is completed from it (DNS from the configured servers, http only, time- and size-limited, cached,
// never from a private or loopback address unless allowed), then validated as usual.

const AIA_HOST = 'aia.riverview.example';
let dns: DnsTestServer;
let web: Server;
let port: number;
let root: CertificateAuthority;
let intermediate: CertificateAuthority;
const requests: string[] = [];
const served = new Map<string, { status?: number; body?: Uint8Array | string; headers?: Record<string, string>; hang?: boolean }>();
const aia = (path: string) => `http://${AIA_HOST}:${port}${path}`;
const fetcher = (allowPrivate = true, limits: { timeoutMs?: number; maxBytes?: number } = {}) => createIssuerFetcher({ dns: { servers: [dns.address], timeoutMs: 2_000 }, allowPrivate, ...limits });

async function leafWithAia(url: string) {
  return issueDirectCertificate(intermediate, { address: 'd18@domain1.dcdt.example', usage: 'both', validDays: 365, caIssuersUrl: url });
}

beforeAll(async () => {
  web = createServer((req, res) => {
    requests.push(req.url ?? '');
    const entry = served.get(req.url ?? '');
    if (entry?.hang) return;
    res.writeHead(entry?.status ?? (entry ? 200 : 404), entry?.headers).end(entry?.body);
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  port = (web.address() as AddressInfo).port;
  dns = await startDnsTestServer([{ type: 'A', name: AIA_HOST, data: '127.0.0.1' }]);
  root = await createCertificateAuthority({ commonName: 'DCDT Root CA', organization: 'DCDT', validDays: 3650 });
  intermediate = await createIntermediateAuthority(root, { commonName: 'DCDT Intermediate CA', organization: 'DCDT', validDays: 3650 });
}, 60_000);

afterAll(async () => {
  await Promise.all([dns.close(), new Promise((resolve) => web.close(resolve))]);
});

beforeEach(() => {
  requests.length = 0;
  served.clear();
});

describe('completing a chain from the AIA caIssuers URL (DCDT D18)', () => {
  it('fetches the missing intermediate, after which the chain validates; without it, it does not', async () => {
    served.set('/intermediate.cer', { body: intermediate.certificateDer, headers: { 'content-type': 'application/pkix-cert' } });
    const d18 = await leafWithAia(aia('/intermediate.cer'));
    expect(verifyChain(d18.certificateDer, [root.certificateDer], new Date())).toEqual({ ok: false, reason: 'The certificate was not issued by a trusted authority (no chain to a trust anchor).' });
    const { intermediates, problems } = await completeChain(fetcher(), d18.certificateDer, [root.certificateDer], []);
    expect(problems).toEqual([]);
    expect(intermediates).toEqual([Buffer.from(intermediate.certificateDer)]);
    expect(verifyChain(d18.certificateDer, [root.certificateDer], new Date(), intermediates)).toEqual({ ok: true });
  });

  it('asks once per URL (cached), and not at all when the chain is already complete', async () => {
    served.set('/cached.cer', { body: intermediate.certificateDer });
    const d18 = await leafWithAia(aia('/cached.cer'));
    const shared = fetcher();
    await completeChain(shared, d18.certificateDer, [root.certificateDer], []);
    await completeChain(shared, d18.certificateDer, [root.certificateDer], []);
    expect(requests).toEqual(['/cached.cer']);
    await completeChain(fetcher(), d18.certificateDer, [root.certificateDer], [intermediate.certificateDer]);
    expect(requests).toEqual(['/cached.cer']);
  });

  it('reads a PEM answer too, and keeps only a certificate that did issue the one below', async () => {
    served.set('/pem', { body: `${root.certificatePem}${intermediate.certificatePem}` });
    const d18 = await leafWithAia(aia('/pem'));
    const { intermediates } = await completeChain(fetcher(), d18.certificateDer, [root.certificateDer], []);
    expect(intermediates).toEqual([Buffer.from(intermediate.certificateDer)]);
    served.set('/wrong', { body: root.certificateDer });
    const wrong = await leafWithAia(aia('/wrong'));
    const refused = await completeChain(fetcher(), wrong.certificateDer, [root.certificateDer], []);
    expect(refused.intermediates).toEqual([]);
    expect(refused.problems).toEqual([`${aia('/wrong')} holds no certificate that issued "d18@domain1.dcdt.example".`]);
  });

  it('never fetches from a private or loopback address unless allowed', async () => {
    served.set('/intermediate.cer', { body: intermediate.certificateDer });
    const byName = await leafWithAia(aia('/intermediate.cer'));
    const byAddress = await leafWithAia(`http://127.0.0.1:${port}/intermediate.cer`);
    const a = await completeChain(fetcher(false), byName.certificateDer, [root.certificateDer], []);
    expect(a.problems).toEqual([`The issuing certificate could not be fetched: ${AIA_HOST} (127.0.0.1) is a private or loopback address, from which certificates are not fetched.`]);
    const b = await completeChain(fetcher(false), byAddress.certificateDer, [root.certificateDer], []);
    expect(b.problems).toEqual(['The issuing certificate could not be fetched: 127.0.0.1 is a private or loopback address, from which certificates are not fetched.']);
    expect(requests).toEqual([]);
  });

  it('limits size and time, refuses redirects, and follows http only', async () => {
    served.set('/big', { body: Buffer.alloc(300 * 1024, 1) });
    served.set('/slow', { hang: true });
    served.set('/moved', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } });
    const problemsOf = async (url: string) => (await completeChain(fetcher(true, { timeoutMs: 300 }), (await leafWithAia(url)).certificateDer, [root.certificateDer], [])).problems;
    expect(await problemsOf(aia('/big'))).toEqual([`The issuing certificate could not be fetched: ${aia('/big')} sent more than 0.3 MB.`]);
    expect(await problemsOf(aia('/slow'))).toEqual([`The issuing certificate could not be fetched: ${aia('/slow')} did not answer within 0.3 s.`]);
    expect(await problemsOf(aia('/moved'))).toEqual([`The issuing certificate could not be fetched: ${aia('/moved')} answered 302 (a redirect, which is not followed).`]);
    // An https or ldap caIssuers URL is not followed at all.
    expect(await problemsOf(`https://${AIA_HOST}:${port}/intermediate.cer`)).toEqual([]);
  });
});
