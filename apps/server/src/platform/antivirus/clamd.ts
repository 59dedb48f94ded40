import net from 'node:net';
import { noScanner, ScannerUnavailableError, type Scanner } from './scanner.ts';

// Where clamd listens: tcp://host:port, or the path of its unix socket (LocalSocket).
export type ClamdAddress = { host: string; port: number } | { path: string };

export interface ClamdOptions {
  connectTimeoutMs?: number;
  // From the first byte sent to the verdict: clamd reads the whole stream before it scans.
  readTimeoutMs?: number;
  // clamd's StreamMaxLength (25M by default); clamd drops a longer stream, so it is never sent.
  maxStreamBytes?: number;
}

const CHUNK_BYTES = 64 * 1024;
const DEFAULTS = { connectTimeoutMs: 3_000, readTimeoutMs: 60_000, maxStreamBytes: 25 * 1024 * 1024 };

// CLAMD_URL: `tcp://host:port`, `unix:///path` or an absolute socket path; null when it is neither.
export function parseClamdUrl(value: string): ClamdAddress | null {
  if (value.startsWith('/')) return { path: value };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol === 'unix:') return url.pathname.startsWith('/') && url.pathname.length > 1 ? { path: decodeURIComponent(url.pathname) } : null;
  if (url.protocol !== 'tcp:' || !url.hostname || !url.port || (url.pathname !== '' && url.pathname !== '/')) return null;
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port) };
}

const where = (address: ClamdAddress) => ('path' in address ? address.path : `${address.host}:${address.port}`);

// One clamd command on its own connection (the z-prefixed form: NUL-terminated command and reply).
// `body` writes what follows the command, and stops once `answered()` (clamd replied early, e.g. a size-limit
// ERROR); the promise holds the reply without its terminator.
function exchange(
  address: ClamdAddress,
  command: string,
  options: Required<ClamdOptions>,
  body?: (socket: net.Socket, answered: () => boolean) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection('path' in address ? { path: address.path } : { host: address.host, port: address.port });
    const received: Buffer[] = [];
    let settled = false;
    let lastError: Error | undefined;
    const finish = (error: Error | null, reply?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(reply!);
    };
    const fail = (reason: string) => finish(new ScannerUnavailableError(`clamd at ${where(address)}: ${reason}`));
    let timer = setTimeout(() => fail(`no connection within ${options.connectTimeoutMs} ms`), options.connectTimeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      timer = setTimeout(() => fail(`no reply within ${options.readTimeoutMs} ms`), options.readTimeoutMs);
      socket.write(`z${command}\0`);
      body?.(socket, () => settled || received.length > 0);
    });
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      const text = Buffer.concat(received).toString('utf8');
      const end = text.indexOf('\0');
      if (end >= 0) finish(null, text.slice(0, end).trim());
    });
    // clamd may answer (e.g. a size-limit ERROR) and close while we still write (EPIPE, ECONNRESET): the reply read
    // by then is the one that counts. 'close' always follows 'error'.
    socket.on('error', (error) => {
      lastError = error;
    });
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('utf8').replace(/\0+$/, '').trim();
      if (text) finish(null, text);
      // A reset can discard a reply clamd sent just before it (the OS drops unread data): say what it most likely was.
      else if (lastError && body && /EPIPE|ECONNRESET/.test(lastError.message)) fail(`closed the connection before the stream's end (${lastError.message}; over its StreamMaxLength?)`);
      else fail(lastError?.message ?? 'connection closed without a reply');
    });
  });
}

// The clamd adapter: INSTREAM sends the bytes as <4-byte big-endian length><data> chunks ended by a
// zero-length chunk; the reply is "stream: OK", "stream: <Name> FOUND" or "<reason> ERROR".
export function clamdScanner(address: ClamdAddress, given: ClamdOptions = {}): Scanner {
  const options = { ...DEFAULTS, ...given };
  return {
    configured: true,
    async scan(bytes) {
      if (bytes.length > options.maxStreamBytes) {
        throw new ScannerUnavailableError(`clamd at ${where(address)}: ${bytes.length} bytes exceed its stream limit of ${options.maxStreamBytes}`);
      }
      const reply = await exchange(address, 'INSTREAM', options, (socket, answered) => {
        // Chunk by chunk as the socket drains, so a reply clamd sends early is read before more is written.
        let offset = 0;
        let ended = false;
        const writeMore = () => {
          while (!ended && !answered() && !socket.destroyed) {
            const chunk = bytes.subarray(offset, offset + CHUNK_BYTES);
            offset += chunk.length;
            ended = chunk.length === 0;
            const length = Buffer.alloc(4);
            length.writeUInt32BE(chunk.length);
            // The last chunk is empty: the zero-length terminator.
            if (!socket.write(chunk.length ? Buffer.concat([length, chunk]) : length)) return void socket.once('drain', writeMore);
          }
        };
        writeMore();
      });
      if (reply === 'stream: OK') return { clean: true };
      const found = /^stream: (.+) FOUND$/.exec(reply);
      if (found) return { clean: false, signature: found[1]! };
      throw new ScannerUnavailableError(`clamd at ${where(address)} answered: ${reply}`);
    },
    async ping() {
      try {
        // A ping is answered at once: waiting as long as for a scan would stall health.
        return (await exchange(address, 'PING', { ...options, readTimeoutMs: options.connectTimeoutMs })) === 'PONG';
      } catch {
        return false;
      }
    },
  };
}

// CLAMD_URL's scanner, or none when it is unset.
export const scannerFor = (address: ClamdAddress | undefined): Scanner => (address ? clamdScanner(address) : noScanner);
