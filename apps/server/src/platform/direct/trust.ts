import 'reflect-metadata'; // @peculiar/x509 throws at load time without it
import * as x509 from '@peculiar/x509';
import { X509Certificate as NodeX509Certificate } from 'node:crypto';

// Trust in a Direct certificate (issue 12 §1): the chain to a configured anchor (issuer/subject match and
// signature), validity dates, RSA keys of at least 2048 bits, SHA-256 or better signatures; and whether the
// certificate belongs to an address. Revocation (CRL distribution points) is checked by the caller, which
// may reach the network; this module never does.

const MIN_RSA_BITS = 2048;
const STRONG_HASHES = new Set(['SHA-256', 'SHA-384', 'SHA-512']);
const MD5_WITH_RSA = '1.2.840.113549.1.1.4';
// Chains longer than this are refused rather than followed (a loop of cross-signed certificates, or abuse).
const MAX_CHAIN_LENGTH = 8;

// WebCrypto's Algorithm, which @peculiar/x509's types name from the DOM library this server does not load.
type WebAlgorithm = { name: string; hash?: { name: string }; modulusLength?: number };

export type TrustResult = { ok: true } | { ok: false; reason: string };

const mmddyyyy = (date: Date) =>
  `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')}/${date.getUTCFullYear()}`;

const commonName = (certificate: x509.X509Certificate) => certificate.subjectName.getField('CN')[0] ?? certificate.subject;

// The leaf is "The certificate"; a certificate above it is named, so the reason says which one failed.
const named = (certificate: x509.X509Certificate, isLeaf: boolean) =>
  isLeaf ? 'The certificate' : `The issuing certificate "${commonName(certificate)}"`;

const sameName = (a: x509.Name, b: x509.Name) => Buffer.from(a.toArrayBuffer()).equals(Buffer.from(b.toArrayBuffer()));

function signedBy(certificate: x509.X509Certificate, issuer: x509.X509Certificate): boolean {
  if (!sameName(certificate.issuerName, issuer.subjectName)) return false;
  // OpenSSL (through Node) checks the signature whatever its algorithm, so an MD5 or SHA-1 certificate still
  // chains and is then refused by name, rather than reported as untrusted; WebCrypto knows no MD5.
  try {
    return new NodeX509Certificate(Buffer.from(certificate.rawData)).verify(new NodeX509Certificate(Buffer.from(issuer.rawData)).publicKey);
  } catch {
    return false;
  }
}

const isCertificateAuthority = (certificate: x509.X509Certificate) =>
  certificate.getExtension(x509.BasicConstraintsExtension)?.ca === true;

// The chain from the leaf as far as the intermediates reach, and whether an anchor signed its top.
function walkChain(leaf: x509.X509Certificate, anchors: x509.X509Certificate[], intermediates: x509.X509Certificate[]) {
  const chain = [leaf];
  for (let current = leaf; chain.length <= MAX_CHAIN_LENGTH; ) {
    for (const anchor of anchors) if (signedBy(current, anchor)) return { chain: [...chain, anchor], anchored: true };
    let next: x509.X509Certificate | undefined;
    for (const candidate of intermediates) {
      if (chain.includes(candidate) || !isCertificateAuthority(candidate)) continue;
      if (signedBy(current, candidate)) {
        next = candidate;
        break;
      }
    }
    if (!next) break;
    chain.push(next);
    current = next;
  }
  return { chain, anchored: false };
}

/**
 * The chain from the leaf up to one of the anchors, through the given intermediates (certificates a signed
 * message carries), each certificate signed by the next; null when no anchor is reached.
 */
export function buildChain(
  leaf: x509.X509Certificate,
  anchors: x509.X509Certificate[],
  intermediates: x509.X509Certificate[] = [],
): x509.X509Certificate[] | null {
  const { chain, anchored } = walkChain(leaf, anchors, intermediates);
  return anchored ? chain : null;
}

/**
 * Where the chain from the leaf stops short of an anchor: the last certificate reached, whose issuer is missing (to be
 * looked for at its Authority Information Access); null when an anchor is reached or the chain is too long.
 */
export function chainGap(leaf: x509.X509Certificate, anchors: x509.X509Certificate[], intermediates: x509.X509Certificate[] = []): x509.X509Certificate | null {
  const { chain, anchored } = walkChain(leaf, anchors, intermediates);
  return anchored || chain.length > MAX_CHAIN_LENGTH ? null : chain.at(-1)!;
}

/** Whether the issuer signed the certificate and is a certificate authority (a candidate to complete its chain). */
export const issuedBy = (certificate: x509.X509Certificate, issuer: x509.X509Certificate) => isCertificateAuthority(issuer) && signedBy(certificate, issuer);

function signatureAlgorithmProblem(certificate: x509.X509Certificate, who: string): string | null {
  const algorithm = certificate.signatureAlgorithm as unknown as WebAlgorithm;
  if (algorithm.name === MD5_WITH_RSA) return `${who} is signed with MD5, which is not accepted. SHA-256 or better is required.`;
  const hash = algorithm.hash?.name;
  if (hash === 'SHA-1') return `${who} is signed with SHA-1, which is no longer accepted. SHA-256 or better is required.`;
  if (!hash || !STRONG_HASHES.has(hash)) return `${who} is signed with an algorithm that is not accepted. SHA-256 or better is required.`;
  return null;
}

function keyProblem(certificate: x509.X509Certificate, who: string): string | null {
  const algorithm = certificate.publicKey.algorithm as unknown as WebAlgorithm;
  const bits = algorithm.modulusLength;
  if (!algorithm.name.startsWith('RSA') || !bits) return `${who} does not have an RSA key. Direct requires RSA keys of at least ${MIN_RSA_BITS} bits.`;
  if (bits < MIN_RSA_BITS) return `${who} has a ${bits}-bit RSA key. At least ${MIN_RSA_BITS} bits are required.`;
  return null;
}

function validityProblem(certificate: x509.X509Certificate, who: string, at: Date): string | null {
  if (at < certificate.notBefore) return `${who} is not valid before ${mmddyyyy(certificate.notBefore)}.`;
  if (at > certificate.notAfter) return `${who} expired on ${mmddyyyy(certificate.notAfter)}.`;
  return null;
}

/**
 * Whether the leaf certificate (DER) is trusted at the given time: a chain to one of the anchors (DER),
 * every certificate in it valid then, with RSA ≥ 2048 keys and SHA-256 or better signatures. The anchor's
 * own (self-)signature is not judged: it is trusted by configuration, as RFC 5280 §6.1 treats anchors.
 */
export function verifyChain(leafDer: Uint8Array, anchorsDer: Uint8Array[], at: Date, intermediatesDer: Uint8Array[] = []): TrustResult {
  let leaf: x509.X509Certificate;
  try {
    leaf = new x509.X509Certificate(leafDer);
  } catch {
    return { ok: false, reason: 'The certificate could not be read.' };
  }
  const parsed = (ders: Uint8Array[]) =>
    ders.flatMap((der) => {
      try {
        return [new x509.X509Certificate(der)];
      } catch {
        return []; // a broken anchor or intermediate cannot vouch for anything
      }
    });
  const chain = buildChain(leaf, parsed(anchorsDer), parsed(intermediatesDer));
  if (!chain) return { ok: false, reason: 'The certificate was not issued by a trusted authority (no chain to a trust anchor).' };

  for (const [index, certificate] of chain.entries()) {
    const who = named(certificate, index === 0);
    const isAnchor = index === chain.length - 1;
    const problem =
      validityProblem(certificate, who, at) ??
      keyProblem(certificate, who) ??
      (isAnchor ? null : signatureAlgorithmProblem(certificate, who));
    if (problem) return { ok: false, reason: problem };
  }
  return { ok: true };
}

/**
 * Whether the certificate (DER) belongs to the Direct address: a SAN rfc822Name equal to the address, or a
 * SAN dNSName equal to its domain (a domain-bound certificate), compared case-insensitively.
 */
export function matchesAddress(leafDer: Uint8Array, address: string): boolean {
  const at = address.lastIndexOf('@');
  if (at < 1) return false;
  const wanted = address.toLowerCase();
  const domain = wanted.slice(at + 1);
  let names: readonly x509.GeneralName[];
  try {
    names = new x509.X509Certificate(leafDer).getExtension(x509.SubjectAlternativeNameExtension)?.names.items ?? [];
  } catch {
    return false;
  }
  return names.some(
    (name) => (name.type === 'email' && name.value.toLowerCase() === wanted) || (name.type === 'dns' && name.value.toLowerCase() === domain),
  );
}
