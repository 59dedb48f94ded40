import dnsPacket from 'dns-packet';
import dgram from 'node:dgram';
import net from 'node:net';

// A small authoritative DNS server, UDP and TCP on one port: the tests' DNS, and the responder a development
// installation publishes its CERT records with (transports/direct/dns-publisher.ts). Like a real server it truncates
// a UDP answer larger than the client's EDNS0 size (512 bytes without EDNS0), so the client asks again over TCP.

export interface DnsQuestion {
  transport: 'udp' | 'tcp';
  name: string;
  type: string;
}

export interface DnsAnswer {
  rcode: 'NOERROR' | 'SERVFAIL' | 'NXDOMAIN' | 'REFUSED';
  answers: dnsPacket.Answer[];
}

export interface DnsServerOptions {
  host?: string;
  // 0: any free port (UDP first, then TCP on the same number).
  port?: number;
  // null: no answer at all (a silent server).
  answer: (question: DnsQuestion) => Promise<DnsAnswer | null> | DnsAnswer | null;
  truncateUdp?: () => boolean;
}

export interface DnsServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

const RCODES = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;
const CLASSIC_UDP_LIMIT = 512;
// A TCP query larger than this is not a DNS query.
const MAX_TCP_MESSAGE = 65_535;

function listen(udp: dgram.Socket, tcp: net.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, host, () => {
      const bound = udp.address().port;
      tcp.once('error', reject);
      tcp.listen(bound, host, () => resolve(bound));
    });
  });
}

export async function startDnsServer(opts: DnsServerOptions): Promise<DnsServer> {
  const host = opts.host ?? '127.0.0.1';

  async function reply(message: Buffer, transport: 'udp' | 'tcp'): Promise<Buffer | null> {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return null;
    }
    const question = query.questions?.[0];
    if (!question) return null;
    let result: DnsAnswer | null;
    try {
      result = await opts.answer({ transport, name: question.name, type: question.type });
    } catch {
      result = { rcode: 'SERVFAIL', answers: [] }; // the database was unreachable, say: the client tries its next server
    }
    if (!result) return null;
    const response: dnsPacket.Packet = {
      type: 'response',
      id: query.id ?? 0,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | RCODES[result.rcode],
      questions: [question],
      answers: result.answers,
    };
    const encoded = dnsPacket.encode(response);
    if (transport === 'tcp') return encoded;
    const opt = query.additionals?.find((record) => record.type === 'OPT');
    const limit = opt && 'udpPayloadSize' in opt ? opt.udpPayloadSize : CLASSIC_UDP_LIMIT;
    if (!opts.truncateUdp?.() && encoded.length <= limit) return encoded;
    return dnsPacket.encode({ ...response, flags: (response.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE, answers: [] });
  }

  // Binding TCP on the port UDP was given can collide with another process's TCP port: try a few times.
  for (let attempt = 1; ; attempt += 1) {
    const udp = dgram.createSocket(net.isIPv6(host) ? 'udp6' : 'udp4');
    const connections = new Set<net.Socket>();
    const tcp = net.createServer((socket) => {
      connections.add(socket);
      socket.on('close', () => connections.delete(socket));
      socket.on('error', () => socket.destroy());
      let received = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (received.length > MAX_TCP_MESSAGE + 2) return socket.destroy();
        // Each message is preceded by its length in two bytes (RFC 1035 §4.2.2).
        while (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
          const message = received.subarray(2, 2 + received.readUInt16BE(0));
          received = received.subarray(2 + message.length);
          void reply(message, 'tcp').then((answer) => {
            if (!answer || socket.destroyed) return;
            const length = Buffer.alloc(2);
            length.writeUInt16BE(answer.length);
            socket.write(Buffer.concat([length, answer]));
          });
        }
      });
    });
    try {
      const port = await listen(udp, tcp, host, opts.port ?? 0);
      udp.on('message', (message, from) => {
        void reply(message, 'udp').then((answer) => {
          if (answer) udp.send(answer, from.port, from.address);
        });
      });
      udp.on('error', () => undefined);
      return {
        host,
        port,
        close: async () => {
          for (const socket of connections) socket.destroy();
          await Promise.all([new Promise<void>((resolve) => udp.close(() => resolve())), new Promise<void>((resolve) => tcp.close(() => resolve()))]);
        },
      };
    } catch (error) {
      udp.close();
      tcp.close();
      if (opts.port || attempt >= 10 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}
