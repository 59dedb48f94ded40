import http from 'node:http';
import type { LookupFunction } from 'node:net';

// A bounded HTTP(S) GET for what certificates and DNS records point at (certificates behind CERT records,
// revocation lists): the URL comes from a stranger, so the wait and the size are capped and errors are
// sentences a person can read.

export interface HttpGetLimits {
  timeoutMs: number;
  maxBytes: number;
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;

function failed(url: string, error: unknown, signal: AbortSignal, timeoutMs: number): Error {
  if (signal.aborted) return new Error(`${url} did not answer within ${timeoutMs / 1000} s.`);
  // fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND, a TLS error) in its cause.
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return new Error(`${url} could not be reached (${cause?.code ?? cause?.message ?? String(error)}).`);
}

/** The body of an http: or https: URL, refused when the server does not answer 2xx in time or sends more than maxBytes. */
export async function httpGet(url: string, limits: HttpGetLimits): Promise<Uint8Array> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`"${url}" is not a web address.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`"${url}" is not an http or https address.`);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const tooLarge = () => new Error(`${url} sent more than ${megabytes(limits.maxBytes)}.`);
  let response: Response;
  try {
    response = await fetch(parsed, { signal, redirect: 'follow' });
  } catch (error) {
    throw failed(url, error, signal, limits.timeoutMs);
  }
  // fetch's body is a byte stream; its type says any.
  const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
  const read = async () => {
    try {
      return await reader!.read();
    } catch (error) {
      throw failed(url, error, signal, limits.timeoutMs);
    }
  };
  try {
    if (!response.ok) throw new Error(`${url} answered ${`${response.status} ${response.statusText}`.trim()}.`);
    if (Number(response.headers.get('content-length')) > limits.maxBytes) throw tooLarge();
    const chunks: Uint8Array[] = [];
    let received = 0;
    for (let next = reader ? await read() : null; next && !next.done; next = await read()) {
      received += next.value.byteLength;
      // Counted as it arrives: a missing or lying Content-Length must not let a stranger fill the memory.
      if (received > limits.maxBytes) throw tooLarge();
      chunks.push(next.value);
    }
    return new Uint8Array(Buffer.concat(chunks));
  } finally {
    await reader?.cancel().catch(() => undefined);
  }
}

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * As httpGet, for an http: URL whose host the caller has resolved and checked: the connection goes to `pinned` only
 * (no second lookup that could answer otherwise: DNS rebinding), and a redirect is refused, never followed.
 */
export function httpGetPinned(url: string, pinned: PinnedAddress, limits: HttpGetLimits): Promise<Uint8Array> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:') return Promise.reject(new Error(`"${url}" is not an http address.`));
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
  return new Promise<Uint8Array>((resolve, reject) => {
    const request = http.get(parsed, { signal, agent: false, lookup }, (response) => {
      const status = response.statusCode ?? 0;
      const refuse = (error: Error) => {
        response.destroy();
        reject(error);
      };
      if (status >= 300 && status < 400) return refuse(new Error(`${url} answered ${status} (a redirect, which is not followed).`));
      if (status < 200 || status >= 300) return refuse(new Error(`${url} answered ${`${status} ${response.statusMessage ?? ''}`.trim()}.`));
      const tooLarge = () => new Error(`${url} sent more than ${megabytes(limits.maxBytes)}.`);
      if (Number(response.headers['content-length']) > limits.maxBytes) return refuse(tooLarge());
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        // Counted as it arrives: a missing or lying Content-Length must not let a stranger fill the memory.
        if (received > limits.maxBytes) refuse(tooLarge());
        else chunks.push(chunk);
      });
      response.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
      response.on('error', (error) => reject(failed(url, { cause: error }, signal, limits.timeoutMs)));
    });
    request.on('error', (error) => reject(failed(url, { cause: error }, signal, limits.timeoutMs)));
  });
}
