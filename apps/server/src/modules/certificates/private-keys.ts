import { createCipheriv, createDecipheriv, createHash, createPrivateKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';

// Certificate private keys at rest: PKCS#8 DER under AES-256-GCM with a key derived (HKDF-SHA256) from
// BLOB_ENCRYPTION_KEY, so one secret protects stored data yet a key for blobs never decrypts a private key. The
// certificate's SHA-256 is the associated data: a key row moved under another certificate fails to open.
const INFO = 'clinicrelay/certificate-private-keys/v1';

const wrappingKey = (masterKey: Uint8Array) => Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), INFO, 32));
const aadOf = (certificateDer: Uint8Array) => createHash('sha256').update(certificateDer).digest();

export interface SealedKey {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
}

export function sealPrivateKey(masterKey: Uint8Array, privateKey: KeyObject, certificateDer: Uint8Array): SealedKey {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', wrappingKey(masterKey), iv);
  cipher.setAAD(aadOf(certificateDer));
  const ciphertext = Buffer.concat([cipher.update(privateKey.export({ format: 'der', type: 'pkcs8' })), cipher.final()]);
  return { ciphertext, iv, tag: cipher.getAuthTag() };
}

export function openPrivateKey(masterKey: Uint8Array, sealed: { ciphertext: Uint8Array; iv: Uint8Array; tag: Uint8Array }, certificateDer: Uint8Array): KeyObject {
  const decipher = createDecipheriv('aes-256-gcm', wrappingKey(masterKey), sealed.iv);
  decipher.setAAD(aadOf(certificateDer));
  decipher.setAuthTag(sealed.tag);
  const der = Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
}
