import { createDecipheriv, createHash, createHmac, createPrivateKey, pbkdf2, timingSafeEqual, type KeyObject } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { promisify } from 'node:util';
import * as asn1js from 'asn1js';
import { AuthenticatedSafe, EncryptedData, PBES2Params, PBKDF2Params, PFX, SafeContents, type AlgorithmIdentifier, type SafeBag } from 'pkijs';
import { rc2CbcDecrypt } from './rc2.ts';

// PKCS#12 (RFC 7292) read with pkijs for the structures and Node's crypto for the key derivations and ciphers, so
// the work (PBKDF2 iterations) runs on libuv's threads and a wrong password or a tampered file is told apart from a
// file that is not PKCS#12 at all. Reads the OpenSSL 3 default (PBES2 + PBKDF2-HMAC-SHA256 + AES-256-CBC, HMAC-SHA256
// MAC) and the PKCS#12 PBE-SHA1-3DES/RC2 that `openssl pkcs12 -export -legacy` and older Windows exports write
// (RC2 is not in Node's OpenSSL build: rc2.ts).

export class Pkcs12Error extends Error {
  constructor(readonly reason: 'notPkcs12' | 'wrongPassword' | 'unsupported') {
    super(reason);
  }
}

export interface Pkcs12Contents {
  /** Every X.509 certificate of the file, DER, in file order. */
  certificates: Buffer[];
  privateKeys: KeyObject[];
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  keyBag: '1.2.840.113549.1.12.10.1.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
} as const;

const DIGESTS: Record<string, { name: string; blockSize: number }> = {
  '1.3.14.3.2.26': { name: 'sha1', blockSize: 64 },
  '2.16.840.1.101.3.4.2.4': { name: 'sha224', blockSize: 64 },
  '2.16.840.1.101.3.4.2.1': { name: 'sha256', blockSize: 64 },
  '2.16.840.1.101.3.4.2.2': { name: 'sha384', blockSize: 128 },
  '2.16.840.1.101.3.4.2.3': { name: 'sha512', blockSize: 128 },
};
const PRFS: Record<string, string> = {
  '1.2.840.113549.2.7': 'sha1',
  '1.2.840.113549.2.8': 'sha224',
  '1.2.840.113549.2.9': 'sha256',
  '1.2.840.113549.2.10': 'sha384',
  '1.2.840.113549.2.11': 'sha512',
};
const PBES2_CIPHERS: Record<string, { name: string; keyLength: number }> = {
  '2.16.840.1.101.3.4.1.2': { name: 'aes-128-cbc', keyLength: 16 },
  '2.16.840.1.101.3.4.1.22': { name: 'aes-192-cbc', keyLength: 24 },
  '2.16.840.1.101.3.4.1.42': { name: 'aes-256-cbc', keyLength: 32 },
  '1.2.840.113549.3.7': { name: 'des-ede3-cbc', keyLength: 24 },
};
// RFC 7292 appendix C: the PKCS#12 PBE schemes (RC4 is left out: no tool writes it by default).
const PKCS12_PBE: Record<string, { name: string; keyLength: number; ivLength: number }> = {
  '1.2.840.113549.1.12.1.3': { name: 'des-ede3-cbc', keyLength: 24, ivLength: 8 },
  '1.2.840.113549.1.12.1.4': { name: 'des-ede-cbc', keyLength: 16, ivLength: 8 },
  '1.2.840.113549.1.12.1.5': { name: 'rc2-128-cbc', keyLength: 16, ivLength: 8 },
  '1.2.840.113549.1.12.1.6': { name: 'rc2-40-cbc', keyLength: 5, ivLength: 8 },
};
// Far past any real file (OpenSSL writes 2048; some tools 600 000), low enough that a hostile file cannot pin a thread.
const MAX_ITERATIONS = 10_000_000;

const pbkdf2Async = promisify(pbkdf2);

// An OCTET STRING's bytes, also when BER splits it into pieces or an IMPLICIT tag hides its type (encryptedContent).
function octetsOf(value: asn1js.BaseBlock): Buffer {
  if (value instanceof asn1js.OctetString) return Buffer.from(value.getValue());
  const block = value.valueBlock as { value?: asn1js.BaseBlock[]; valueHexView?: Uint8Array };
  if (value.idBlock.isConstructed) return Buffer.concat((block.value ?? []).map(octetsOf));
  return Buffer.from(block.valueHexView ?? new Uint8Array());
}

function parse<T>(read: () => T): T {
  try {
    return read();
  } catch {
    throw new Pkcs12Error('notPkcs12');
  }
}

function iterationsOf(count: number | undefined) {
  const iterations = count ?? 1;
  if (!Number.isSafeInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) throw new Pkcs12Error('unsupported');
  return iterations;
}

// The password as PKCS#12 key derivation takes it: BMPString (UTF-16 big-endian) with a two-byte terminator.
function bmpPassword(password: string) {
  const bytes = Buffer.alloc(password.length * 2 + 2);
  for (let i = 0; i < password.length; i++) bytes.writeUInt16BE(password.charCodeAt(i), i * 2);
  return bytes;
}

// RFC 7292 appendix B.2. It yields to the event loop between rounds of iterations so a long count blocks no request.
async function pkcs12Kdf(digest: { name: string; blockSize: number }, password: Buffer, salt: Buffer, id: 1 | 2 | 3, iterations: number, length: number) {
  const v = digest.blockSize;
  const fill = (source: Buffer) => {
    if (source.length === 0) return Buffer.alloc(0);
    const out = Buffer.alloc(v * Math.ceil(source.length / v));
    for (let i = 0; i < out.length; i++) out[i] = source[i % source.length]!;
    return out;
  };
  const d = Buffer.alloc(v, id);
  const input = Buffer.concat([fill(salt), fill(password)]);
  const parts: Buffer[] = [];
  let produced = 0;
  while (produced < length) {
    let a = createHash(digest.name).update(d).update(input).digest();
    for (let i = 1; i < iterations; i++) {
      a = createHash(digest.name).update(a).digest();
      if (i % 4096 === 0) await yieldToEventLoop();
    }
    parts.push(a);
    produced += a.length;
    if (produced >= length) break;
    const b = Buffer.alloc(v);
    for (let i = 0; i < v; i++) b[i] = a[i % a.length]!;
    // I_j = (I_j + B + 1) mod 2^(8v), each v-byte block of I as a big-endian number.
    for (let j = 0; j < input.length; j += v) {
      let carry = 1;
      for (let k = v - 1; k >= 0; k--) {
        const sum = input[j + k]! + b[k]! + carry;
        input[j + k] = sum & 0xff;
        carry = sum >> 8;
      }
    }
  }
  return Buffer.concat(parts).subarray(0, length);
}

interface Password {
  utf8: Buffer;
  bmp: Buffer;
}

async function verifyMac(pfx: PFX, content: Buffer, password: string): Promise<Password> {
  const macData = pfx.macData!;
  const digest = DIGESTS[macData.mac.digestAlgorithm.algorithmId];
  if (!digest) throw new Pkcs12Error('unsupported');
  const salt = octetsOf(macData.macSalt);
  const iterations = iterationsOf(macData.iterations);
  const expected = octetsOf(macData.mac.digest);
  // An empty password is written by some tools as a lone terminator and by others as nothing at all (OpenSSL tries both).
  const candidates = password === '' ? [bmpPassword(''), Buffer.alloc(0)] : [bmpPassword(password)];
  for (const bmp of candidates) {
    const key = await pkcs12Kdf(digest, bmp, salt, 3, iterations, createHash(digest.name).digest().length);
    const mac = createHmac(digest.name, key).update(content).digest();
    if (mac.length === expected.length && timingSafeEqual(mac, expected)) return { utf8: Buffer.from(password, 'utf8'), bmp };
  }
  throw new Pkcs12Error('wrongPassword');
}

function decipher(name: string, key: Buffer, iv: Buffer, data: Buffer) {
  try {
    if (name.startsWith('rc2-')) return rc2CbcDecrypt(key, key.length * 8, iv, data);
    const d = createDecipheriv(name, key, iv);
    return Buffer.concat([d.update(data), d.final()]);
  } catch {
    // Bad padding: the key was wrong (a file without a MAC has no other check of the password).
    throw new Pkcs12Error('wrongPassword');
  }
}

async function decrypt(algorithm: AlgorithmIdentifier, data: Buffer, password: Password): Promise<Buffer> {
  const oid = algorithm.algorithmId;
  if (oid === OID.pbes2) {
    const params = parse(() => new PBES2Params({ schema: algorithm.algorithmParams }));
    if (params.keyDerivationFunc.algorithmId !== OID.pbkdf2) throw new Pkcs12Error('unsupported');
    const kdf = parse(() => new PBKDF2Params({ schema: params.keyDerivationFunc.algorithmParams }));
    const cipher = PBES2_CIPHERS[params.encryptionScheme.algorithmId];
    const prf = kdf.prf ? PRFS[kdf.prf.algorithmId] : 'sha1';
    if (!cipher || !prf || !(kdf.salt instanceof asn1js.OctetString)) throw new Pkcs12Error('unsupported');
    const ivParam = params.encryptionScheme.algorithmParams as unknown;
    if (!(ivParam instanceof asn1js.OctetString)) throw new Pkcs12Error('unsupported');
    const key = await pbkdf2Async(password.utf8, octetsOf(kdf.salt), iterationsOf(kdf.iterationCount), cipher.keyLength, prf);
    return decipher(cipher.name, key, octetsOf(ivParam), data);
  }
  const pbe = PKCS12_PBE[oid];
  if (!pbe) throw new Pkcs12Error('unsupported');
  // pkcs-12PbeParams ::= SEQUENCE { salt OCTET STRING, iterations INTEGER }
  const params = algorithm.algorithmParams as unknown;
  const [salt, count] = params instanceof asn1js.Sequence ? params.valueBlock.value : [];
  if (!(salt instanceof asn1js.OctetString) || !(count instanceof asn1js.Integer)) throw new Pkcs12Error('notPkcs12');
  const sha1 = DIGESTS['1.3.14.3.2.26']!;
  const iterations = iterationsOf(count.valueBlock.valueDec);
  const key = await pkcs12Kdf(sha1, password.bmp, octetsOf(salt), 1, iterations, pbe.keyLength);
  const iv = await pkcs12Kdf(sha1, password.bmp, octetsOf(salt), 2, iterations, pbe.ivLength);
  return decipher(pbe.name, key, iv, data);
}

function privateKeyOf(pkcs8: Buffer) {
  try {
    return createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  } catch {
    throw new Pkcs12Error('wrongPassword');
  }
}

async function readBags(bags: SafeBag[], password: Password, into: Pkcs12Contents) {
  for (const bag of bags) {
    if (bag.bagId === OID.certBag) {
      const certBag = bag.bagValue as unknown as { certId: string; certValue: asn1js.OctetString };
      if (certBag.certId === OID.x509Certificate) into.certificates.push(octetsOf(certBag.certValue));
    } else if (bag.bagId === OID.shroudedKeyBag) {
      const shrouded = bag.bagValue as unknown as { encryptionAlgorithm: AlgorithmIdentifier; encryptedData: asn1js.OctetString };
      into.privateKeys.push(privateKeyOf(await decrypt(shrouded.encryptionAlgorithm, octetsOf(shrouded.encryptedData), password)));
    } else if (bag.bagId === OID.keyBag) {
      into.privateKeys.push(privateKeyOf(Buffer.from((bag.bagValue as unknown as { toSchema(): asn1js.Sequence }).toSchema().toBER())));
    }
    // CRL, secret and nested bags carry nothing a Direct certificate needs.
  }
}

/** The certificates and private keys of a PKCS#12 file; throws Pkcs12Error. */
export async function readPkcs12(bytes: Uint8Array, password: string): Promise<Pkcs12Contents> {
  const pfx = parse(() => PFX.fromBER(bytes));
  // Public-key integrity mode (signedData) is never used for a certificate and its key in practice.
  if (pfx.authSafe.contentType !== OID.data || !(pfx.authSafe.content instanceof asn1js.OctetString)) throw new Pkcs12Error('unsupported');
  const content = octetsOf(pfx.authSafe.content);
  const checked = pfx.macData ? await verifyMac(pfx, content, password) : { utf8: Buffer.from(password, 'utf8'), bmp: bmpPassword(password) };
  const authSafe = parse(() => AuthenticatedSafe.fromBER(content));
  const found: Pkcs12Contents = { certificates: [], privateKeys: [] };
  for (const info of authSafe.safeContents) {
    let safeContents: Buffer;
    if (info.contentType === OID.data) {
      if (!(info.content instanceof asn1js.OctetString)) throw new Pkcs12Error('notPkcs12');
      safeContents = octetsOf(info.content);
    } else if (info.contentType === OID.encryptedData) {
      const encrypted = parse(() => new EncryptedData({ schema: info.content }));
      const { contentEncryptionAlgorithm, encryptedContent } = encrypted.encryptedContentInfo;
      if (!encryptedContent) throw new Pkcs12Error('notPkcs12');
      safeContents = await decrypt(contentEncryptionAlgorithm, octetsOf(encryptedContent), checked);
    } else {
      throw new Pkcs12Error('unsupported');
    }
    const { safeBags } = parse(() => SafeContents.fromBER(safeContents));
    await readBags(safeBags, checked, found);
  }
  return found;
}
