import type { ZodType } from 'zod';
import { tokenResponse } from '@clinicrelay/contracts/account.ts';
import { TOKEN_RENEW_MARGIN_SECONDS } from '@clinicrelay/contracts/constants.ts';
import { errorResponse, messages, type ErrorResponse } from '@clinicrelay/contracts/errors.ts';
import { ACTIVITY_HEADER, userIsActive } from './activity.ts';
import { clearTokens, isAccessTokenExpired, readTokens, saveTokens } from './tokens.ts';

/** A failed API call, carrying the API's error shape (DESIGN.md "Errors"). status 0 = no response. */
export class ApiError extends Error {
  readonly status: number;
  readonly modelState: Record<string, string[]> | undefined;
  readonly exceptionMessage: string | undefined;
  readonly twoFactorRequired: boolean;
  // With twoFactorRequired: 'App' or 'Email' (a code was mailed), issue 14 §6.
  readonly twoFactorMethod: 'App' | 'Email' | undefined;

  constructor(status: number, body: ErrorResponse) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.modelState = body.modelState;
    this.exceptionMessage = body.exceptionMessage;
    this.twoFactorRequired = body.twoFactorRequired ?? false;
    this.twoFactorMethod = body.twoFactorMethod;
  }
}

/**
 * signedOff: the session is gone (end-user §8 'Token revoked or expired.': revoked, idle or past its time
 * limit, or its renewal was refused); notAuthorized: any other 401/403.
 */
export type AuthFailure = 'signedOff' | 'notAuthorized';
export type AuthFailureHandler = (failure: AuthFailure, error: ApiError) => void;

// Installed by the app so this module never imports the router or the UI.
let authFailureHandler: AuthFailureHandler | null = null;

export function setAuthFailureHandler(handler: AuthFailureHandler | null): void {
  authFailureHandler = handler;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiFetchOptions<T> {
  method?: HttpMethod;
  /** JSON-serialized, except FormData which is sent as multipart. */
  body?: unknown;
  /** Validates and strips the response; without it the parsed JSON is returned as is. */
  schema?: ZodType<T>;
  /** false for the sign-in calls themselves: no bearer, no renewal, no global 401/403 handling. */
  auth?: boolean;
  /** false when the caller handles 401/403 itself (sign-out); defaults to `auth`. */
  reportAuthFailure?: boolean;
  signal?: AbortSignal;
}

let refreshInFlight: Promise<void> | null = null;

/**
 * Renews the access token when it is expired or within TOKEN_RENEW_MARGIN_SECONDS of expiry (end-user §4).
 * Concurrent callers share one refresh; a failed renewal is logged, never thrown.
 */
export function ensureFreshToken(): Promise<void> {
  const tokens = readTokens();
  const marginMs = TOKEN_RENEW_MARGIN_SECONDS * 1000;
  const fresh = tokens.accessToken !== null && tokens.expiresAt !== null && tokens.expiresAt - Date.now() > marginMs;
  if (fresh || tokens.refreshToken === null) return Promise.resolve();
  refreshInFlight ??= renewAcrossTabs(tokens.refreshToken).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

// Tabs share the stored pair: a refresh token presented twice revokes the session on the server, so
// tabs take turns (Web Locks), and a tab that finds the pair already rotated by another just uses it.
async function renewAcrossTabs(refreshToken: string): Promise<void> {
  if (typeof navigator === 'undefined' || !navigator.locks) return renew(refreshToken);
  await navigator.locks.request('clinicrelay.token-refresh', async () => {
    const current = readTokens();
    if (current.refreshToken !== refreshToken) return;
    await renew(refreshToken);
  });
}

async function renew(refreshToken: string): Promise<void> {
  try {
    const pair = await apiFetch('/api/account/refresh', {
      method: 'POST',
      body: { refreshToken },
      schema: tokenResponse,
      auth: false,
    });
    saveTokens(pair);
  } catch (error) {
    console.warn('Access token renewal failed; continuing as unauthenticated when the token has expired.', error);
    const current = readTokens();
    // Another tab may have rotated the pair meanwhile; its tokens are still good.
    if (current.refreshToken !== refreshToken) return;
    const rejected = error instanceof ApiError && error.status >= 400 && error.status < 500;
    if (rejected || isAccessTokenExpired(current)) clearTokens();
  }
}

/** The one typed fetch client: bearer token, renewal, JSON, errors mapped to ApiError. */
export async function apiFetch<T = unknown>(path: string, options: ApiFetchOptions<T> = {}): Promise<T> {
  const response = await apiResponse(path, options);
  const data = await readBody(response);
  if (!options.schema) return data as T;
  const parsed = options.schema.safeParse(data);
  if (!parsed.success) {
    console.error(`Unexpected response shape from ${path}`, parsed.error);
    throw new ApiError(response.status, { message: messages.serverError });
  }
  return parsed.data;
}

/**
 * apiFetch for bodies that are not JSON (files): the same bearer, renewal and error mapping, but the
 * successful Response is handed back unread. `accept` is the Accept header.
 */
export async function apiResponse(path: string, options: Omit<ApiFetchOptions<unknown>, 'schema'> & { accept?: string } = {}): Promise<Response> {
  const auth = options.auth ?? true;
  if (auth) await ensureFreshToken();

  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
  if (!userIsActive()) headers[ACTIVITY_HEADER] = 'background';
  let body: BodyInit | undefined;
  // FormData and URLSearchParams (a form-encoded call: POST /api/licenses/issue) set their own content type.
  if (options.body instanceof FormData || options.body instanceof URLSearchParams) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const tokens = readTokens();
  const bearer = auth && !isAccessTokenExpired(tokens) ? tokens.accessToken : null;
  if (bearer !== null) headers.Authorization = `Bearer ${bearer}`;

  let response: Response;
  try {
    response = await fetch(path, { method: options.method ?? 'GET', headers, body, signal: options.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, { message: messages.serverError });
  }

  if (!response.ok) {
    const data = await readBody(response);
    // Cancelled while its body was read (signing off cancels every query): its answer is unknown, nothing to report.
    if (options.signal?.aborted) throw new DOMException('The request was cancelled.', 'AbortError');
    const error = new ApiError(response.status, errorBody(response.status, data));
    const report = options.reportAuthFailure ?? auth;
    // A cancelled organization's 403 is the org-status dialogs' business (end-user §4), not a missing role.
    const organizationCancelled = response.status === 403 && error.message === messages.organizationCancelled;
    // Likewise an administrator who must enrol in two-factor sign-in: the enrolment modal's business (issue 14 §6).
    const enrolmentRequired = response.status === 403 && error.message === messages.twoFactorEnrolmentRequired;
    // Pending new terms: the terms dialog (which cannot be dismissed) is in charge, not a sign-out.
    const termsPending = response.status === 403 && error.message === messages.termsAcceptanceRequired;
    if (report && !organizationCancelled && !enrolmentRequired && !termsPending && (response.status === 401 || response.status === 403)) reportAuthFailure(error, bearer !== null);
    throw error;
  }
  return response;
}

function reportAuthFailure(error: ApiError, sentBearer: boolean): void {
  // Without a bearer the caller simply is not signed in, whatever the server's wording.
  const signedOff = error.message === messages.tokenRevokedOrExpired || (error.status === 401 && !sentBearer);
  if (signedOff) clearTokens();
  authFailureHandler?.(signedOff ? 'signedOff' : 'notAuthorized', error);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorBody(status: number, data: unknown): ErrorResponse {
  const parsed = errorResponse.safeParse(data);
  if (parsed.success) return parsed.data;
  return { message: fallbackMessage(status) };
}

function fallbackMessage(status: number): string {
  if (status === 401 || status === 403) return messages.notAuthorized;
  if (status === 404) return messages.notFound;
  if (status === 429) return messages.tooManyRequests;
  if (status >= 400 && status < 500) return messages.invalidRequest;
  return messages.serverError;
}
