import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS } from '@clinicrelay/contracts/constants.ts';

const ISSUER = 'clinicrelay';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const HEADER = base64url({ alg: 'HS256', typ: 'JWT' });

// An HS256 JWT signed with Node's HMAC, as verifyAccessToken checks it: jose's WebCrypto signing went through the
// thread pool and back, a millisecond and a half of every sign-in and renewal.
export async function signAccessToken(key: Uint8Array, claims: AccessClaims, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  const payload = base64url({ sid: claims.sessionId, sub: claims.userId, iss: ISSUER, iat, exp: iat + ACCESS_TOKEN_TTL_SECONDS });
  const signature = createHmac('sha256', key).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

const decodeJson = (part: string): unknown => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// null for anything not a valid, unexpired token of ours: the caller answers "Token revoked or expired."
// Every authenticated request verifies one: HS256 with node:crypto, synchronously (WebCrypto's HMAC, which
// jose uses, is a thread-pool job per call). The checks are jose's jwtVerify with our issuer, HS256 only.
export function verifyAccessToken(key: Uint8Array, token: string, now: Date): AccessClaims | null {
  try {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [header, payload, signature] = parts as [string, string, string];
    const expected = createHmac('sha256', key).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const h = decodeJson(header);
    if (!isObject(h) || h.alg !== 'HS256' || h.crit !== undefined || h.b64 !== undefined) return null;
    const claims = decodeJson(payload);
    if (!isObject(claims) || claims.iss !== ISSUER) return null;
    const seconds = Math.floor(now.getTime() / 1000);
    if (typeof claims.exp !== 'number' || claims.exp <= seconds) return null;
    if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > seconds)) return null;
    if (claims.iat !== undefined && typeof claims.iat !== 'number') return null;
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return null;
    return { userId: claims.sub, sessionId: claims.sid };
  } catch {
    return null;
  }
}

export const newRefreshToken = (): string => randomBytes(32).toString('base64url');
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
