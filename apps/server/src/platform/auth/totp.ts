import { createHmac, timingSafeEqual } from 'node:crypto';

// RFC 6238 TOTP (SHA-1, 6 digits, 30 s steps) as authenticator apps use; one step of drift allowed.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(secret: string): Buffer {
  let bits = '';
  for (const ch of secret.replace(/=+$/, '').toUpperCase()) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) continue;
    bits += v.toString(2).padStart(5, '0');
  }
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

const STEP_MS = 30_000;

export const totpStep = (at: Date): number => Math.floor(at.getTime() / STEP_MS);

export function totpCode(secret: string, at: Date, stepOffset = 0): string {
  const counter = totpStep(at) + stepOffset;
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const h = createHmac('sha1', base32Decode(secret)).update(msg).digest();
  const offset = h[h.length - 1]! & 0xf;
  const code = (h.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return code.toString().padStart(6, '0');
}

/**
 * The time step the code belongs to (current one, or one step of drift either way), or null. A step at
 * or before lastAcceptedStep is refused, so a code that was used, or one older than it, never works again.
 */
export function acceptTotp(secret: string, code: string, at: Date, lastAcceptedStep: number | null): number | null {
  const given = Buffer.from(code.replace(/\s/g, ''));
  for (const offset of [-1, 0, 1]) {
    const step = totpStep(at) + offset;
    if (lastAcceptedStep !== null && step <= lastAcceptedStep) continue;
    const expected = Buffer.from(totpCode(secret, at, offset));
    if (expected.length === given.length && timingSafeEqual(expected, given)) return step;
  }
  return null;
}
