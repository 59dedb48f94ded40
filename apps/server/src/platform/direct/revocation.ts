import 'reflect-metadata'; // @peculiar/x509 throws at load time without it
import * as x509 from '@peculiar/x509';
import { createHash, webcrypto } from 'node:crypto';
import { httpGet } from './http-get.ts';

// Revocation of a Direct certificate through its CRL distribution points (issue 12 §1: "when reachable").
// A list is used only when signed by the certificate's issuer and current; it is kept until its next
// update (at most a day). An unreachable or unusable list does not refuse the certificate: the result says
// it was not checked, and why, so the caller can decide and tell the user.

export type RevocationResult = { revoked: false; checked: boolean; note?: string } | { revoked: true; reason: string };

export interface RevocationChecker {
  check(certificate: Uint8Array, issuer: Uint8Array): Promise<RevocationResult>;
}

export interface RevocationCheckerOptions {
  fetch?: (url: string) => Promise<Uint8Array>;
  now?: () => Date;
  timeoutMs?: number;
  maxBytes?: number;
  // Told each list's outcome: null on its first use after a download, the problem on every failure (for the dashboard).
  onListOutcome?: (url: string, problem: string | null) => void;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 10 * 1_048_576;
const MAX_CACHE_MS = 86_400_000;
// Lists in memory at once: beyond this the oldest is dropped (a list can be megabytes).
const MAX_CACHED_LISTS = 64;
// A CA's clock a little ahead of ours must not make its fresh list look issued in the future.
const CLOCK_SKEW_MS = 5 * 60_000;

const mmddyyyy = (date: Date) =>
  `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')}/${date.getUTCFullYear()}`;

const fingerprint = (der: ArrayBuffer | Uint8Array) => createHash('sha256').update(new Uint8Array(der)).digest('hex');

function readCertificate(der: Uint8Array, who: string): x509.X509Certificate {
  try {
    return new x509.X509Certificate(der);
  } catch {
    throw new Error(`${who} could not be read as an X.509 certificate.`);
  }
}

/** The http(s) URLs of the certificate's CRL distribution points; ldap: and other schemes are not followed. */
function distributionPoints(certificate: x509.X509Certificate): string[] {
  const extension = certificate.getExtension(x509.CRLDistributionPointsExtension);
  const urls = (extension?.distributionPoints ?? []).flatMap((point) =>
    (point.distributionPoint?.fullName ?? []).flatMap((name) => (name.uniformResourceIdentifier ? [name.uniformResourceIdentifier] : [])),
  );
  return [...new Set(urls.filter((url) => /^https?:\/\//i.test(url)))];
}

// What was fetched, DER or PEM, as a parsed list; the error says what was wrong in words.
function readCrl(content: Uint8Array, url: string): x509.X509Crl {
  const text = Buffer.from(content).toString('latin1');
  const pem = /-----BEGIN X509 CRL-----([\s\S]*?)-----END X509 CRL-----/.exec(text);
  try {
    return new x509.X509Crl(pem ? Buffer.from(pem[1]!.replace(/\s/g, ''), 'base64') : content);
  } catch {
    throw new Error(`The revocation list at ${url} could not be read.`);
  }
}

interface CachedList {
  crl: x509.X509Crl;
  expiresAt: number;
  // Issuers (SHA-256 of their certificate) this list's signature was checked against.
  verifiedFor: Set<string>;
}

async function usableFor(list: CachedList, issuer: x509.X509Certificate, url: string, now: Date): Promise<void> {
  const { crl } = list;
  const issuerId = fingerprint(issuer.rawData);
  if (!list.verifiedFor.has(issuerId)) {
    const keyUsage = issuer.getExtension(x509.KeyUsagesExtension);
    const signedByIssuer =
      Buffer.from(crl.issuerName.toArrayBuffer()).equals(Buffer.from(issuer.subjectName.toArrayBuffer())) &&
      (!keyUsage || (keyUsage.usages & x509.KeyUsageFlags.cRLSign) !== 0) &&
      (await crl.verify({ publicKey: issuer }, webcrypto).catch(() => false));
    if (!signedByIssuer) throw new Error(`The revocation list at ${url} is not signed by the certificate's issuer.`);
    list.verifiedFor.add(issuerId);
  }
  if (crl.thisUpdate.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw new Error(`The revocation list at ${url} is dated in the future (${mmddyyyy(crl.thisUpdate)}).`);
  }
  if (crl.nextUpdate && crl.nextUpdate.getTime() < now.getTime()) {
    throw new Error(`The revocation list at ${url} is out of date (its next update was due ${mmddyyyy(crl.nextUpdate)}).`);
  }
}

export function createRevocationChecker(opts: RevocationCheckerOptions = {}): RevocationChecker {
  const limits = { timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES };
  const fetchList = opts.fetch ?? ((url: string) => httpGet(url, limits));
  const now = opts.now ?? (() => new Date());
  const cache = new Map<string, CachedList>();
  // Checks of many certificates at once share one download per URL.
  const downloads = new Map<string, Promise<CachedList>>();

  async function download(url: string): Promise<CachedList> {
    let content: Uint8Array;
    try {
      content = await fetchList(url);
    } catch (error) {
      throw new Error(`The revocation list at ${url} could not be reached.`, { cause: error });
    }
    if (content.byteLength > limits.maxBytes) throw new Error(`The revocation list at ${url} is larger than allowed.`);
    const crl = readCrl(content, url);
    const fetchedAt = now().getTime();
    const expiresAt = Math.min(crl.nextUpdate?.getTime() ?? Infinity, fetchedAt + MAX_CACHE_MS);
    return { crl, expiresAt, verifiedFor: new Set() };
  }

  async function listAt(url: string): Promise<CachedList> {
    const cached = cache.get(url);
    if (cached && cached.expiresAt > now().getTime()) return cached;
    cache.delete(url);
    let pending = downloads.get(url);
    if (!pending) {
      pending = download(url).finally(() => downloads.delete(url));
      downloads.set(url, pending);
    }
    return pending;
  }

  function remember(url: string, list: CachedList) {
    if (cache.has(url)) return;
    cache.set(url, list);
    if (cache.size > MAX_CACHED_LISTS) cache.delete(cache.keys().next().value!);
  }

  return {
    async check(certificateDer, issuerDer) {
      const certificate = readCertificate(certificateDer, 'The certificate');
      const issuer = readCertificate(issuerDer, 'The issuing certificate');
      if (!Buffer.from(certificate.issuerName.toArrayBuffer()).equals(Buffer.from(issuer.subjectName.toArrayBuffer()))) {
        throw new Error('The issuing certificate given is not the one named as the issuer of the certificate.');
      }
      const urls = distributionPoints(certificate);
      if (urls.length === 0) return { revoked: false, checked: false };
      const problems: string[] = [];
      // Every distribution point carries the whole list: the first usable one answers.
      for (const url of urls) {
        try {
          const list = await listAt(url);
          await usableFor(list, issuer, url, now());
          if (!cache.has(url)) opts.onListOutcome?.(url, null);
          remember(url, list);
          const entry = list.crl.findRevoked(certificate);
          if (entry) {
            return { revoked: true, reason: `The certificate was revoked on ${mmddyyyy(entry.revocationDate)}.` };
          }
          return { revoked: false, checked: true };
        } catch (error) {
          problems.push((error as Error).message);
          opts.onListOutcome?.(url, (error as Error).message);
        }
      }
      return { revoked: false, checked: false, note: problems.join(' ') };
    },
  };
}
