import { eq } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { trustAnchors } from '../schema/certificates.ts';
import { documentSources } from '../schema/document-sources.ts';
import { checkCertificate } from '../../modules/certificates/certificate-file.ts';
import { storeCertificate } from '../../modules/certificates/service.ts';
import { describeAnchorCertificate } from '../../modules/trust-anchors/trust-files.ts';
import { createCertificateAuthority, issueDirectCertificate } from '../../platform/direct/certificate-authority.ts';

export const DEMO_CA_NAME = 'ClinicRelay Demo CA';

// Issue 12 §1: the demo world's certificate authority, trusted for incoming and outgoing mail, and a certificate for
// each of its Direct addresses (signing and encryption), so another installation can be introduced to this one by
// trusting this anchor. Its private key is not kept: an address added later gets its certificate by import.
// Idempotent: nothing happens once the anchor exists.
// caCommonName: the peer of `npm run demo:peer` names its CA apart, so the two anchors read differently side by side.
export async function seedDemoCertificates(db: Database, masterKey: Uint8Array, now = new Date(), caCommonName = DEMO_CA_NAME): Promise<void> {
  const [existing] = await db.select({ id: trustAnchors.id }).from(trustAnchors).where(eq(trustAnchors.name, DEMO_CA_NAME));
  if (existing) return;
  const ca = await createCertificateAuthority({ commonName: caCommonName, organization: 'ClinicRelay demo world', validDays: 3650 });
  const addresses = await db.select({ fullAddress: documentSources.fullAddress }).from(documentSources).where(eq(documentSources.type, 'Direct'));
  // Key generation is the slow part: outside the transaction.
  const issued = await Promise.all(addresses.map(async ({ fullAddress }) => ({ fullAddress, leaf: await issueDirectCertificate(ca, { address: fullAddress, usage: 'both', validDays: 825 }) })));
  const caDer = Buffer.from(ca.certificateDer);
  await db.transaction(async (tx) => {
    const anchor = describeAnchorCertificate(caDer);
    await tx.insert(trustAnchors).values({ name: DEMO_CA_NAME, subject: anchor.subject, thumbprintSha256: anchor.thumbprintSha256, notAfter: anchor.notAfter, certificateDer: caDer });
    for (const { fullAddress, leaf } of issued) {
      const checked = checkCertificate({ privateKeys: [leaf.privateKey], certificates: [Buffer.from(leaf.certificateDer), caDer] }, now);
      await storeCertificate(tx, masterKey, `demo-${fullAddress}`, checked, null);
    }
  });
}
