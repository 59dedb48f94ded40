import 'reflect-metadata'; // @peculiar/x509 throws at load time without it
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import net from 'node:net';
import * as pkijs from 'pkijs';
import { addressScope } from '@clinicrelay/contracts/ip-addresses.ts';
import { queryDns, type DnsOptions } from './dns.ts';
import { httpGetPinned, type PinnedAddress } from './http-get.ts';
import { chainGap, issuedBy } from './trust.ts';

// Completing a chain from Authority Information Access (RFC 5280 §4.2.2.1; ONC DCDT D18): when the certificates a
// message or a directory gave do not reach a trust anchor, the issuer of the last one reached is fetched from its
// caIssuers URL, over http only (the URL is a stranger's), limited in time and size, cached, and never from a private
// or loopback address unless the installation allows it (DIRECT_AIA_ALLOW_PRIVATE). What is fetched is only a
// candidate: trust is still the chain to an anchor (trust.ts verifyChain).

export interface IssuerFetcherOptions {
  /** The servers every Direct lookup uses (DIRECT_DNS_SERVERS). */
  dns: DnsOptions;
  allowPrivate: boolean;
  now?: () => Date;
  timeoutMs?: number;
  maxBytes?: number;
}

export interface IssuerFetcher {
  /** The certificates at a caIssuers URL (DER, a PEM file, or a PKCS#7 certs-only), or an error in words. */
  certificatesAt(url: string): Promise<Buffer[]>;
}

const DEFAULT_TIMEOUT_MS = 5_000;
// A certificate, or a certs-only bundle of a few.
const DEFAULT_MAX_BYTES = 256 * 1024;
const CACHE_MS = 86_400_000;
// A failing URL is not asked again for each message that names it.
const FAILURE_CACHE_MS = 5 * 60_000;
const MAX_CACHED_URLS = 256;
// Issuers fetched for one chain, and URLs tried per certificate: a stranger's chain must not make us fetch without end.
const MAX_FETCHES_PER_CHAIN = 4;
const MAX_URLS_PER_CERTIFICATE = 3;

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

function parsed(der: Uint8Array): Buffer | null {
  try {
    return Buffer.from(new x509.X509Certificate(der).rawData);
  } catch {
    return null;
  }
}

// RFC 5280 §4.2.2.1: a DER certificate or a certs-only CMS message; PEM too, as some CAs serve it.
export function certificatesIn(content: Uint8Array): Buffer[] {
  const text = Buffer.from(content).toString('latin1');
  if (text.includes('-----BEGIN CERTIFICATE-----')) {
    const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
    return blocks.map((block) => parsed(Buffer.from(block.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, ''), 'base64'))).filter((der) => der !== null);
  }
  const single = parsed(content);
  if (single) return [single];
  try {
    const info = pkijs.ContentInfo.fromBER(content);
    const signedData = new pkijs.SignedData({ schema: info.content as asn1js.Sequence });
    return (signedData.certificates ?? []).flatMap((c) => (c instanceof pkijs.Certificate ? [Buffer.from(c.toSchema().toBER())] : []));
  } catch {
    return [];
  }
}

/** The http caIssuers URLs of a certificate's Authority Information Access extension (ldap: and others are not followed). */
export function caIssuersUrls(certificate: x509.X509Certificate): string[] {
  const names = certificate.getExtension(x509.AuthorityInfoAccessExtension)?.caIssuers ?? [];
  const urls = names.flatMap((name) => (name.type === 'url' ? [name.value] : []));
  return [...new Set(urls.filter((url) => /^http:\/\//i.test(url)))].slice(0, MAX_URLS_PER_CERTIFICATE);
}

export function createIssuerFetcher(opts: IssuerFetcherOptions): IssuerFetcher {
  const limits = { timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES };
  const now = () => (opts.now?.() ?? new Date()).getTime();
  const cache = new Map<string, { result: Buffer[] | Error; expiresAt: number }>();
  const pending = new Map<string, Promise<Buffer[]>>();

  // The address to connect to: every address of the host must be public, unless private ones are allowed.
  async function addressOf(host: string): Promise<PinnedAddress> {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    const refuse = (address: string) => new Error(`${host}${address === host ? '' : ` (${address})`} is a private or loopback address, from which certificates are not fetched.`);
    if (net.isIP(bare)) {
      if (addressScope(bare) !== 'public' && !opts.allowPrivate) throw refuse(bare);
      return { address: bare, family: net.isIPv6(bare) ? 6 : 4 };
    }
    if (!opts.allowPrivate && (bare === 'localhost' || bare.endsWith('.localhost'))) throw refuse(bare);
    const v4 = (await queryDns(bare, 'A', { ...opts.dns, timeoutMs: limits.timeoutMs })).flatMap((a) => (a.type === 'A' ? [a.data] : []));
    const all = v4.length > 0 ? v4 : (await queryDns(bare, 'AAAA', { ...opts.dns, timeoutMs: limits.timeoutMs })).flatMap((a) => (a.type === 'AAAA' ? [a.data] : []));
    if (all.length === 0) throw new Error(`${host} has no address in DNS.`);
    const inside = all.find((address) => addressScope(address) !== 'public');
    if (inside && !opts.allowPrivate) throw refuse(inside);
    return { address: all[0]!, family: net.isIPv6(all[0]!) ? 6 : 4 };
  }

  async function download(url: string): Promise<Buffer[]> {
    const target = new URL(url);
    if (target.protocol !== 'http:') throw new Error(`${url} is not an http address.`);
    const content = await httpGetPinned(url, await addressOf(target.hostname), limits);
    const found = certificatesIn(content);
    if (found.length === 0) throw new Error(`${url} holds no readable certificate.`);
    return found;
  }

  function remember(url: string, result: Buffer[] | Error) {
    cache.delete(url);
    cache.set(url, { result, expiresAt: now() + (result instanceof Error ? FAILURE_CACHE_MS : CACHE_MS) });
    if (cache.size > MAX_CACHED_URLS) cache.delete(cache.keys().next().value!);
  }

  return {
    async certificatesAt(url) {
      const cached = cache.get(url);
      if (cached && cached.expiresAt > now()) {
        if (cached.result instanceof Error) throw cached.result;
        return cached.result;
      }
      let fetching = pending.get(url);
      if (!fetching) {
        fetching = download(url)
          .then(
            (found) => (remember(url, found), found),
            (error: unknown) => {
              const failure = new Error(`The issuing certificate could not be fetched: ${reason(error)}`);
              remember(url, failure);
              throw failure;
            },
          )
          .finally(() => pending.delete(url));
        pending.set(url, fetching);
      }
      return fetching;
    },
  };
}

const readAll = (ders: Uint8Array[]) =>
  ders.flatMap((der) => {
    try {
      return [new x509.X509Certificate(der)];
    } catch {
      return [];
    }
  });

/**
 * The intermediates to validate the leaf with: those given, and, when they do not reach an anchor, the issuers fetched
 * from caIssuers URLs one level at a time (only a certificate that did sign the one below is kept). `problems` says why
 * a fetch gave nothing, for the refusal's reason.
 */
export async function completeChain(fetcher: IssuerFetcher, leafDer: Uint8Array, anchorsDer: Uint8Array[], intermediatesDer: Uint8Array[]): Promise<{ intermediates: Buffer[]; problems: string[] }> {
  const intermediates = intermediatesDer.map((der) => Buffer.from(der));
  const problems: string[] = [];
  let leaf: x509.X509Certificate;
  try {
    leaf = new x509.X509Certificate(leafDer);
  } catch {
    return { intermediates, problems };
  }
  const anchors = readAll(anchorsDer);
  const pool = readAll(intermediates);
  for (let fetches = 0; fetches < MAX_FETCHES_PER_CHAIN; fetches++) {
    const gap = chainGap(leaf, anchors, pool);
    if (!gap) break;
    let issuer: x509.X509Certificate | undefined;
    for (const url of caIssuersUrls(gap)) {
      try {
        issuer = readAll(await fetcher.certificatesAt(url)).find((candidate) => issuedBy(gap, candidate));
        if (issuer) break;
        problems.push(`${url} holds no certificate that issued "${gap.subjectName.getField('CN')[0] ?? gap.subject}".`);
      } catch (error) {
        problems.push(reason(error));
      }
    }
    // An anchor reached through what was fetched ends the walk at the next chainGap.
    if (!issuer || pool.some((known) => known.equal(issuer))) break;
    pool.push(issuer);
    intermediates.push(Buffer.from(issuer.rawData));
  }
  return { intermediates, problems };
}
