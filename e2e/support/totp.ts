import { createHmac } from 'node:crypto';

// RFC 6238 (SHA-1, 6 digits, 30 s), as an authenticator app computes it from the secret the security page shows.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(secret: string): Buffer {
  const bits = [...secret.toUpperCase()].map((ch) => ALPHABET.indexOf(ch)).filter((v) => v >= 0).map((v) => v.toString(2).padStart(5, '0')).join('');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The code of the time step `stepOffset` steps from now. */
export function totpCode(secret: string, stepOffset = 0, at = new Date()): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(Math.floor(at.getTime() / 30_000) + stepOffset));
  const hash = createHmac('sha1', base32Decode(secret)).update(message).digest();
  const offset = hash[hash.length - 1]! & 0xf;
  return ((hash.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, '0');
}
