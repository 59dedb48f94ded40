import dnsPacket from 'dns-packet';
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { getServers } from 'node:dns';
import net from 'node:net';

// A small DNS client for what Node's resolver refuses or hides: CERT records (type 37) for Direct
// certificate discovery, with MX and SRV beside them so every lookup goes to the same configurable
// servers (tests run one on loopback). UDP with EDNS0 first, TCP when the answer is truncated.

export interface DnsOptions {
  /** 'host:port', 'host' (port 53), '[v6]:port' or a bare IPv6 address; default: the system's resolvers. */
  servers?: string[];
  timeoutMs?: number;
}

export type DnsQueryType = 'CERT' | 'MX' | 'SRV' | 'A' | 'AAAA';

const DEFAULT_TIMEOUT_MS = 5_000;
const EDNS_UDP_PAYLOAD = 4096;
const TIMEOUT_MESSAGE = 'The DNS server did not answer in time.';

interface DnsServer {
  host: string;
  port: number;
}

function parseServer(text: string): DnsServer {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 53) };
  if (net.isIPv6(text)) return { host: text, port: 53 };
  const [host = '', port, ...rest] = text.split(':');
  const portNumber = Number(port ?? 53);
  if (!host || rest.length || !Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535) {
    throw new Error(`"${text}" is not a DNS server address (expected host or host:port).`);
  }
  return { host, port: portNumber };
}

// RFC 1035: at most 253 characters, labels of 1 to 63 letters; non-ASCII names must arrive as punycode.
function checkName(name: string): string {
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  const labels = trimmed.split('.');
  const readable =
    trimmed.length > 0 &&
    trimmed.length <= 253 &&
    /^[\x21-\x7e]+$/.test(trimmed) &&
    labels.every((label) => label.length > 0 && label.length <= 63);
  if (!readable) throw new Error(`"${name}" is not a name that can be looked up in DNS.`);
  return trimmed;
}

const sameName = (a: string, b: string) => a.replace(/\.$/, '').toLowerCase() === b.replace(/\.$/, '').toLowerCase();

function queryPacket(id: number, name: string, type: DnsQueryType): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type, name, class: 'IN' }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: EDNS_UDP_PAYLOAD, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }],
  });
}

type Decoded = dnsPacket.DecodedPacket & { rcode?: string };

// A reply belongs to our query only with our id and our question: anything else on the socket is ignored,
// so a stray or spoofed packet cannot stand in for the answer.
function decodeReply(message: Buffer, id: number, name: string, type: DnsQueryType): Decoded | null {
  if (message.length < 12 || message.readUInt16BE(0) !== id) return null;
  let reply: Decoded;
  try {
    reply = dnsPacket.decode(message);
  } catch {
    throw new Error('The DNS server sent an answer that could not be read.');
  }
  const question = reply.questions?.[0];
  if (!reply.flag_qr || !question || question.type !== type || !sameName(question.name, name)) return null;
  return reply;
}

// Runs a socket exchange that settles once: by its own answer or error, or by the timeout; then cleans up.
function withTimeout<T>(timeoutMs: number, run: (settle: { resolve: (value: T) => void; reject: (error: Error) => void }) => () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let cleanup = () => {};
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      cleanup();
      settle();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(TIMEOUT_MESSAGE))), timeoutMs);
    cleanup = run({
      resolve: (value) => finish(() => resolve(value)),
      reject: (error) => finish(() => reject(error)),
    });
  });
}

function overUdp(server: DnsServer, name: string, type: DnsQueryType, timeoutMs: number): Promise<Decoded> {
  const id = randomInt(0, 65536);
  const socket = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
  return withTimeout<Decoded>(timeoutMs, ({ resolve, reject }) => {
    socket.on('error', (error) => reject(new Error(`The DNS server ${server.host}:${server.port} could not be reached (${error.message}).`)));
    socket.on('message', (message, from) => {
      if (from.port !== server.port || (net.isIP(server.host) && from.address !== server.host)) return;
      try {
        const reply = decodeReply(message, id, name, type);
        if (reply) resolve(reply);
      } catch (error) {
        reject(error as Error);
      }
    });
    // A connected socket hears the ICMP "port unreachable" of a server that is down, so it fails at once, not at the timeout.
    socket.connect(server.port, server.host, () => {
      socket.send(queryPacket(id, name, type), (error) => {
        if (error) reject(new Error(`The DNS server ${server.host}:${server.port} could not be reached (${error.message}).`));
      });
    });
    return () => socket.close();
  });
}

function overTcp(server: DnsServer, name: string, type: DnsQueryType, timeoutMs: number): Promise<Decoded> {
  const id = randomInt(0, 65536);
  const query = queryPacket(id, name, type);
  const socket = net.connect({ host: server.host, port: server.port });
  return withTimeout<Decoded>(timeoutMs, ({ resolve, reject }) => {
    let received = Buffer.alloc(0);
    socket.on('error', (error) => reject(new Error(`The DNS server ${server.host}:${server.port} could not be reached (${error.message}).`)));
    socket.on('connect', () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(query.length);
      socket.write(Buffer.concat([length, query]));
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      // Each message is preceded by its length in two bytes (RFC 1035 §4.2.2).
      while (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
        const message = received.subarray(2, 2 + received.readUInt16BE(0));
        received = received.subarray(2 + message.length);
        try {
          const reply = decodeReply(message, id, name, type);
          if (reply) return resolve(reply);
        } catch (error) {
          return reject(error as Error);
        }
      }
    });
    socket.on('end', () => reject(new Error(`The DNS server ${server.host}:${server.port} closed the connection without answering.`)));
    return () => socket.destroy();
  });
}

async function askServer(server: DnsServer, name: string, type: DnsQueryType, timeoutMs: number): Promise<dnsPacket.Answer[]> {
  let reply = await overUdp(server, name, type, timeoutMs);
  if (reply.flag_tc) reply = await overTcp(server, name, type, timeoutMs);
  const rcode = reply.rcode ?? 'NOERROR';
  if (rcode === 'NXDOMAIN') return [];
  if (rcode !== 'NOERROR') throw new Error(`The DNS server ${server.host}:${server.port} could not answer for ${name} (${rcode}).`);
  // A recursive resolver puts the CNAME chain before the records: only the records asked for are returned.
  return (reply.answers ?? []).filter((answer) => answer.type === type);
}

/**
 * The records of one type at a name, asking each server in order until one answers; NXDOMAIN and an empty
 * answer are both []. Throws 'The DNS server did not answer in time.' when the last server stays silent.
 */
export async function queryDns(name: string, type: DnsQueryType, opts: DnsOptions = {}): Promise<dnsPacket.Answer[]> {
  const lookupName = checkName(name);
  const servers = (opts.servers ?? getServers()).map(parseServer);
  if (servers.length === 0) throw new Error('No DNS server is configured.');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let lastError = new Error(TIMEOUT_MESSAGE);
  for (const server of servers) {
    try {
      return await askServer(server, lookupName, type, timeoutMs);
    } catch (error) {
      lastError = error as Error;
    }
  }
  throw lastError;
}

/**
 * The mail exchangers of a domain, most preferred first. No MX record means the domain itself (RFC 5321
 * §5.1 implicit MX); a "null MX" (RFC 7505: one record whose exchange is ".") means the domain takes no
 * mail and gives [].
 */
export async function resolveMx(domain: string, opts: DnsOptions = {}): Promise<{ exchange: string; priority: number }[]> {
  const records = (await queryDns(domain, 'MX', opts)).flatMap((answer) =>
    answer.type === 'MX' ? [{ exchange: answer.data.exchange.replace(/\.$/, ''), priority: answer.data.preference ?? 0 }] : [],
  );
  if (records.length === 0) return [{ exchange: checkName(domain), priority: 0 }];
  return records.filter((record) => record.exchange !== '').sort((a, b) => a.priority - b.priority);
}
