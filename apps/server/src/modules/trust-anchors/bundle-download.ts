import { MAX_BUNDLE_BYTES } from '@clinicrelay/contracts/trust-anchors.ts';

export const DOWNLOAD_TIMEOUT_MS = 10_000;

export interface DownloadLimits {
  timeoutMs: number;
  maxBytes: number;
}

/** How a bundle's URL is read; tests and the Direct transport may give their own. */
export type BundleFetch = (url: string) => Promise<Uint8Array>;

/** A bundle URL that could not be read, with a reason an administrator can act on. */
export class BundleUnavailable extends Error {
  constructor(reason: string) {
    super(`The bundle could not be downloaded: ${reason}.`);
  }
}

const SOCKET_REASONS: Record<string, string> = {
  ECONNREFUSED: 'the server refused the connection',
  ECONNRESET: 'the server closed the connection',
  UND_ERR_SOCKET: 'the server closed the connection',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be looked up',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ETIMEDOUT: 'the connection timed out',
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is not trusted",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate is not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate is not trusted",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate does not name the host",
};

const causeCode = (error: unknown) => {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : '';
};

function reasonOf(error: unknown, limits: DownloadLimits): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${limits.timeoutMs / 1000} seconds`;
  const code = causeCode(error);
  return SOCKET_REASONS[code] ?? (code ? `the server could not be reached (${code})` : 'the server could not be reached');
}

const MB = 1024 * 1024;
const sizeText = (bytes: number) => (bytes >= MB ? `${Math.round((bytes / MB) * 10) / 10} MB` : `${bytes} bytes`);

// A kept-alive connection the server has closed meanwhile fails at once; a fresh one then tells the real story.
async function fetchOnce(url: string, signal: AbortSignal, retryStale = true): Promise<Response> {
  try {
    return await fetch(url, { signal, redirect: 'follow', headers: { accept: 'application/pkcs7-mime, application/x-pkcs7-certificates, */*' } });
  } catch (error) {
    if (retryStale && causeCode(error) === 'UND_ERR_SOCKET') return fetchOnce(url, signal, false);
    throw error;
  }
}

/** GET the URL (http or https; redirects followed) within the limits, or a BundleUnavailable. */
export async function download(url: string, limits: DownloadLimits): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const tooLarge = () => new BundleUnavailable(`it is larger than ${sizeText(limits.maxBytes)}`);
  try {
    const response = await fetchOnce(url, signal);
    if (!response.ok) {
      await response.body?.cancel();
      throw new BundleUnavailable(`the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
    }
    if (Number(response.headers.get('content-length')) > limits.maxBytes) {
      await response.body?.cancel();
      throw tooLarge();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    // Counted as it streams: a server that lies about its length is cut off at the limit.
    for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) {
      const chunk = part.value as Uint8Array;
      size += chunk.length;
      if (size > limits.maxBytes) {
        await reader?.cancel();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof BundleUnavailable) throw error;
    throw new BundleUnavailable(reasonOf(error, limits));
  }
}

/** A bundle's URL, read within 10 seconds and 10 MB. */
export const downloadBundle: BundleFetch = (url) => download(url, { timeoutMs: DOWNLOAD_TIMEOUT_MS, maxBytes: MAX_BUNDLE_BYTES });
