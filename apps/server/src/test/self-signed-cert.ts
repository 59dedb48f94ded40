import { generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';

// A self-signed X.509 v3 certificate (P-256, ECDSA with SHA-256) for test servers on 127.0.0.1, written as
// DER by hand with node:crypto alone: no certificate package and no openssl binary needed.

const length = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const sequence = (...items: Buffer[]) => tlv(0x30, ...items);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

const utcTime = (d: Date) => tlv(0x17, Buffer.from(`${d.toISOString().slice(2, 19).replace(/[-:T]/g, '')}Z`, 'ascii'));
const commonName = (cn: string) => sequence(tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(cn, 'utf8')))));

export interface TestCertificate {
  certPem: string;
  keyPem: string;
}

// Valid from an hour ago for a day, for the names a test connects with (localhost and 127.0.0.1).
export function selfSignedCertificate(name = 'localhost', ip = '127.0.0.1'): TestCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'));
  const serial = randomBytes(16);
  // A positive INTEGER in minimal DER: a leading 0x00 byte would be illegal padding (a 1-in-256 flaky failure).
  serial[0] = (serial[0]! & 0x7f) | 0x40;
  const now = Date.now();
  const subjectAltName = sequence(tlv(0x82, Buffer.from(name, 'ascii')), tlv(0x87, Buffer.from(ip.split('.').map(Number))));
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // version 3
    tlv(0x02, serial),
    ecdsaWithSha256,
    commonName(name),
    sequence(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 86_400_000))),
    commonName(name),
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, sequence(sequence(oid('2.5.29.17'), tlv(0x04, subjectAltName)))),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, ecdsaWithSha256, tlv(0x03, Buffer.from([0]), signature));
  const certPem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
  // Parsing it back proves the encoding before any server uses it.
  if (!new X509Certificate(certPem).checkIP(ip)) throw new Error('the generated certificate does not name its IP address');
  return { certPem, keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
