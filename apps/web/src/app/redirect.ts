// The URL to return to after signing in (end-user §2 "Redirect rules").
// sessionStorage: per tab, so one tab's expired session never decides where another tab lands.
const REDIRECT_KEY = 'clinicrelay.redirectUrl';

// Path segments of authentication pages, which are never a place to come back to.
const NEVER_STORED_SEGMENTS = new Set([
  'unauthorized',
  'access-denied',
  'auth-error',
  'callback',
  'login',
  'register',
  'logout',
]);

/** Only same-origin absolute paths; "//host" and "/\host" would leave the site. */
function isLocalPath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}

/** Lower-cased path without trailing slashes, since routes are case-insensitive and non-strict. */
function normalizedPath(url: string): string {
  const pathname = url.split(/[?#]/, 1)[0] ?? '';
  const trimmed = pathname.toLowerCase().replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function isStorableRedirect(url: string): boolean {
  if (!isLocalPath(url)) return false;
  const path = normalizedPath(url);
  // The root (also with a query such as ?email=) and bare /admin only lead to the role default anyway.
  if (path === '/' || path === '/admin') return false;
  return !path.split('/').some((segment) => NEVER_STORED_SEGMENTS.has(segment));
}

/** Remembers url unless the rules exclude it; returns whether it was stored. */
export function storeRedirect(url: string): boolean {
  if (!isStorableRedirect(url)) return false;
  sessionStorage.setItem(REDIRECT_KEY, url);
  return true;
}

/** Returns the stored URL once and forgets it. */
export function consumeRedirect(): string | null {
  const url = sessionStorage.getItem(REDIRECT_KEY);
  sessionStorage.removeItem(REDIRECT_KEY);
  return url !== null && isStorableRedirect(url) ? url : null;
}

export function clearRedirect(): void {
  sessionStorage.removeItem(REDIRECT_KEY);
}

export function urlOf(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}
