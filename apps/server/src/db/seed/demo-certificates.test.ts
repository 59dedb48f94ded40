import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { certificates, trustAnchors } from '../schema/certificates.ts';
import { findEncryptionCertificate, findSigningCertificate } from '../../modules/certificates/service.ts';
import { verifyChain } from '../../platform/direct/trust.ts';
import { useTestApp } from '../../test/app.ts';
import { DEMO_CA_NAME, seedDemoCertificates } from './demo-certificates.ts';

describe('the demo world’s Direct certificates', () => {
  const t = useTestApp();
  const masterKey = randomBytes(32);

  it('makes a trusted demo CA and a certificate for each demo Direct address, once', async () => {
    await seedDemoCertificates(t.handle.db, masterKey);
    await seedDemoCertificates(t.handle.db, masterKey);
    const anchors = await t.handle.db.select().from(trustAnchors).where(eq(trustAnchors.name, DEMO_CA_NAME));
    expect(anchors).toHaveLength(1);
    expect(anchors[0]).toMatchObject({ incoming: true, outgoing: true, domain: null });
    const names = (await t.handle.db.select({ name: certificates.name }).from(certificates)).map((c) => c.name).sort();
    expect(names).toEqual(['demo-intake@lakeside.direct.example.org', 'demo-referrals@riverview.direct.example.org']);

    const signing = await findSigningCertificate({ db: t.handle.db, masterKey }, 'intake@lakeside.direct.example.org');
    const encryption = await findEncryptionCertificate({ db: t.handle.db, masterKey }, 'Referrals@Riverview.direct.example.org');
    expect(signing?.privateKey.asymmetricKeyType).toBe('rsa');
    expect(encryption).toBeDefined();
    // Each chains to the demo anchor under the trust rules Direct mail is checked by.
    expect(verifyChain(signing!.der, [anchors[0]!.certificateDer], new Date())).toEqual({ ok: true });
  });
});
