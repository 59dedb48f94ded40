// Paths the app itself redirects to (end-user §2).
export const LOGIN_PATH = '/account/login';
export const LOGOUT_PATH = '/account/logout';
export const UNAUTHORIZED_PATH = '/unauthorized';
export const FEATURE_FALLBACK_PATH = '/account/dashboard';
