import { X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustAnchors } from '../../db/schema/certificates.ts';
import { seedDemoCertificates } from '../../db/seed/demo-certificates.ts';
import { findEncryptionCertificate } from '../../modules/certificates/service.ts';
import { describeAnchorCertificate } from '../../modules/trust-anchors/trust-files.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { createCertificateAuthority, createIntermediateAuthority, issueDirectCertificate, type IssuedCertificate } from '../../platform/direct/certificate-authority.ts';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { certRecord, startDnsTestServer, type DnsTestServer } from '../../test/dns-test-server.ts';
import { createDirectDeps, type DirectDeps } from './direct-deps.ts';
import { openMessage, sealMessage } from './envelope.ts';
import { lookupRecipient } from './recipients.ts';

// ONC DCDT D18 both ways: a Direct peer whose certificates come from an intermediate CA that it neither publishes in
// DNS nor puts in its messages. Sending to it, the recipient check completes the chain from the certificate's AIA
// caIssuers URL and trusts it; receiving from it, the signer's chain is completed the same way. With private addresses
// refused (the default), the same loopback URL is not fetched and the certificate stays untrusted, saying why.

const LAKESIDE = 'intake@lakeside.direct.example.org';
const PEER = 'd18@domain1.dcdt.example';
const AIA_HOST = 'aia.dcdt.example';

describe('DCDT D18: intermediate missing, fetched from AIA caIssuers (issue 28 §1)', () => {
  let t: TestContext;
  let dns: DnsTestServer;
  let web: Server;
  let peer: IssuedCertificate;
  const deps = (aiaAllowPrivate: boolean): DirectDeps =>
    createDirectDeps({
      config: { ...t.config, direct: { ...t.config.direct, dnsServers: [dns.address], aiaAllowPrivate } },
      db: t.handle.db,
      blobs: createBlobStore({ db: t.handle.db, dataDir: t.config.dataDir, key: t.config.blobEncryptionKey }),
      now: () => t.clock.now,
    });

  beforeAll(async () => {
    t = await createTestApp({ config: { DIRECT_AIA_ALLOW_PRIVATE: 'true' } });
    await seedDemoCertificates(t.handle.db, t.config.blobEncryptionKey);
    const root = await createCertificateAuthority({ commonName: 'DCDT Root CA', organization: 'DCDT', validDays: 3650 });
    const intermediate = await createIntermediateAuthority(root, { commonName: 'DCDT Intermediate CA', organization: 'DCDT', validDays: 3650 });
    web = createServer((req, res) => {
      if (req.url === '/dcdt-intermediate.cer') res.writeHead(200, { 'content-type': 'application/pkix-cert' }).end(intermediate.certificateDer);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const aiaUrl = `http://${AIA_HOST}:${(web.address() as AddressInfo).port}/dcdt-intermediate.cer`;
    peer = await issueDirectCertificate(intermediate, { address: PEER, usage: 'both', validDays: 365, caIssuersUrl: aiaUrl });
    // D18_valA: the address-bound certificate alone in DNS; the AIA host's name only the configured DNS server knows.
    dns = await startDnsTestServer([certRecord('d18.domain1.dcdt.example', 'PKIX', peer.certificateDer), { type: 'A', name: AIA_HOST, data: '127.0.0.1' }]);
    const anchor = describeAnchorCertificate(Buffer.from(root.certificateDer));
    await t.handle.db.insert(trustAnchors).values({ name: 'DCDT Root CA', subject: anchor.subject, thumbprintSha256: anchor.thumbprintSha256, notAfter: anchor.notAfter, certificateDer: Buffer.from(root.certificateDer) });
  }, 60_000);

  afterAll(async () => {
    await Promise.all([dns?.close(), new Promise((resolve) => (web ? web.close(resolve) : resolve(undefined)))]);
    await t?.close();
  });

  it('trusts the recipient once the intermediate is fetched from the AIA URL (allowed for loopback in this test)', async () => {
    const found = await lookupRecipient(deps(true), ['lakeside.direct.example.org'], PEER);
    expect(found).toMatchObject({ status: 'Trusted', certificates: [Buffer.from(peer.certificateDer)] });
  });

  it('leaves it untrusted, saying why, when the AIA URL resolves to a loopback address (the default)', async () => {
    const found = await lookupRecipient(deps(false), ['lakeside.direct.example.org'], PEER);
    expect(found.status).toBe('Untrusted');
    expect(found.text).toContain('no chain to a trust anchor');
    expect(found.text).toContain(`${AIA_HOST} (127.0.0.1) is a private or loopback address, from which certificates are not fetched.`);
  });

  it('accepts a message whose signature carries no intermediate, completing the signer’s chain from its AIA URL', async () => {
    const direct = deps(true);
    const lakeside = await findEncryptionCertificate(direct, LAKESIDE);
    const signer = { name: 'd18', certificate: new X509Certificate(peer.certificateDer), der: Buffer.from(peer.certificateDer), chain: [], privateKey: peer.privateKey };
    const inner = Buffer.from(`From: ${PEER}\r\nTo: ${LAKESIDE}\r\nSubject: D18\r\nMessage-ID: <d18@domain1.dcdt.example>\r\nContent-Type: text/plain\r\n\r\nHello.\r\n`);
    const raw = await sealMessage(inner, { from: PEER, to: [LAKESIDE], subject: 'D18', messageId: '<outer-d18@domain1.dcdt.example>', date: t.clock.now }, signer, [lakeside!.der], 'aes-256-cbc');
    expect(await openMessage(direct, raw, LAKESIDE)).toMatchObject({ ok: true, from: PEER });
    const refused = await openMessage(deps(false), raw, LAKESIDE);
    expect(refused).toMatchObject({ ok: false, code: '5.7.7', reason: expect.stringContaining('no chain to a trust anchor') as string });
  });
});
