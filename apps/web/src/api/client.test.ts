import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, apiResponse, setAuthFailureHandler } from './client.ts';
import { readTokens, saveTokens } from './tokens.ts';

interface Call {
  url: string;
  authorization: string | null;
  body: unknown;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A fake server: records each call, answers refresh with a new pair unless told otherwise. */
function stubServer(options: { refresh?: () => Response | Promise<Response>; data?: () => Response } = {}) {
  const calls: Call[] = [];
  let issued = 0;
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    const headers = new Headers(init?.headers);
    calls.push({
      url,
      authorization: headers.get('Authorization'),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    });
    if (url === '/api/account/refresh') {
      if (options.refresh) return options.refresh();
      issued += 1;
      return json(200, { accessToken: `renewed-${issued}`, tokenType: 'Bearer', expiresIn: 900, refreshToken: `refresh-${issued}` });
    }
    return options.data ? options.data() : json(200, { ok: true });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { calls, fetchStub };
}

/** Stores a pair whose access token expires in `seconds` (negative = already expired). */
function signInExpiringIn(seconds: number) {
  saveTokens({ accessToken: 'current', tokenType: 'Bearer', expiresIn: seconds, refreshToken: 'refresh-0' });
}

describe('apiFetch token renewal (end-user §4 "Access token")', () => {
  afterEach(() => setAuthFailureHandler(null));

  it('uses the current token while more than 60 s remain', async () => {
    signInExpiringIn(300);
    const { calls } = stubServer();
    await apiFetch('/api/users/profiledata');
    expect(calls.map((c) => c.url)).toEqual(['/api/users/profiledata']);
    expect(calls[0]?.authorization).toBe('Bearer current');
  });

  it('renews within 60 s of expiry, stores the rotated pair and sends the new token', async () => {
    signInExpiringIn(45);
    const { calls } = stubServer();
    await apiFetch('/api/users/profiledata');
    expect(calls.map((c) => c.url)).toEqual(['/api/account/refresh', '/api/users/profiledata']);
    expect(calls[0]?.body).toEqual({ refreshToken: 'refresh-0' });
    expect(calls[0]?.authorization).toBeNull();
    expect(calls[1]?.authorization).toBe('Bearer renewed-1');
    expect(readTokens()).toMatchObject({ accessToken: 'renewed-1', refreshToken: 'refresh-1' });
  });

  it('renews an expired token', async () => {
    signInExpiringIn(-10);
    const { calls } = stubServer();
    await apiFetch('/api/features');
    expect(calls[0]?.url).toBe('/api/account/refresh');
    expect(calls[1]?.authorization).toBe('Bearer renewed-1');
  });

  it('takes the pair another tab rotated while it waited for the refresh lock, without refreshing', async () => {
    signInExpiringIn(10);
    const { calls } = stubServer();
    // The other tab holds the lock, renews, and stores its new pair before this tab gets the lock.
    vi.stubGlobal('navigator', {
      locks: {
        request: async (_name: string, callback: () => Promise<void>) => {
          saveTokens({ accessToken: 'from-other-tab', tokenType: 'Bearer', expiresIn: 900, refreshToken: 'refresh-other' });
          return callback();
        },
      },
    });
    await apiFetch('/api/users/profiledata');
    expect(calls.map((c) => c.url)).toEqual(['/api/users/profiledata']);
    expect(calls[0]?.authorization).toBe('Bearer from-other-tab');
  });

  it('makes one refresh for concurrent calls', async () => {
    signInExpiringIn(10);
    const { calls } = stubServer();
    await Promise.all([apiFetch('/api/a'), apiFetch('/api/b'), apiFetch('/api/c')]);
    expect(calls.filter((c) => c.url === '/api/account/refresh')).toHaveLength(1);
    expect(calls.filter((c) => c.url !== '/api/account/refresh').map((c) => c.authorization)).toEqual([
      'Bearer renewed-1',
      'Bearer renewed-1',
      'Bearer renewed-1',
    ]);
  });

  it('logs a failed renewal instead of throwing, and goes on unauthenticated once the token has expired', async () => {
    signInExpiringIn(-10);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { calls } = stubServer({ refresh: () => json(401, { message: 'Token revoked or expired.' }) });
    await expect(apiFetch('/api/public-thing')).resolves.toEqual({ ok: true });
    expect(warn).toHaveBeenCalledOnce();
    expect(calls[1]?.authorization).toBeNull();
    expect(readTokens()).toEqual({ accessToken: null, expiresAt: null, refreshToken: null });
  });

  it('keeps a still-valid token when renewal fails on the network', async () => {
    signInExpiringIn(30);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { calls } = stubServer({ refresh: () => Promise.reject(new TypeError('Failed to fetch')) });
    await apiFetch('/api/users/profiledata');
    expect(warn).toHaveBeenCalledOnce();
    expect(calls[1]?.authorization).toBe('Bearer current');
    expect(readTokens().refreshToken).toBe('refresh-0');
  });
});

describe('apiFetch errors', () => {
  afterEach(() => setAuthFailureHandler(null));

  it('maps the error shape to ApiError', async () => {
    signInExpiringIn(900);
    stubServer({ data: () => json(400, { message: 'The request is invalid.', modelState: { name: ['Name is required.'] } }) });
    const error = await apiFetch('/api/networks', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: 'The request is invalid.', modelState: { name: ['Name is required.'] } });
  });

  it('reports the two-factor requirement of a sign-in without calling the global handler', async () => {
    const handler = vi.fn();
    setAuthFailureHandler(handler);
    stubServer({ data: () => json(401, { message: 'A verification code is required.', twoFactorRequired: true }) });
    const error = await apiFetch('/api/account/login', { method: 'POST', body: {}, auth: false }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, twoFactorRequired: true });
    expect(handler).not.toHaveBeenCalled();
  });

  it("signs off on 'Token revoked or expired.'", async () => {
    signInExpiringIn(900);
    const handler = vi.fn();
    setAuthFailureHandler(handler);
    stubServer({ data: () => json(401, { message: 'Token revoked or expired.' }) });
    await expect(apiFetch('/api/users/profiledata')).rejects.toBeInstanceOf(ApiError);
    expect(handler).toHaveBeenCalledWith('signedOff', expect.any(ApiError));
    expect(readTokens().refreshToken).toBeNull();
  });

  it('reports any other 401/403 as not authorized and keeps the session', async () => {
    signInExpiringIn(900);
    const handler = vi.fn();
    setAuthFailureHandler(handler);
    stubServer({ data: () => json(403, { message: 'You are not authorized to view this resource.' }) });
    await expect(apiFetch('/api/networks')).rejects.toMatchObject({ status: 403 });
    expect(handler).toHaveBeenCalledWith('notAuthorized', expect.any(ApiError));
    expect(readTokens().accessToken).toBe('current');
  });

  it('reports nothing for a 401 cancelled while its body was read (signing off cancels the other queries)', async () => {
    signInExpiringIn(900);
    const handler = vi.fn();
    setAuthFailureHandler(handler);
    const controller = new AbortController();
    // The answer arrived, then the query was cancelled before its body could be read.
    const body = new ReadableStream({ pull: (c) => { controller.abort(); c.error(new DOMException('aborted', 'AbortError')); } });
    stubServer({ data: () => new Response(body, { status: 401, headers: { 'Content-Type': 'application/json' } }) });
    await expect(apiFetch('/api/features', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(handler).not.toHaveBeenCalled();
    expect(readTokens().accessToken).toBe('current');
  });

  it('rejects a response that does not match the schema', async () => {
    signInExpiringIn(900);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubServer({ data: () => json(200, { unexpected: true }) });
    const { featuresResponse } = await import('@clinicrelay/contracts/session.ts');
    await expect(apiFetch('/api/features', { schema: featuresResponse })).rejects.toBeInstanceOf(ApiError);
  });
});

describe('apiResponse (files)', () => {
  afterEach(() => setAuthFailureHandler(null));

  it('sends the bearer and the Accept asked for, and hands back the unread Response', async () => {
    signInExpiringIn(900);
    const { fetchStub } = stubServer({ data: () => new Response(new Uint8Array([37, 80, 68, 70]), { status: 200, headers: { 'Content-Type': 'application/pdf' } }) });
    const response = await apiResponse('/api/messages/m/attachments/a', { accept: 'application/pdf' });
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([37, 80, 68, 70]));
    const headers = new Headers(fetchStub.mock.calls[0]?.[1]?.headers);
    expect(headers.get('Accept')).toBe('application/pdf');
    expect(headers.get('Authorization')).toBe('Bearer current');
  });

  it('maps a failure to ApiError and reports 401/403 like apiFetch', async () => {
    signInExpiringIn(900);
    const handler = vi.fn();
    setAuthFailureHandler(handler);
    stubServer({ data: () => json(403, { message: 'You are not authorized to view this resource.' }) });
    await expect(apiResponse('/api/messages/m/attachments/a')).rejects.toMatchObject({ status: 403, message: 'You are not authorized to view this resource.' });
    expect(handler).toHaveBeenCalledWith('notAuthorized', expect.any(ApiError));
  });
});

describe('activity marking (automatic logoff)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const activityOf = (fetchStub: ReturnType<typeof stubServer>['fetchStub'], call: number) =>
    new Headers(fetchStub.mock.calls[call]?.[1]?.headers).get('X-Session-Activity');

  it('marks calls made more than a minute after the last input as background, so they do not keep the session alive', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    signInExpiringIn(900);
    const { fetchStub } = stubServer();
    await apiFetch('/api/users/profiledata');
    expect(activityOf(fetchStub, 0)).toBeNull();
    vi.setSystemTime(Date.now() + 61_000);
    await apiFetch('/api/users/profiledata');
    expect(activityOf(fetchStub, 1)).toBe('background');
    window.dispatchEvent(new Event('keydown'));
    await apiFetch('/api/users/profiledata');
    expect(activityOf(fetchStub, 2)).toBeNull();
  });
});
