import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS } from '@clinicrelay/contracts/constants.ts';
import { signAccessToken, verifyAccessToken } from './tokens.ts';

const key = randomBytes(32);
const claims = { userId: '5d0c3f2e-8a37-4c36-9b5e-0f6f3f1b8a11', sessionId: '1b7b3c7e-4a0e-4d8a-8f1e-2c9d7e6a5b4c' };
const now = new Date('2026-03-02T10:00:00Z');
const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('access tokens', () => {
  it('gives back the claims of a token it signed, until it expires', async () => {
    const token = await signAccessToken(key, claims, now);
    expect(verifyAccessToken(key, token, now)).toEqual(claims);
    expect(verifyAccessToken(key, token, new Date(now.getTime() + (ACCESS_TOKEN_TTL_SECONDS - 1) * 1000))).toEqual(claims);
    expect(verifyAccessToken(key, token, new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000))).toBeNull();
  });

  it('refuses a token signed with another key, altered, unsigned or not a token at all', async () => {
    const token = await signAccessToken(key, claims, now);
    expect(verifyAccessToken(randomBytes(32), token, now)).toBeNull();
    const [header, , signature] = token.split('.');
    const altered = part({ sub: 'someone-else', sid: claims.sessionId, iss: 'clinicrelay', iat: 1, exp: 4102444800 });
    expect(verifyAccessToken(key, `${header}.${altered}.${signature}`, now)).toBeNull();
    expect(verifyAccessToken(key, `${part({ alg: 'none' })}.${token.split('.')[1]}.`, now)).toBeNull();
    for (const garbage of ['', 'a.b', 'a.b.c.d', 'not a token', `${token}x`]) expect(verifyAccessToken(key, garbage, now)).toBeNull();
  });

  it('refuses a well-signed token of another issuer, algorithm, or without the session', async () => {
    const sign = (payload: Record<string, unknown>, alg = 'HS256') =>
      new SignJWT(payload).setProtectedHeader({ alg }).setIssuedAt(Math.floor(now.getTime() / 1000)).setExpirationTime('1h').sign(key);
    expect(verifyAccessToken(key, await sign({ sub: claims.userId, sid: claims.sessionId, iss: 'someone-else' }), now)).toBeNull();
    expect(verifyAccessToken(key, await sign({ sub: claims.userId, iss: 'clinicrelay' }), now)).toBeNull();
    expect(verifyAccessToken(key, await sign({ sub: claims.userId, sid: claims.sessionId, iss: 'clinicrelay' }, 'HS512'), now)).toBeNull();
    expect(verifyAccessToken(key, await sign({ sub: claims.userId, sid: claims.sessionId, iss: 'clinicrelay', nbf: Math.floor(now.getTime() / 1000) + 60 }), now)).toBeNull();
    expect(verifyAccessToken(key, await sign({ sub: claims.userId, sid: claims.sessionId, iss: 'clinicrelay' }), now)).toEqual(claims);
  });
});
