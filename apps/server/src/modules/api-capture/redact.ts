import { API_CAPTURE_MAX_BODY_BYTES } from '@clinicrelay/contracts/api-capture.ts';
import type { CapturedSide } from '../../db/schema/api-capture.ts';

export const REDACTED = '[REDACTED]';

// Headers that carry credentials: their values are never stored.
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-auth-token']);

// Field names whose values are credentials or one-time codes, whatever their case or separators: passwords (current,
// new, confirm), tokens (access, refresh, reset, invitation), secrets, client secrets, API keys, private keys,
// one-time and verification codes, recovery codes, PINs. `code` alone is the sign-in's second factor.
const SECRET_NAME = /password|passwd|passphrase|secret|token|apikey|privatekey|credential|authorization|cookie|otp|verificationcode|recoverycode|backupcode|onetimecode|twofactorcode|signature/;
const SECRET_EXACT = new Set(['code', 'pin', 'key', 'otp', 'sessionid']);
const normalized = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
export const isSecretName = (name: string): boolean => {
  const n = normalized(name);
  return SECRET_EXACT.has(n) || SECRET_NAME.test(n);
};

// A value that is a credential whatever its field is called: a JWT or a bearer header.
const JWT = /\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}/g;
const BEARER = /\b(Bearer|Basic)\s+[\w.~+/=-]{8,}/gi;
const scrubText = (value: string) => value.replace(JWT, REDACTED).replace(BEARER, `$1 ${REDACTED}`);

/** A copy of a parsed JSON body with every secret field's value replaced (nested objects and arrays included). */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 32) return REDACTED;
  if (typeof value === 'string') return scrubText(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = isSecretName(k) && v !== null && v !== '' ? REDACTED : redactValue(v, depth + 1);
    return out;
  }
  return value;
}

export function redactHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : JSON.stringify(raw);
    out[name.toLowerCase()] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : scrubText(value).slice(0, 2000);
  }
  return out;
}

/** The URL with the values of secret query parameters (?token=…, ?code=…) replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return scrubText(url);
  const params = new URLSearchParams(url.slice(q + 1));
  for (const name of new Set(params.keys())) if (isSecretName(name)) params.set(name, REDACTED);
  return `${scrubText(url.slice(0, q))}?${params.toString().replace(/%5BREDACTED%5D/g, REDACTED)}`;
}

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

// Cut at the cap on a character boundary (a multi-byte character is never split).
function capped(text: string, max = API_CAPTURE_MAX_BODY_BYTES): { body: string; truncated: boolean } {
  if (byteLength(text) <= max) return { body: text, truncated: false };
  const cut = Buffer.from(text, 'utf8').subarray(0, max).toString('utf8').replace(/\uFFFD$/, '');
  return { body: cut, truncated: true };
}

const isTextType = (contentType: string) => /json|text\/|xml|x-www-form-urlencoded|csv/i.test(contentType);

/**
 * What is stored of a body (compact; the screen pretty-prints it): JSON redacted field by field (a body that is not JSON is scrubbed of tokens as text, a
 * form's secret fields redacted), file contents (multipart, binary, streams) replaced by a note, and everything cut
 * at 64 kB with bodyTruncated set.
 */
export function captureBody(input: { contentType: string; parsed?: unknown; raw?: string | Buffer | null; bytes?: number; stream?: boolean }): Pick<CapturedSide, 'body' | 'bodyBytes' | 'bodyTruncated'> {
  const { contentType } = input;
  if (input.stream) return { body: `[${contentType || 'stream'}: streamed body not captured]`, bodyBytes: input.bytes ?? 0, bodyTruncated: false };
  if (/multipart\//i.test(contentType)) return { body: '[multipart/form-data: file contents not captured]', bodyBytes: input.bytes ?? 0, bodyTruncated: false };
  let text: string | undefined;
  let bytes = input.bytes;
  if (input.parsed !== undefined && input.parsed !== null && typeof input.parsed === 'object') {
    text = JSON.stringify(redactValue(input.parsed));
  } else if (input.raw !== undefined && input.raw !== null) {
    if (Buffer.isBuffer(input.raw) && !isTextType(contentType)) return { body: `[${contentType || 'binary'}: ${input.raw.length} bytes not captured]`, bodyBytes: input.raw.length, bodyTruncated: false };
    // Only the head of a big body is read: redacting it whole would cost what capture must not.
    const head = Buffer.isBuffer(input.raw) ? input.raw.subarray(0, API_CAPTURE_MAX_BODY_BYTES * 2).toString('utf8') : input.raw.slice(0, API_CAPTURE_MAX_BODY_BYTES * 2);
    bytes ??= Buffer.isBuffer(input.raw) ? input.raw.length : byteLength(input.raw);
    text = redactText(head, contentType, bytes > byteLength(head));
  } else if (typeof input.parsed === 'string') {
    text = redactText(input.parsed, contentType, false);
  }
  if (text === undefined || text === '') return { body: null, bodyBytes: bytes ?? 0, bodyTruncated: false };
  const { body, truncated } = capped(text);
  return { body, bodyBytes: bytes ?? byteLength(text), bodyTruncated: truncated || (bytes ?? 0) > API_CAPTURE_MAX_BODY_BYTES * 2 };
}

// Cheap test first: most bodies name no secret field and hold no credential, and are kept as they are.
const MAY_HOLD_SECRET = /pass|secret|token|key|otp|code|pin|credential|authorization|cookie|signature|sessionid|eyJ|bearer|basic /i;

function redactText(text: string, contentType: string, partial: boolean): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  if (/json/i.test(contentType) && !partial) {
    try {
      return JSON.stringify(redactValue(JSON.parse(text)));
    } catch {
      // Not JSON after all: scrubbed as text below.
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType)) return redactUrl(`?${text}`).slice(1);
  // A cut JSON body cannot be parsed: secret fields are blanked by pattern.
  return scrubText(text).replace(/("([^"\\]{1,100})"\s*:\s*)"(?:[^"\\]|\\.)*"/g, (match, prefix: string, name: string) => (isSecretName(name) ? `${prefix}"${REDACTED}"` : match));
}
