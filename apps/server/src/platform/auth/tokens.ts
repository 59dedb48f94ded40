import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '@clinicrelay/contracts/constants.ts';

const ISSUER = 'clinicrelay';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

// jose turns raw key bytes into a CryptoKey on every call (an importKey): once per key.
const cryptoKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function cryptoKeyOf(key: Uint8Array): Promise<CryptoKey> {
  let cached = cryptoKeys.get(key);
  if (!cached) {
    cached = crypto.subtle.importKey('raw', new Uint8Array(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    cryptoKeys.set(key, cached);
  }
  return cached;
}

export async function signAccessToken(key: Uint8Array, claims: AccessClaims, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(await cryptoKeyOf(key));
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
