import 'reflect-metadata'; // @peculiar/x509 throws at load time without it
import * as x509 from '@peculiar/x509';
import { Client, EqualityFilter } from 'ldapts';
import net from 'node:net';
import { domainToASCII } from 'node:url';
import { queryDns, type DnsOptions } from './dns.ts';
import { httpGet } from './http-get.ts';

// Finding a Direct recipient's certificates (Applicability Statement for Secure Health Transport §5,
// Certificate Discovery for Direct): DNS CERT records at the address, then at its domain; then LDAP
// servers named by the domain's _ldap._tcp SRV records, searched for the address, then for its domain (as the
// Direct reference implementation's certificate stores do; DCDT D4). Every name, the SRV targets included, is
// resolved with the configured DNS servers, never the operating system's resolver. Whether a certificate is trusted and belongs to
// the address is the caller's judgement: here only certificates that parse are kept.

export type DiscoveryAttempt = { method: 'dns' | 'ldap'; query: string; outcome: string };

export interface DiscoveryOptions extends DnsOptions {
  ldapTimeoutMs?: number;
  /** Fetches what a CERT record of type IPKIX (or URI) points at; default: HTTP(S) GET, 10 s, at most 1 MB. */
  fetchUri?: (url: string) => Promise<Uint8Array>;
}

export interface DiscoveryResult {
  source: 'dns' | 'ldap' | null;
  /** DER, every certificate found at the first place that had any. */
  certificates: Buffer[];
  attempts: DiscoveryAttempt[];
}

const DEFAULT_LDAP_TIMEOUT_MS = 10_000;
const FETCH_LIMITS = { timeoutMs: 10_000, maxBytes: 1_048_576 };
// CERT types (RFC 4398 §2.1): the certificate inline, or a URL of it. The Direct reference implementation's
// DNS server publishes URLs with the private type URI (253), so that one is read as a URL too.
const CERT_PKIX = 1;
const CERT_URL_TYPES = new Set([4, 253]);
// A stranger's DNS or directory must not make us fetch or parse without end.
const MAX_URLS_PER_NAME = 10;
const MAX_LDAP_ENTRIES = 50;
const CERTIFICATE_ATTRIBUTES = ['userCertificate;binary', 'userCertificate'];

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The certificate as canonical DER when it parses, else null. */
function parsedCertificate(der: Uint8Array): Buffer | null {
  try {
    return Buffer.from(new x509.X509Certificate(der).rawData);
  } catch {
    return null;
  }
}

// What a URL serves: one DER certificate, or PEM with one or more.
function certificatesIn(content: Uint8Array): Buffer[] {
  const text = Buffer.from(content).toString('latin1');
  if (!text.includes('-----BEGIN CERTIFICATE-----')) return [parsedCertificate(content)].filter((der) => der !== null);
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks
    .map((block) => parsedCertificate(Buffer.from(block.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, ''), 'base64')))
    .filter((der) => der !== null);
}

function splitAddress(address: string): { localPart: string; domain: string } {
  const at = address.lastIndexOf('@');
  const localPart = address.slice(0, at);
  const domain = at > 0 ? domainToASCII(address.slice(at + 1).toLowerCase()) : '';
  if (at <= 0 || !domain || /\s/.test(localPart)) throw new Error(`"${address}" is not a Direct address.`);
  return { localPart, domain };
}

async function certificatesInDns(name: string, opts: DiscoveryOptions): Promise<{ certificates: Buffer[]; outcome: string }> {
  const records = (await queryDns(name, 'CERT', opts)).flatMap((answer) => (answer.type === 'CERT' ? [answer.data] : []));
  if (records.length === 0) return { certificates: [], outcome: 'no CERT record' };
  const fetchUri = opts.fetchUri ?? ((url: string) => httpGet(url, FETCH_LIMITS));
  const certificates: Buffer[] = [];
  const problems: string[] = [];
  let urls = 0;
  // RDATA: certificate type (2 bytes), key tag (2), algorithm (1), then the certificate or URL.
  for (const rdata of records) {
    if (rdata.length < 5) continue;
    const type = rdata.readUInt16BE(0);
    const payload = rdata.subarray(5);
    if (type === CERT_PKIX) {
      const der = parsedCertificate(payload);
      if (der) certificates.push(der);
      else problems.push('a CERT record holds no readable certificate');
    } else if (CERT_URL_TYPES.has(type) && (urls += 1) <= MAX_URLS_PER_NAME) {
      const url = payload.toString('utf8').trim();
      try {
        const found = certificatesIn(await fetchUri(url));
        if (found.length === 0) problems.push(`${url} holds no readable certificate`);
        certificates.push(...found);
      } catch (error) {
        problems.push(`${url} could not be fetched: ${reason(error)}`);
      }
    }
  }
  const counted = certificates.length > 0 ? plural(certificates.length, 'certificate') : `${plural(records.length, 'CERT record')}, no certificate`;
  return { certificates, outcome: [counted, ...problems].join('; ') };
}

// RFC 2782: lowest priority first; within one priority, a random order weighted by weight.
function srvOrder(records: { target: string; port: number; priority: number; weight: number }[]) {
  const ordered: typeof records = [];
  const priorities = [...new Set(records.map((record) => record.priority))].sort((a, b) => a - b);
  for (const priority of priorities) {
    const pool = records.filter((record) => record.priority === priority);
    while (pool.length > 0) {
      const total = pool.reduce((sum, record) => sum + record.weight, 0);
      let pick = Math.random() * total;
      const index = Math.max(0, pool.findIndex((record) => (pick -= record.weight) < 0));
      ordered.push(...pool.splice(index, 1));
    }
  }
  return ordered;
}

function certificatesOfEntry(entry: Record<string, unknown>): Buffer[] {
  const wanted = new Set(CERTIFICATE_ATTRIBUTES.map((name) => name.toLowerCase()));
  return Object.entries(entry).flatMap(([attribute, value]) => {
    if (!wanted.has(attribute.toLowerCase())) return [];
    const values = (Array.isArray(value) ? value : [value]) as (Buffer | string)[];
    // A value the server sent under another letter case arrives as a string; it was strict UTF-8, so it converts back exactly.
    return values.map((v) => parsedCertificate(typeof v === 'string' ? Buffer.from(v, 'utf8') : v)).filter((der) => der !== null);
  });
}

// Searches every naming context for entries whose mail is each value in turn (the address, then its domain), stopping
// at the first value that finds certificates; one attempt per value searched.
async function certificatesInLdap(url: string, shownUrl: string, mails: string[], timeoutMs: number, attempts: DiscoveryAttempt[]): Promise<Buffer[]> {
  const client = new Client({ url, timeout: timeoutMs, connectTimeout: timeoutMs });
  try {
    const rootDse = await client.search('', { scope: 'base', filter: '(objectClass=*)', attributes: ['namingContexts'] });
    const contexts = rootDse.searchEntries.flatMap((entry) => {
      const value = Object.entries(entry).find(([name]) => name.toLowerCase() === 'namingcontexts')?.[1] ?? [];
      return (Array.isArray(value) ? value : [value]).map(String).filter((dn) => dn !== '');
    });
    if (contexts.length === 0) throw new Error('the directory names no naming context to search');
    for (const [index, mail] of mails.entries()) {
      const certificates: Buffer[] = [];
      for (const base of contexts) {
        const { searchEntries } = await client.search(base, {
          scope: 'sub',
          filter: new EqualityFilter({ attribute: 'mail', value: mail }),
          attributes: CERTIFICATE_ATTRIBUTES,
          explicitBufferAttributes: CERTIFICATE_ATTRIBUTES,
          sizeLimit: MAX_LDAP_ENTRIES,
          timeLimit: Math.ceil(timeoutMs / 1000),
        });
        for (const entry of searchEntries) certificates.push(...certificatesOfEntry(entry));
      }
      const none = index === 0 ? 'no certificate for the address' : 'no certificate for the domain';
      attempts.push({ method: 'ldap', query: `${shownUrl} (mail=${mail})`, outcome: certificates.length > 0 ? plural(certificates.length, 'certificate') : none });
      if (certificates.length > 0) return certificates;
    }
    return [];
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

// The addresses of an SRV target, from the configured DNS servers (A, then AAAA); an IP literal is itself.
async function addressesOf(target: string, opts: DiscoveryOptions): Promise<string[]> {
  if (net.isIP(target)) return [target];
  const v4 = (await queryDns(target, 'A', opts)).flatMap((answer) => (answer.type === 'A' ? [answer.data] : []));
  if (v4.length > 0) return v4;
  const v6 = (await queryDns(target, 'AAAA', opts)).flatMap((answer) => (answer.type === 'AAAA' ? [answer.data] : []));
  if (v6.length === 0) throw new Error(`${target} has no address in DNS`);
  return v6;
}

async function discoverInLdap(address: string, domain: string, opts: DiscoveryOptions, attempts: DiscoveryAttempt[]): Promise<Buffer[]> {
  const srvName = `_ldap._tcp.${domain}`;
  let records;
  try {
    records = (await queryDns(srvName, 'SRV', opts)).flatMap((answer) =>
      answer.type === 'SRV' ? [{ target: answer.data.target.replace(/\.$/, ''), port: answer.data.port, priority: answer.data.priority ?? 0, weight: answer.data.weight ?? 0 }] : [],
    );
  } catch (error) {
    attempts.push({ method: 'ldap', query: srvName, outcome: `DNS lookup failed: ${reason(error)}` });
    return [];
  }
  // A target of "." says the domain offers no such service (RFC 2782).
  const servers = srvOrder(records.filter((record) => record.target !== ''));
  if (servers.length === 0) {
    attempts.push({ method: 'ldap', query: srvName, outcome: 'no SRV record' });
    return [];
  }
  const timeoutMs = opts.ldapTimeoutMs ?? DEFAULT_LDAP_TIMEOUT_MS;
  for (const server of servers) {
    const shownUrl = `ldap://${server.target}:${server.port}`;
    const query = `${shownUrl} (mail=${address})`;
    let hosts: string[];
    try {
      hosts = await addressesOf(server.target, opts);
    } catch (error) {
      attempts.push({ method: 'ldap', query, outcome: `server unreachable: ${reason(error)}` });
      continue;
    }
    for (const host of hosts) {
      const url = `ldap://${net.isIPv6(host) ? `[${host}]` : host}:${server.port}`;
      try {
        // The first server that answers speaks for the directory; the others are its replicas.
        return await certificatesInLdap(url, shownUrl, [address, domain], timeoutMs, attempts);
      } catch (error) {
        attempts.push({ method: 'ldap', query, outcome: `server unreachable: ${reason(error)}` });
      }
    }
  }
  return [];
}

/**
 * The certificates published for a Direct address: DNS CERT at `local.domain` (the '@' read as a dot),
 * then at `domain`, then LDAP through `_ldap._tcp.<domain>` for the address, then the domain; every place tried is in `attempts`, in plain
 * words, so "no certificate found" can say where it looked.
 */
export async function discoverCertificates(address: string, opts: DiscoveryOptions = {}): Promise<DiscoveryResult> {
  const { localPart, domain } = splitAddress(address.trim());
  const attempts: DiscoveryAttempt[] = [];
  for (const name of [`${localPart}.${domain}`, domain]) {
    try {
      const { certificates, outcome } = await certificatesInDns(name, opts);
      attempts.push({ method: 'dns', query: name, outcome });
      if (certificates.length > 0) return { source: 'dns', certificates, attempts };
    } catch (error) {
      attempts.push({ method: 'dns', query: name, outcome: `DNS lookup failed: ${reason(error)}` });
    }
  }
  const certificates = await discoverInLdap(`${localPart}@${domain}`, domain, opts, attempts);
  return { source: certificates.length > 0 ? 'ldap' : null, certificates, attempts };
}
