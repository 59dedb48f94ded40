// RC2 decryption (RFC 2268), CBC. Only for reading PKCS#12 files whose certificate bag is under
// pbeWithSHAAnd40BitRC2-CBC, what `openssl pkcs12 -export -legacy` and older Windows exports write: Node's OpenSSL
// build has no RC2. It decrypts public certificates only; no key or message ever goes through it.

// RFC 2268 §2: the "random" permutation of 0..255 built from the digits of pi.
const PITABLE = Buffer.from(
  'd978f9c419ddb5ed28e9fd794aa0d89dc67e37832b76538e624c6488448bfba2179a59f587b34f1361456d8d09817d32' +
    'bd8f40eb86b77b0bf09521225c6b4e8254d66593ce60b21c7356c014a78cf1dc1275ca1f3bbee4d1423dd430a33cb626' +
    '6fbf0eda4669075727f21d9bbc944303f811c7f690ef3ee706c3d52fc8661ed708e8eade8052eef784aa72ac354d6a2a' +
    '961ad2715a1549744b9fd05e0418a4ecc2e0416e0f51cbcc2491af50a1f47039997c3a8523b8b47afc02365b25559731' +
    '2d5dfa98e38a92ae05df2910676cbac9d300e6cfe19ea82c6316013f58e289a90d38341bab33ffb0bb480c5fb9b1cd2e' +
    'c5f3db47e5a59c770aa62068fe7fc1ad',
  'hex',
);

function expandKey(key: Uint8Array, effectiveBits: number): Uint16Array {
  const l = new Uint8Array(128);
  l.set(key);
  for (let i = key.length; i < 128; i++) l[i] = PITABLE[(l[i - 1]! + l[i - key.length]!) & 0xff]!;
  const t8 = Math.ceil(effectiveBits / 8);
  const tm = 0xff >> (8 * t8 - effectiveBits);
  l[128 - t8] = PITABLE[l[128 - t8]! & tm]!;
  for (let i = 127 - t8; i >= 0; i--) l[i] = PITABLE[l[i + 1]! ^ l[i + t8]!]!;
  const k = new Uint16Array(64);
  for (let i = 0; i < 64; i++) k[i] = l[2 * i]! | (l[2 * i + 1]! << 8);
  return k;
}

const SHIFTS = [1, 2, 3, 5];

function decryptBlock(k: Uint16Array, block: Uint8Array, out: Uint8Array) {
  const r = [0, 1, 2, 3].map((i) => block[2 * i]! | (block[2 * i + 1]! << 8));
  let j = 63;
  const mixRounds = (count: number) => {
    for (let round = 0; round < count; round++) {
      for (let i = 3; i >= 0; i--) {
        const s = SHIFTS[i]!;
        r[i] = ((r[i]! >>> s) | (r[i]! << (16 - s))) & 0xffff;
        r[i] = (r[i]! - k[j--]! - (r[(i + 3) & 3]! & r[(i + 2) & 3]!) - (~r[(i + 3) & 3]! & r[(i + 1) & 3]!)) & 0xffff;
      }
    }
  };
  const mash = () => {
    for (let i = 3; i >= 0; i--) r[i] = (r[i]! - k[r[(i + 3) & 3]! & 63]!) & 0xffff;
  };
  mixRounds(5);
  mash();
  mixRounds(6);
  mash();
  mixRounds(5);
  for (let i = 0; i < 4; i++) {
    out[2 * i] = r[i]! & 0xff;
    out[2 * i + 1] = r[i]! >> 8;
  }
}

/** Decrypts one RC2 block (for the RFC 2268 test vectors). */
export function rc2DecryptBlock(key: Uint8Array, effectiveBits: number, block: Uint8Array): Buffer {
  const out = Buffer.alloc(8);
  decryptBlock(expandKey(key, effectiveBits), block, out);
  return out;
}

/** RC2-CBC decryption with PKCS#7 padding removed; throws on a bad length or padding (a wrong key). */
export function rc2CbcDecrypt(key: Uint8Array, effectiveBits: number, iv: Uint8Array, data: Uint8Array): Buffer {
  if (data.length === 0 || data.length % 8 !== 0 || iv.length !== 8) throw new Error('RC2: bad length');
  const k = expandKey(key, effectiveBits);
  const out = Buffer.alloc(data.length);
  let previous = iv;
  for (let offset = 0; offset < data.length; offset += 8) {
    const block = data.subarray(offset, offset + 8);
    const plain = out.subarray(offset, offset + 8);
    decryptBlock(k, block, plain);
    for (let i = 0; i < 8; i++) plain[i] = plain[i]! ^ previous[i]!;
    previous = block;
  }
  const pad = out[out.length - 1]!;
  if (pad < 1 || pad > 8 || !out.subarray(out.length - pad).every((b) => b === pad)) throw new Error('RC2: bad padding');
  return out.subarray(0, out.length - pad);
}
