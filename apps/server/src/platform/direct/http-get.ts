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
