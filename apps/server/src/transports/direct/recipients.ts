import 'reflect-metadata'; // @peculiar/x509 throws at load time without it
import * as x509 from '@peculiar/x509';
import { X509Certificate } from 'node:crypto';
import { parseRecipient, recipientCheckTexts, type RecipientCheckStatus } from '@clinicrelay/contracts/delivery.ts';
import { findAnchors } from '../../modules/trust-anchors/service.ts';
import { discoverCertificates } from '../../platform/direct/discovery.ts';
import { completeChain } from '../../platform/direct/issuers.ts';
import { matchesAddress, verifyChain } from '../../platform/direct/trust.ts';
import { findHostedAddress } from '../local.ts';
import type { DirectDeps } from './direct-deps.ts';

export interface RecipientLookup {
  status: RecipientCheckStatus;
  // The sentence a sender reads (and the reason a failed delivery records).
  text: string;
  // Trusted encryption certificates (DER) for a 'Trusted' recipient.
  certificates: Buffer[];
}

const lookup = (status: RecipientCheckStatus, text = recipientCheckTexts[status], certificates: Buffer[] = []): RecipientLookup => ({ status, text, certificates });

// Certificates that can carry a content key: no keyUsage extension, or one with keyEncipherment (a signing-only
// certificate published beside an encryption one is skipped).
function canEncrypt(der: Buffer): boolean {
  try {
    const usage = new x509.X509Certificate(der).getExtension(x509.KeyUsagesExtension);
    return !usage || (usage.usages & x509.KeyUsageFlags.keyEncipherment) !== 0;
  } catch {
    return false;
  }
}

/**
 * Where a To address stands before anything is sent (issue 12 §4): hosted here, a trusted Direct address (with the
 * certificates to encrypt for), no certificate found, not trusted, expired, a fax number, or not an address at all.
 * Certificates are looked up in DNS (CERT) then LDAP; trust is the chain to an outgoing anchor of the sender's domain(s),
 * validity, key and digest strength, the address match, and revocation when the CRL can be reached.
 */
export async function lookupRecipient(deps: DirectDeps, senderDomains: string[], address: string): Promise<RecipientLookup> {
  const parsed = parseRecipient(address);
  if (!parsed) return lookup('Invalid');
  if (parsed.channel === 'Fax') return lookup('Fax');
  const normalized = parsed.address.toLowerCase();
  if (await findHostedAddress(deps.db, 'Direct', parsed.address)) return lookup('Hosted');

  const found = await discoverCertificates(normalized, deps.discovery);
  // What was tried (names, servers, errors) is for an administrator, not the sender: the sentence says DNS and LDAP.
  if (found.certificates.length === 0) return lookup('NoCertificate');
  const forAddress = found.certificates.filter((der) => matchesAddress(der, normalized) && canEncrypt(der));
  if (forAddress.length === 0) return lookup('Untrusted', 'A certificate was found, but it is not issued for this address.');

  const anchorSets = await Promise.all(senderDomains.map((domain) => findAnchors(deps.db, { domain, direction: 'outgoing' })));
  const anchors = anchorSets.flat();
  const now = deps.now();
  const trusted: Buffer[] = [];
  const problems: string[] = [];
  for (const der of forAddress) {
    // An intermediate the directory did not publish is fetched from the certificate's AIA caIssuers URL (DCDT D18).
    const { intermediates, problems: fetching } = await completeChain(deps.issuers, der, anchors, found.certificates);
    const verdict = verifyChain(der, anchors, now, intermediates);
    if (!verdict.ok) {
      problems.push([verdict.reason, ...fetching].join(' '));
      continue;
    }
    const revoked = await revocationProblem(deps, der, anchors, intermediates);
    if (revoked) problems.push(revoked);
    else trusted.push(der);
  }
  if (trusted.length > 0) return lookup('Trusted', `${recipientCheckTexts.Trusted} (certificate found in ${found.source === 'ldap' ? 'LDAP' : 'DNS'})`, trusted);
  const expired = problems.find((p) => p.includes('expired'));
  if (expired) return lookup('Expired', `${recipientCheckTexts.Expired}: ${expired}`);
  return lookup('Untrusted', `${recipientCheckTexts.Untrusted}: ${problems[0] ?? 'no chain to a trust anchor'}`);
}

// The revocation reason when the certificate's issuer publishes a CRL that lists it; null otherwise (also when the CRL
// cannot be reached: the issue asks for revocation checks "when reachable").
export async function revocationProblem(deps: Pick<DirectDeps, 'revocation'>, der: Uint8Array, anchors: Uint8Array[], intermediates: Uint8Array[]): Promise<string | null> {
  const leaf = new X509Certificate(der);
  const issuer = [...intermediates, ...anchors].map((c) => new X509Certificate(c)).find((c) => leaf.checkIssued(c) && leaf.verify(c.publicKey));
  if (!issuer) return null;
  const result = await deps.revocation.check(der, issuer.raw);
  return result.revoked ? result.reason : null;
}
