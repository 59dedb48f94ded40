import { and, desc, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { certificates } from '../../db/schema/certificates.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { startDnsServer, type DnsAnswer, type DnsServer } from '../../platform/direct/dns-server.ts';
import { domainOf } from './direct-deps.ts';

const PKIX = 1;
const TTL_SECONDS = 300;

// A CERT record (RFC 4398) holding an X.509 certificate: type PKIX, key tag and algorithm 0.
const certRecord = (name: string, der: Uint8Array) => {
  const header = Buffer.alloc(5);
  header.writeUInt16BE(PKIX, 0);
  return { type: 'CERT' as const, name, ttl: TTL_SECONDS, class: 'IN' as const, data: Buffer.concat([header, Buffer.from(der)]) };
};

/**
 * The CERT records a HISP publishes for its Direct addresses (Applicability Statement §5.1): an address-bound
 * certificate at `local.domain`, a domain-bound one at `domain`. Only enabled, currently valid certificates that can
 * encrypt are published, the newest one per name. Names outside the Direct domains hosted here are REFUSED, so a resolver asks its next server.
 */
export async function publishedRecords(db: Database, name: string, type: string, now: Date): Promise<DnsAnswer> {
  const wanted = name.toLowerCase().replace(/\.$/, '');
  const hosted = await db.selectDistinct({ address: documentSources.fullAddress }).from(documentSources).where(eq(documentSources.type, 'Direct'));
  const domains = new Set(hosted.map((h) => domainOf(h.address)));
  const isHosted = [...domains].some((domain) => wanted === domain || wanted.endsWith(`.${domain}`));
  if (!isHosted) return { rcode: 'REFUSED', answers: [] };
  if (type !== 'CERT') return { rcode: 'NOERROR', answers: [] };
  const rows = await db
    .select({ der: certificates.certificateDer, emails: certificates.sanEmails, dnsNames: certificates.sanDnsNames })
    .from(certificates)
    .where(and(eq(certificates.enabled, true), inArray(certificates.usage, ['encryption', 'both']), lt(certificates.notBefore, now), gt(certificates.notAfter, now)))
    .orderBy(desc(certificates.notBefore), desc(certificates.notAfter));
  // Issue 28 §1: during a rollover only the newest is published; the previous one still decrypts (envelope.ts).
  const newest = rows.find((row) => row.emails.some((email) => email.replace('@', '.') === wanted) || row.dnsNames.includes(wanted));
  return { rcode: 'NOERROR', answers: newest ? [certRecord(wanted, newest.der)] : [] };
}

/** DIRECT_DNS_PUBLISH_PORT: this installation's CERT records on a loopback DNS responder (development and demos). */
export function startDnsPublisher(opts: { db: Database; now: () => Date; host: string; port: number }): Promise<DnsServer> {
  return startDnsServer({ host: opts.host, port: opts.port, answer: (q) => publishedRecords(opts.db, q.name, q.type, opts.now()) });
}
