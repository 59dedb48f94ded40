// Business constants and limits of end-user §9 and the foundation issue; one place for server and web.
export const TOAST_TIMEOUT_MS = 5_000;
export const TOKEN_RENEW_MARGIN_SECONDS = 60;
// Sent as 'background' on requests the user did not make (self-refreshing lists): they do not count as
// activity for the automatic logoff after SESSION_IDLE_MINUTES.
export const SESSION_ACTIVITY_HEADER = 'x-session-activity';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 12 * 60 * 60;
export const LOCKOUT_FAILED_ATTEMPTS = 3;
export const LOCKOUT_MINUTES = 10;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const PAGER_VISIBLE_PAGES = 5;
export const SEARCH_DEBOUNCE_MS = 300;
export const JUMP_PAGER_DEBOUNCE_MS = 300;
export const MULTI_VALUE_VISIBLE = 3;
export const DIALOG_WIDTH_PX = 700;
export const DEFAULT_DEMO_PASSWORD = 'Demo-pass-2026!';
export const DATE_FORMAT = 'MM/DD/YYYY';
// end-user §4 "Attachments": a file answered 202 + Retry-After is fetched again after 0.5 s; a preview
// being made is checked every 2 s, 15 times at most.
export const RETRY_AFTER_POLL_MS = 500;
export const PREVIEW_POLL_MS = 2_000;
export const PREVIEW_POLL_MAX = 15;
// end-user §9: popovers (and tooltips) open after 200 ms.
export const POPOVER_DELAY_MS = 200;
