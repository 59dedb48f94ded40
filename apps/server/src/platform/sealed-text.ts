import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// Short secrets at rest (a webhook's HMAC secret, bearer token or Basic password): AES-256-GCM under a key derived
// (HKDF-SHA256) from BLOB_ENCRYPTION_KEY for one purpose, as certificates/private-keys.ts does for private keys, so one
// secret protects stored data yet a key for one purpose opens nothing else. The owning row's id is the associated data:
// a value copied to another row fails to open. Stored as text: `sealed:v1:<iv>.<tag>.<ciphertext>` (base64url).
const PREFIX = 'sealed:v1:';

const keyFor = (masterKey: Uint8Array, purpose: string) => Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `clinicrelay/${purpose}/v1`, 32));

export const isSealedText = (stored: string) => stored.startsWith(PREFIX);

export function sealText(masterKey: Uint8Array, purpose: string, plaintext: string, associatedData: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(masterKey, purpose), iv);
  cipher.setAAD(Buffer.from(associatedData));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${PREFIX}${[iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url')).join('.')}`;
}

// A value stored before sealing existed (no prefix) is read as it is: such rows keep working and are sealed when next saved.
export function openText(masterKey: Uint8Array, purpose: string, stored: string, associatedData: string): string {
  if (!isSealedText(stored)) return stored;
  const [iv, tag, ciphertext] = stored.slice(PREFIX.length).split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !ciphertext) throw new Error('A sealed value is damaged.');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(masterKey, purpose), iv);
  decipher.setAAD(Buffer.from(associatedData));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}
