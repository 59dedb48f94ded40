import type { TokenResponse } from '@clinicrelay/contracts/account.ts';

// localStorage so a session survives reloads and new tabs; keys are namespaced to the product.
const ACCESS_TOKEN_KEY = 'clinicrelay.accessToken';
const EXPIRES_AT_KEY = 'clinicrelay.accessTokenExpiresAt';
const REFRESH_TOKEN_KEY = 'clinicrelay.refreshToken';

export interface StoredTokens {
  accessToken: string | null;
  /** Epoch milliseconds when the access token expires. */
  expiresAt: number | null;
  refreshToken: string | null;
}

export function readTokens(): StoredTokens {
  const expiresAtText = localStorage.getItem(EXPIRES_AT_KEY);
  const expiresAt = expiresAtText === null ? null : Number(expiresAtText);
  return {
    accessToken: localStorage.getItem(ACCESS_TOKEN_KEY),
    expiresAt: expiresAt !== null && Number.isFinite(expiresAt) ? expiresAt : null,
    refreshToken: localStorage.getItem(REFRESH_TOKEN_KEY),
  };
}

export function saveTokens(tokens: TokenResponse, now: number = Date.now()): void {
  localStorage.setItem(ACCESS_TOKEN_KEY, tokens.accessToken);
  localStorage.setItem(EXPIRES_AT_KEY, String(now + tokens.expiresIn * 1000));
  localStorage.setItem(REFRESH_TOKEN_KEY, tokens.refreshToken);
}

export function clearTokens(): void {
  localStorage.removeItem(ACCESS_TOKEN_KEY);
  localStorage.removeItem(EXPIRES_AT_KEY);
  localStorage.removeItem(REFRESH_TOKEN_KEY);
}

export function isAccessTokenExpired(tokens: StoredTokens, now: number = Date.now()): boolean {
  return tokens.accessToken === null || tokens.expiresAt === null || tokens.expiresAt <= now;
}

/** A session exists while a usable access token or a refresh token to renew it is stored. */
export function hasSession(now: number = Date.now()): boolean {
  const tokens = readTokens();
  return tokens.refreshToken !== null || !isAccessTokenExpired(tokens, now);
}

/** The session the stored access token belongs to (its `sid` claim), or null: what "until the next sign-in" is keyed by. */
export function currentSessionId(): string | null {
  const payload = readTokens().accessToken?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sid?: unknown };
    return typeof claims.sid === 'string' ? claims.sid : null;
  } catch {
    return null;
  }
}
