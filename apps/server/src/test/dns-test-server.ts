import { Resolver } from 'node:dns/promises';
import type dnsPacket from 'dns-packet';
import { startDnsServer, type DnsQuestion } from '../platform/direct/dns-server.ts';

// An authoritative DNS server on 127.0.0.1 for tests of Direct certificate discovery and MX lookup, answering from a
// record table the test sets; it can be told to truncate every UDP answer or to stay silent.

export type DnsTestQuery = DnsQuestion;

export interface DnsTestServer {
  /** '127.0.0.1:PORT', as DnsOptions.servers takes it. */
  address: string;
  setRecords(records: dnsPacket.Answer[]): void;
  /** Every UDP answer comes back truncated (TC bit, no records), so the client must ask again over TCP. */
  setTruncateUdp(on: boolean): void;
  /** Queries are received and never answered. */
  setSilent(on: boolean): void;
  /** The queries received so far, oldest first. */
  queries: DnsTestQuery[];
  close(): Promise<void>;
}

const CERT_TYPES = { PKIX: 1, IPKIX: 4, URI: 253 } as const;

/** A CERT record (RFC 4398): an X.509 certificate inline (PKIX) or the URL of one (IPKIX, or URI as the Direct reference DNS server writes it). */
export function certRecord(name: string, certType: keyof typeof CERT_TYPES, payload: Uint8Array | string): dnsPacket.Answer {
  const header = Buffer.alloc(5); // type(2) key tag(2) algorithm(1): key tag and algorithm unused for X.509
  header.writeUInt16BE(CERT_TYPES[certType], 0);
  return { type: 'CERT', name, ttl: 300, class: 'IN', data: Buffer.concat([header, Buffer.from(payload)]) };
}

export async function startDnsTestServer(records: dnsPacket.Answer[]): Promise<DnsTestServer> {
  let table = records;
  let truncateUdp = false;
  let silent = false;
  const queries: DnsTestQuery[] = [];
  const server = await startDnsServer({
    truncateUdp: () => truncateUdp,
    answer(question) {
      queries.push(question);
      if (silent) return null;
      const named = table.filter((record) => record.name.toLowerCase() === question.name.toLowerCase());
      return { rcode: named.length === 0 ? 'NXDOMAIN' : 'NOERROR', answers: named.filter((record) => record.type === question.type) };
    },
  });
  return {
    address: `127.0.0.1:${server.port}`,
    setRecords: (next) => {
      table = next;
    },
    setTruncateUdp: (on) => {
      truncateUdp = on;
    },
    setSilent: (on) => {
      silent = on;
    },
    queries,
    close: () => server.close(),
  };
}

/** Looks A records up in `server` only (as a webhook's host is resolved), telling `onLookup` each name asked. */
export function resolve4With(server: DnsTestServer, onLookup: (host: string) => void = () => undefined) {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([server.address]);
  return async (host: string) => {
    onLookup(host);
    return (await resolver.resolve4(host)).map((address) => ({ address, family: 4 as const }));
  };
}
