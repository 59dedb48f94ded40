import dnsPacket from 'dns-packet';
import dgram from 'node:dgram';
import net from 'node:net';

// An authoritative DNS server on 127.0.0.1 for tests of Direct certificate discovery and MX lookup: UDP and
// TCP on one port number, answering from a record table the test sets. Like a real server it truncates a
// UDP answer larger than the client's EDNS0 size (512 bytes without EDNS0), and it can be told to truncate
// every UDP answer or to stay silent.

export interface DnsTestQuery {
  transport: 'udp' | 'tcp';
  name: string;
  type: string;
}

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

const NXDOMAIN = 3;
const CLASSIC_UDP_LIMIT = 512;

function listen(udp: dgram.Socket, tcp: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(0, '127.0.0.1', () => {
      const { port } = udp.address();
      tcp.once('error', reject);
      tcp.listen(port, '127.0.0.1', () => resolve(port));
    });
  });
}

export async function startDnsTestServer(records: dnsPacket.Answer[]): Promise<DnsTestServer> {
  let table = records;
  let truncateUdp = false;
  let silent = false;
  const queries: DnsTestQuery[] = [];

  function answer(message: Buffer, transport: 'udp' | 'tcp'): Buffer | null {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return null; // not a DNS message: a real server drops it too
    }
    const question = query.questions?.[0];
    if (!question) return null;
    queries.push({ transport, name: question.name, type: question.type });
    if (silent) return null;
    const named = table.filter((record) => record.name.toLowerCase() === question.name.toLowerCase());
    const reply: dnsPacket.Packet = {
      type: 'response',
      id: query.id ?? 0,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (named.length === 0 ? NXDOMAIN : 0),
      questions: [question],
      answers: named.filter((record) => record.type === question.type),
    };
    const encoded = dnsPacket.encode(reply);
    if (transport === 'tcp') return encoded;
    const opt = query.additionals?.find((record) => record.type === 'OPT');
    const limit = opt && 'udpPayloadSize' in opt ? opt.udpPayloadSize : CLASSIC_UDP_LIMIT;
    if (!truncateUdp && encoded.length <= limit) return encoded;
    return dnsPacket.encode({ ...reply, flags: (reply.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE, answers: [] });
  }

  // Binding TCP on the port UDP was given can collide with another process's TCP port: try a few times.
  for (let attempt = 1; ; attempt += 1) {
    const udp = dgram.createSocket('udp4');
    const connections = new Set<net.Socket>();
    const tcp = net.createServer((socket) => {
      connections.add(socket);
      socket.on('close', () => connections.delete(socket));
      socket.on('error', () => socket.destroy());
      let received = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        while (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
          const message = received.subarray(2, 2 + received.readUInt16BE(0));
          received = received.subarray(2 + message.length);
          const reply = answer(message, 'tcp');
          if (!reply) continue;
          const length = Buffer.alloc(2);
          length.writeUInt16BE(reply.length);
          socket.write(Buffer.concat([length, reply]));
        }
      });
    });
    try {
      const port = await listen(udp, tcp);
      udp.on('message', (message, from) => {
        const reply = answer(message, 'udp');
        if (reply) udp.send(reply, from.port, from.address);
      });
      return {
        address: `127.0.0.1:${port}`,
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
        close: async () => {
          for (const socket of connections) socket.destroy();
          await Promise.all([
            new Promise<void>((resolve) => udp.close(() => resolve())),
            new Promise<void>((resolve) => tcp.close(() => resolve())),
          ]);
        },
      };
    } catch (error) {
      tcp.close();
      // A socket whose bind failed is already closed, and closing it again throws.
      udp.close(() => undefined);
      if (attempt >= 10 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}
