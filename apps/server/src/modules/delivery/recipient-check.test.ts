import 'reflect-metadata'; // @peculiar/x509 throws at load time without it
import * as x509 from '@peculiar/x509';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recipientCheckTexts } from '@clinicrelay/contracts/delivery.ts';
import { trustAnchors } from '../../db/schema/certificates.ts';
import { describeAnchorCertificate } from '../trust-anchors/trust-files.ts';
import { createCertificateAuthority, issueCrl, issueDirectCertificate } from '../../platform/direct/certificate-authority.ts';
import { createTestApp, type TestContext } from '../../test/app.ts';
import { certRecord, startDnsTestServer, type DnsTestServer } from '../../test/dns-test-server.ts';

// Issue 12 §4: before sending, the To field asks what each address is, and gets it in plain words per recipient:
// hosted here, a trusted Direct address (certificate found in DNS), no certificate (DNS and LDAP tried), not trusted,
// expired, revoked, a fax number, or not an address at all.

const LAKESIDE_USER = 'user@lakeside.example.org';
const DAY = 24 * 60 * 60 * 1000;
const check = (t: TestContext, addresses: string[], user = LAKESIDE_USER) => t.call(user, 'POST', '/api/messages/recipients/check', { addresses });

describe('recipient check', () => {
  let t: TestContext;
  let dns: DnsTestServer;
  let crlServer: Server;
  let crl: Uint8Array = new Uint8Array();

  beforeAll(async () => {
    dns = await startDnsTestServer([]);
    crlServer = createServer((_request, response) => response.end(Buffer.from(crl)));
    await new Promise<void>((resolve) => crlServer.listen(0, '127.0.0.1', resolve));
    const crlUrl = `http://127.0.0.1:${(crlServer.address() as AddressInfo).port}/ca.crl`;
    t = await createTestApp({ config: { DIRECT_DNS_SERVERS: dns.address } });

    const trusted = await createCertificateAuthority({ commonName: 'Partner HISP CA', organization: 'Partner HISP', validDays: 365 });
    const stranger = await createCertificateAuthority({ commonName: 'Unknown CA', organization: 'Nobody', validDays: 365 });
    const anchor = describeAnchorCertificate(Buffer.from(trusted.certificateDer));
    await t.handle.db.insert(trustAnchors).values({ name: 'Partner HISP CA', subject: anchor.subject, thumbprintSha256: anchor.thumbprintSha256, notAfter: anchor.notAfter, certificateDer: anchor.der });

    const issue = (ca: typeof trusted, address: string, extra: { notBefore?: Date; validDays?: number } = {}) =>
      issueDirectCertificate(ca, { address, usage: 'both', validDays: extra.validDays ?? 90, crlUrl, ...(extra.notBefore ? { notBefore: extra.notBefore } : {}) });
    const good = await issue(trusted, 'dr.good@partner.example.com');
    const untrusted = await issue(stranger, 'dr.stranger@partner.example.com');
    const expired = await issue(trusted, 'dr.expired@partner.example.com', { notBefore: new Date(Date.now() - 400 * DAY), validDays: 30 });
    const revoked = await issue(trusted, 'dr.revoked@partner.example.com');
    const otherAddress = await issue(trusted, 'someone.else@partner.example.com');
    crl = await issueCrl(trusted, [{ serialNumber: new x509.X509Certificate(revoked.certificateDer).serialNumber }], { thisUpdate: new Date(Date.now() - DAY), nextUpdate: new Date(Date.now() + 7 * DAY) });
    dns.setRecords([
      certRecord('dr.good.partner.example.com', 'PKIX', good.certificateDer),
      certRecord('dr.stranger.partner.example.com', 'PKIX', untrusted.certificateDer),
      certRecord('dr.expired.partner.example.com', 'PKIX', expired.certificateDer),
      certRecord('dr.revoked.partner.example.com', 'PKIX', revoked.certificateDer),
      certRecord('dr.misfiled.partner.example.com', 'PKIX', otherAddress.certificateDer),
    ]);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await dns?.close();
    await new Promise<void>((resolve) => (crlServer ? crlServer.close(() => resolve()) : resolve()));
  });

  it('says per recipient what sending would meet', async () => {
    const res = await check(t, [
      'referrals@riverview.direct.example.org',
      'dr.good@partner.example.com',
      '(503) 555-0199',
      'not an address',
      'nobody@partner.example.com',
      'dr.stranger@partner.example.com',
      'dr.expired@partner.example.com',
      'dr.revoked@partner.example.com',
      'dr.misfiled@partner.example.com',
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const byAddress = Object.fromEntries(res.json().recipients.map((r: { address: string }) => [r.address, r]));
    expect(byAddress['referrals@riverview.direct.example.org']).toEqual({ address: 'referrals@riverview.direct.example.org', status: 'Hosted', text: recipientCheckTexts.Hosted, deliverable: true });
    expect(byAddress['dr.good@partner.example.com']).toMatchObject({ status: 'Trusted', text: 'Trusted Direct address (certificate found in DNS)', deliverable: true });
    expect(byAddress['(503) 555-0199']).toMatchObject({ status: 'Fax', deliverable: true });
    expect(byAddress['not an address']).toMatchObject({ status: 'Invalid', deliverable: false });
    expect(byAddress['nobody@partner.example.com']).toMatchObject({ status: 'NoCertificate', text: recipientCheckTexts.NoCertificate, deliverable: false });
    expect(byAddress['dr.stranger@partner.example.com']).toMatchObject({ status: 'Untrusted', deliverable: false });
    expect(byAddress['dr.stranger@partner.example.com'].text).toContain('no chain to a trust anchor');
    expect(byAddress['dr.expired@partner.example.com']).toMatchObject({ status: 'Expired', deliverable: false });
    expect(byAddress['dr.expired@partner.example.com'].text).toMatch(/expired on \d\d\/\d\d\/\d{4}/);
    expect(byAddress['dr.revoked@partner.example.com']).toMatchObject({ status: 'Untrusted', deliverable: false });
    expect(byAddress['dr.revoked@partner.example.com'].text).toMatch(/revoked on \d\d\/\d\d\/\d{4}/);
    expect(byAddress['dr.misfiled@partner.example.com']).toMatchObject({ status: 'Untrusted', text: 'A certificate was found, but it is not issued for this address.' });
  });

  it('judges trust with the anchors of the caller’s domains: an anchor for Riverview’s domain only does not vouch for Lakeside’s recipients', async () => {
    await t.handle.db.update(trustAnchors).set({ domain: 'riverview.direct.example.org' });
    const lakeside = (await check(t, ['dr.good@partner.example.com'])).json().recipients[0];
    const riverview = (await check(t, ['dr.good@partner.example.com'], 'user@riverview.example.org')).json().recipients[0];
    await t.handle.db.update(trustAnchors).set({ domain: null });
    expect(lakeside).toMatchObject({ status: 'Untrusted', deliverable: false });
    expect(riverview).toMatchObject({ status: 'Trusted', deliverable: true });
  });

  it('refuses an empty list and more than 50 addresses', async () => {
    expect((await check(t, [])).statusCode).toBe(400);
    expect((await check(t, Array.from({ length: 51 }, (_, i) => `a${i}@example.com`))).statusCode).toBe(400);
  });
});
