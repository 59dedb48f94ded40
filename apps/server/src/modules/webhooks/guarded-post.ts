import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressScope } from '@clinicrelay/contracts/ip-addresses.ts';
import { errorText } from '../../platform/workflows/context.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}

// How a host name becomes addresses: the system resolver; tests give one that asks their own DNS server.
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolveHost: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface PostResult {
  statusCode: number | null;
  error: string | null;
}

export interface GuardedPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  timeoutMs: number;
  // Loopback (a local development receiver) may be called; never in production, where the server's own ports answer.
  allowLoopback: boolean;
  resolveHost?: ResolveHost;
}

const failed = (error: string): PostResult => ({ statusCode: null, error });

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// The addresses a request may connect to, or why none: a host in the private network is refused before any request
// (the URL is a customer's, the server sits inside the installation's network), and so is loopback unless allowed
// (development). The reason names the address, never what listens there: nothing was asked.
async function checkedAddresses(host: string, post: GuardedPost, signal: AbortSignal): Promise<ResolvedAddress[] | string> {
  const literal = addressScope(host);
  if (literal === 'private') return `Not sent: ${host} is an address in a private network.`;
  if (literal === 'loopback' && !post.allowLoopback) return `Not sent: ${host} is an address of this server.`;
  if (literal !== null) return [];
  const name = host.toLowerCase().replace(/\.$/, '');
  if (!post.allowLoopback && (name === 'localhost' || name.endsWith('.localhost'))) return `Not sent: ${host} is this server.`;
  let resolved: ResolvedAddress[];
  try {
    resolved = await abortable((post.resolveHost ?? systemResolveHost)(host), signal);
  } catch (error) {
    if (signal.aborted) return `No answer within ${post.timeoutMs / 1000} s.`;
    const code = (error as { code?: string }).code;
    return `Not sent: ${host} could not be resolved${code ? ` (${code})` : ''}.`;
  }
  if (resolved.length === 0) return `Not sent: ${host} could not be resolved.`;
  // Every address, not just the first: the connection may go to any of them.
  const inside = resolved.find((a) => addressScope(a.address) === 'private' || addressScope(a.address) === null);
  if (inside) return `Not sent: ${host} resolves to ${inside.address}, an address in a private network.`;
  const loopback = post.allowLoopback ? undefined : resolved.find((a) => addressScope(a.address) === 'loopback');
  if (loopback) return `Not sent: ${host} resolves to ${loopback.address}, an address of this server.`;
  return resolved;
}

/**
 * POSTs a body to a customer's URL, never into the installation's private network: the host name is resolved once,
 * each address checked, and the connection made to a checked address (no second lookup that could answer otherwise:
 * DNS rebinding). A redirect is an answer, never followed (node:http does not follow). One way for webhooks to do HTTP.
 */
export async function guardedPost(post: GuardedPost): Promise<PostResult> {
  const target = new URL(post.url);
  const timeout = AbortSignal.timeout(post.timeoutMs);
  const signal = AbortSignal.any([post.signal, timeout]);
  const addresses = await checkedAddresses(target.hostname, post, signal);
  if (typeof addresses === 'string') return failed(addresses);
  // Node asks for one address, or for all (autoSelectFamily); either way it gets only the checked ones.
  const pinned = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as unknown as LookupFunction;
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
        signal,
        // A pooled connection was made for another lookup: each delivery connects afresh.
        agent: false,
        ...(addresses.length ? { lookup: pinned } : {}),
      },
      (response) => {
        const statusCode = response.statusCode ?? null;
        response.resume();
        resolve({ statusCode, error: statusCode !== null && statusCode >= 200 && statusCode < 300 ? null : `The receiver answered ${statusCode}.` });
      },
    );
    request.on('error', (error) => {
      if (timeout.aborted) resolve(failed(`No answer within ${post.timeoutMs / 1000} s.`));
      else resolve(failed(errorText(error)));
    });
    request.end(post.body);
  });
}
