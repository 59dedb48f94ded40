import { createHmac, timingSafeEqual } from 'node:crypto';

// Stateless link tokens (email confirmation, set-password links): a subject id, an optional kind and an expiry,
// signed with the token key, the link's purpose and a binding value of the subject's current state. Changing that
// state (setting a password, confirming an email) uses up every link issued before; no table is needed.
// Token: base64url("<subjectId>[.<kind>].<expiresAtMs>") "." base64url(HMAC-SHA256 of "<purpose>\n<payload>\n<binding>").

const sign = (key: Uint8Array, purpose: string, payload: string, binding: string) =>
  createHmac('sha256', key).update(`${purpose}\n${payload}\n${binding}`).digest('base64url');

/** `kind` (no dots) travels in the token, readable before the check: which of a purpose's links it is. */
export function createSignedToken(key: Uint8Array, purpose: string, subjectId: string, binding: string, expiresAt: Date, kind?: string) {
  const payload = [subjectId, ...(kind === undefined ? [] : [kind]), expiresAt.getTime()].join('.');
  return `${Buffer.from(payload).toString('base64url')}.${sign(key, purpose, payload, binding)}`;
}

/** The token's subject, kind and expiry, unchecked: look the subject up, then call `verify` with its binding. */
export function readSignedToken(token: string) {
  const [encoded, sig, extra] = token.split('.');
  if (!encoded || !sig || extra !== undefined) return undefined;
  const payload = Buffer.from(encoded, 'base64url').toString();
  const parts = payload.split('.');
  if (parts.length !== 2 && parts.length !== 3) return undefined;
  const subjectId = parts[0]!;
  const kind = parts.length === 3 ? parts[1] : undefined;
  const expiresAt = Number(parts.at(-1));
  if (!/^[0-9a-f-]{36}$/i.test(subjectId) || !Number.isSafeInteger(expiresAt)) return undefined;
  return {
    subjectId,
    kind,
    expiresAt: new Date(expiresAt),
    verify: (key: Uint8Array, purpose: string, binding: string) => {
      const expected = Buffer.from(sign(key, purpose, payload, binding));
      const given = Buffer.from(sig);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
