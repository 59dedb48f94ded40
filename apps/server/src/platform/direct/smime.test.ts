import * as fc from 'fast-check';
import { constants, privateDecrypt, publicEncrypt, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueDirectCertificate, type CertificateAuthority, type IssuedCertificate } from './certificate-authority.ts';
import { decryptEntity, encryptEntity, headerValue, signEntity, SmimeError, splitEntity, toCrlf, verifySignedEntity, type RecipientKey } from './smime.ts';
import { verifyChain } from './trust.ts';

// Lakeside signs a referral and encrypts it for Riverview (an address certificate) and Hillcrest (a domain
// certificate); each opens it with its own key and verifies Lakeside's signature over the exact bytes sent.
// Altered, unsigned, misaddressed and damaged messages are refused with a code and a plain reason.

let ca: CertificateAuthority;
let lakeside: IssuedCertificate;
let riverview: IssuedCertificate;
let hillcrest: IssuedCertificate;
let stranger: IssuedCertificate;

beforeAll(async () => {
  ca = await createCertificateAuthority({ commonName: 'ClinicRelay Demo CA', organization: 'ClinicRelay Demo', validDays: 3650 });
  const otherCa = await createCertificateAuthority({ commonName: 'Stranger CA', organization: 'Stranger', validDays: 3650 });
  [lakeside, riverview, hillcrest, stranger] = await Promise.all([
    issueDirectCertificate(ca, { address: 'ann.carter@direct.lakeside.example.org', usage: 'both', validDays: 365 }),
    issueDirectCertificate(ca, { address: 'referrals@direct.riverview.example.org', usage: 'encryption', validDays: 365 }),
    issueDirectCertificate(ca, { domain: 'direct.hillcrest.example.org', usage: 'both', validDays: 365 }),
    issueDirectCertificate(otherCa, { domain: 'direct.stranger.example.org', usage: 'both', validDays: 365 }),
  ]);
});

const keyOf = (issued: IssuedCertificate): RecipientKey => ({ certificate: issued.certificateDer, privateKey: issued.privateKey });
const signer = () => ({ certificate: lakeside.certificateDer, privateKey: lakeside.privateKey, chain: [ca.certificateDer] });

// A Direct message wrapped as message/rfc822, as the transport signs it.
const referral = (body = 'Please see the attached referral for Jane Doe.') =>
  toCrlf(
    Buffer.from(
      'Content-Type: message/rfc822\n\n' +
        'From: ann.carter@direct.lakeside.example.org\nTo: referrals@direct.riverview.example.org\nSubject: Referral\n' +
        `Message-ID: <referral-1@direct.lakeside.example.org>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=us-ascii\n\n${body}\n`,
    ),
  );

async function refusal(promise: Promise<unknown>): Promise<SmimeError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SmimeError);
  return error as SmimeError;
}

const b64 = (body: Buffer) => Buffer.from(body.toString('latin1'), 'base64');
const rewrap = (entity: Buffer, der: Buffer) =>
  Buffer.concat([Buffer.from(`${splitEntity(entity).header}\r\n\r\n`), Buffer.from(`${der.toString('base64').replace(/.{76}/g, '$&\r\n')}\r\n`)]);

describe('sign, encrypt, decrypt and verify', () => {
  it.each(['aes-128-cbc', 'aes-256-cbc'] as const)('round-trips with %s for two recipients, each opening it with its own key', async (cipher) => {
    const entity = referral();
    const signed = await signEntity(entity, signer());
    const encrypted = await encryptEntity(signed, [riverview.certificateDer, hillcrest.certificateDer], cipher);
    for (const recipient of [riverview, hillcrest]) {
      const opened = await decryptEntity(encrypted, [keyOf(recipient)]);
      expect(opened.entity.equals(signed)).toBe(true);
      expect(opened.cipher).toBe(cipher);
      expect(opened.keyTransport).toBe('RSAES-OAEP');
      expect(opened.recipientCertificate).toBe(recipient.certificateDer);

      const verified = await verifySignedEntity(opened.entity);
      expect(verified.content.equals(entity)).toBe(true);
      expect(verified.signer.equals(lakeside.certificateDer)).toBe(true);
      expect(verified.certificates.map((der) => der.toString('hex'))).toEqual([lakeside.certificateDer, ca.certificateDer].map((der) => Buffer.from(der).toString('hex')));
      expect(verified.digestAlgorithm).toBe('sha-256');
      expect(Math.abs(verified.signingTime!.getTime() - Date.now())).toBeLessThan(60_000);
      // What the caller does next: trust, with the certificates the message carries as intermediates.
      expect(verifyChain(verified.signer, [ca.certificateDer], new Date(), verified.certificates)).toEqual({ ok: true });
    }
  });

  it('writes multipart/signed and application/pkcs7-mime entities with CRLF lines and 76-character base64', async () => {
    const signed = await signEntity(referral(), signer());
    const { header, body } = splitEntity(signed);
    expect(headerValue(header, 'Content-Type')).toMatch(
      /^multipart\/signed; protocol="application\/pkcs7-signature"; micalg=sha-256;\s+boundary="(----=_Signed_[0-9a-f]{32})"$/,
    );
    const boundary = /boundary="([^"]+)"/.exec(headerValue(header, 'content-type')!)![1]!;
    const text = body.toString('latin1');
    expect(text.startsWith(`--${boundary}\r\n${referral().toString('latin1')}\r\n--${boundary}\r\n`)).toBe(true);
    expect(text).toContain('Content-Type: application/pkcs7-signature; name="smime.p7s"\r\nContent-Transfer-Encoding: base64\r\n');
    expect(text).toContain('Content-Disposition: attachment; filename="smime.p7s"\r\n');
    expect(text.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);

    const encrypted = await encryptEntity(signed, [riverview.certificateDer]);
    const enveloped = splitEntity(encrypted);
    expect(enveloped.header).toBe(
      'Content-Type: application/pkcs7-mime; smime-type=enveloped-data; name="smime.p7m"\r\n' +
        'Content-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename="smime.p7m"',
    );
    for (const entity of [signed, encrypted]) {
      expect(entity.toString('latin1')).not.toMatch(/[^\r]\n|\r[^\n]/);
    }
    const lines = enveloped.body.toString('latin1').split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines.slice(0, -1).every((line) => line.length === 76)).toBe(true);
    expect(lines.at(-1)!.length).toBeLessThanOrEqual(76);
  });

  it('signs and encrypts an entity with lone LF or CR line ends as CRLF', async () => {
    const bare = Buffer.from('Content-Type: text/plain\n\nfirst line\rsecond line\nthird\n');
    const opened = await decryptEntity(await encryptEntity(await signEntity(bare, signer()), [riverview.certificateDer]), [keyOf(riverview)]);
    expect((await verifySignedEntity(opened.entity)).content.toString()).toBe('Content-Type: text/plain\r\n\r\nfirst line\r\nsecond line\r\nthird\r\n');
  });

  it('finds its own key among several, and reads application/x-pkcs7-mime', async () => {
    const encrypted = await encryptEntity(referral(), [hillcrest.certificateDer]);
    const legacy = Buffer.from(encrypted.toString('latin1').replace('application/pkcs7-mime', 'application/x-pkcs7-mime'), 'latin1');
    const opened = await decryptEntity(legacy, [keyOf(stranger), keyOf(riverview), keyOf(hillcrest)]);
    expect(opened.recipientCertificate).toBe(hillcrest.certificateDer);
    expect(opened.entity.equals(referral())).toBe(true);
  });

  it.each([1, 20])('round-trips a %i MB entity', async (megabytes) => {
    const attachment = randomBytes(megabytes * 786_432).toString('base64').replace(/.{76}/g, '$&\r\n');
    const entity = Buffer.from(`Content-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n${attachment}\r\n`);
    expect(entity.length).toBeGreaterThan(megabytes * 1_000_000);
    const encrypted = await encryptEntity(await signEntity(entity, signer()), [riverview.certificateDer]);
    const verified = await verifySignedEntity((await decryptEntity(encrypted, [keyOf(riverview)])).entity);
    expect(verified.content.equals(entity)).toBe(true);
  });
});

describe('refusals', () => {
  it('refuses content altered after signing, and a signature value altered, as BadSignature', async () => {
    const signed = await signEntity(referral('Dose: 5 mg'), signer());
    const altered = Buffer.from(signed.toString('latin1').replace('Dose: 5 mg', 'Dose: 9 mg'), 'latin1');
    const changed = await refusal(verifySignedEntity(altered));
    expect(changed.code).toBe('BadSignature');
    expect(changed.message).toBe('The signed content was changed after it was signed: its digest does not match the signature.');

    // The RSA signature value is the last thing in the SignedData: flip its last bit.
    const text = signed.toString('latin1');
    const boundary = /boundary="([^"]+)"/.exec(text)![1]!;
    const start = text.indexOf('\r\n\r\n', text.indexOf('application/pkcs7-signature; name')) + 4;
    const end = text.lastIndexOf(`--${boundary}--`);
    const der = b64(Buffer.from(text.slice(start, end)));
    der[der.length - 1] = der[der.length - 1]! ^ 0x01;
    const forged = `${text.slice(0, start)}${der.toString('base64')}\r\n${text.slice(end)}`;
    const bad = await refusal(verifySignedEntity(Buffer.from(forged, 'latin1')));
    expect(bad.code).toBe('BadSignature');
    expect(bad.message).toBe("The signature does not match the signed content and the signer's certificate.");
  });

  it('refuses a message that is only encrypted as NotSigned, before and after decryption', async () => {
    const encrypted = await encryptEntity(referral(), [riverview.certificateDer]);
    const opened = await decryptEntity(encrypted, [keyOf(riverview)]);
    const unsigned = await refusal(verifySignedEntity(opened.entity));
    expect(unsigned.code).toBe('NotSigned');
    expect(unsigned.message).toBe('The message is not signed (its content type is message/rfc822).');
    const still = await refusal(verifySignedEntity(encrypted));
    expect([still.code, still.message]).toEqual(['NotSigned', 'The message is encrypted: decrypt it before checking its signature.']);
  });

  it('refuses a plain message as NotEncrypted', async () => {
    const plain = await refusal(decryptEntity(referral(), [keyOf(riverview)]));
    expect([plain.code, plain.message]).toEqual(['NotEncrypted', 'The message is not encrypted (its content type is message/rfc822).']);
    const signedOnly = await refusal(decryptEntity(await signEntity(referral(), signer()), [keyOf(riverview)]));
    expect(signedOnly.code).toBe('NotEncrypted');
  });

  it('refuses a message for someone else as NoMatchingKey', async () => {
    const encrypted = await encryptEntity(referral(), [riverview.certificateDer, hillcrest.certificateDer]);
    const error = await refusal(decryptEntity(encrypted, [keyOf(stranger)]));
    expect(error.code).toBe('NoMatchingKey');
    expect(error.message).toBe('The message is not encrypted for any of our certificates, so it cannot be decrypted here.');
  });

  it('refuses a key that does not belong to the named certificate as DecryptFailed', async () => {
    const encrypted = await encryptEntity(referral(), [riverview.certificateDer]);
    const error = await refusal(decryptEntity(encrypted, [{ certificate: riverview.certificateDer, privateKey: stranger.privateKey }]));
    expect(error.code).toBe('DecryptFailed');
    expect(error.message).toBe('The message could not be decrypted with our key: it was encrypted for another key, or it is damaged.');
  });

  it('refuses to sign with a key that is not the signer certificate’s', async () => {
    const error = await refusal(signEntity(referral(), { certificate: lakeside.certificateDer, privateKey: stranger.privateKey }));
    expect([error.code, error.message]).toEqual(['Malformed', 'The signing key does not belong to the signer certificate.']);
  });
});

// PKCS#1 v1.5 key transport, built here from our own OAEP output: the content key is recovered with the
// recipient's key, wrapped again in a hand-made v1.5 block (valid or broken), and put back.
describe('PKCS#1 v1.5 key transport with implicit rejection', () => {
  const OAEP_RECIPIENT = Buffer.from('06092a864886f70d010107300004820100', 'hex');
  const V15_RECIPIENT = Buffer.from('06092a864886f70d0101010500' + '04820100', 'hex');

  async function withV15Block(block: (contentKey: Buffer) => Buffer): Promise<Buffer> {
    const encrypted = await encryptEntity(referral(), [riverview.certificateDer]);
    const der = b64(splitEntity(encrypted).body);
    const at = der.indexOf(OAEP_RECIPIENT);
    const keyAt = at + OAEP_RECIPIENT.length;
    const oaepKey = der.subarray(keyAt, keyAt + 256);
    const contentKey = privateDecrypt({ key: riverview.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' }, oaepKey);
    const wrapped = publicEncrypt({ key: riverview.privateKey, padding: constants.RSA_NO_PADDING }, block(contentKey));
    return rewrap(encrypted, Buffer.concat([der.subarray(0, at), V15_RECIPIENT, wrapped, der.subarray(keyAt + 256)]));
  }

  // EM = 00 || 02 || PS (non-zero) || 00 || key, 256 bytes for RSA 2048.
  const em = (contentKey: Buffer, change: (block: Buffer, separator: number) => void = () => {}) => {
    const block = Buffer.alloc(256);
    const separator = 255 - contentKey.length;
    block[1] = 0x02;
    for (let i = 2; i < separator; i++) block[i] = 1 + (i % 255);
    contentKey.copy(block, separator + 1);
    change(block, separator);
    return block;
  };

  it('opens a well-formed block', async () => {
    const opened = await decryptEntity(await withV15Block((key) => em(key)), [keyOf(riverview)]);
    expect(opened.keyTransport).toBe('RSAES-PKCS1-v1_5');
    expect(opened.entity.equals(referral())).toBe(true);
  });

  it.each([
    ['block type 01 instead of 02', (block: Buffer) => void (block[1] = 0x01)],
    ['no zero separator', (block: Buffer, separator: number) => void (block[separator] = 0x07)],
    ['a padding string shorter than 8 bytes', (block: Buffer) => void (block[8] = 0x00)],
    ['a first byte that is not zero', (block: Buffer) => void (block[0] = 0x01)],
  ])('refuses %s with the very error a wrong key gives, although the right key is inside', async (_, change) => {
    const error = await refusal(decryptEntity(await withV15Block((key) => em(key, change)), [keyOf(riverview)]));
    expect([error.code, error.message]).toEqual(['DecryptFailed', 'The message could not be decrypted with our key: it was encrypted for another key, or it is damaged.']);
  });

  it('refuses a key of the wrong length for the cipher the same way', async () => {
    const error = await refusal(decryptEntity(await withV15Block((key) => em(Buffer.concat([key, Buffer.from([0x42])]))), [keyOf(riverview)]));
    expect([error.code, error.message]).toEqual(['DecryptFailed', 'The message could not be decrypted with our key: it was encrypted for another key, or it is damaged.']);
  });
});

describe('damaged input', () => {
  it('calls truncated base64, garbage DER and non-base64 bodies Malformed', async () => {
    const encrypted = await encryptEntity(referral(), [riverview.certificateDer]);
    const truncated = await refusal(decryptEntity(encrypted.subarray(0, encrypted.length - 200), [keyOf(riverview)]));
    expect(truncated.code).toBe('Malformed');
    expect(truncated.message).toMatch(/^The S\/MIME message is damaged or not in the expected form \(.+\)\.$/);
    const garbage = rewrap(encrypted, randomBytes(600));
    expect((await refusal(decryptEntity(garbage, [keyOf(riverview)]))).code).toBe('Malformed');
    const header = 'Content-Type: application/pkcs7-mime; smime-type=enveloped-data\r\n';
    expect((await refusal(decryptEntity(Buffer.from(`${header}\r\n!!! not base64 !!!\r\n`), [keyOf(riverview)]))).code).toBe('Malformed');
    const quoted = await refusal(decryptEntity(Buffer.from(`${header}Content-Transfer-Encoding: quoted-printable\r\n\r\nabc\r\n`), [keyOf(riverview)]));
    expect([quoted.code, quoted.message]).toEqual(['Malformed', 'The encrypted message is not base64 encoded (Content-Transfer-Encoding: quoted-printable).']);
  });

  it('calls a multipart/signed without boundary, with one part, or with a broken signature part Malformed', async () => {
    const noBoundary = Buffer.from('Content-Type: multipart/signed; protocol="application/pkcs7-signature"\r\n\r\n--x\r\nhello\r\n--x--\r\n');
    expect(await refusal(verifySignedEntity(noBoundary))).toMatchObject({ code: 'Malformed', message: 'The signed message has no boundary parameter, so its parts cannot be found.' });
    const onePart = Buffer.from('Content-Type: multipart/signed; protocol="application/pkcs7-signature"; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nhello\r\n--x--\r\n');
    expect(await refusal(verifySignedEntity(onePart))).toMatchObject({
      code: 'Malformed',
      message: 'A signed message has two parts, the content and its signature; this one has 1.',
    });
    const notSignature = Buffer.from('Content-Type: multipart/signed; boundary=x\r\n\r\n--x\r\nhello\r\n--x\r\nContent-Type: text/plain\r\n\r\nsig\r\n--x--\r\n');
    expect((await refusal(verifySignedEntity(notSignature))).code).toBe('Malformed');
    // Random signatures: about 1 in 400 once made asn1js throw its own error; 2,000 of them are all 'Malformed'.
    for (let i = 0; i < 2000; i++) {
      const garbage = Buffer.from(
        `Content-Type: multipart/signed; boundary=x\r\n\r\n--x\r\nhello\r\n--x\r\nContent-Type: application/pkcs7-signature\r\n\r\n${randomBytes(300).toString('base64')}\r\n--x--\r\n`,
      );
      expect((await refusal(verifySignedEntity(garbage))).code).toBe('Malformed');
    }
  });

  it('refuses to sign or encrypt with certificates that cannot be used, saying which', async () => {
    const garbage = randomBytes(120);
    expect(await refusal(encryptEntity(referral(), [garbage]))).toMatchObject({
      code: 'Malformed',
      message: 'The recipient certificate could not be read.',
    });
    expect(await refusal(encryptEntity(referral(), []))).toMatchObject({ code: 'Malformed', message: 'At least one recipient certificate is needed to encrypt a message.' });
    expect((await refusal(signEntity(referral(), { certificate: garbage, privateKey: lakeside.privateKey }))).code).toBe('Malformed');
    expect((await refusal(decryptEntity(await encryptEntity(referral(), [riverview.certificateDer]), [{ certificate: garbage, privateKey: riverview.privateKey }]))).code).toBe(
      'Malformed',
    );
  });

  it('never fails with anything but an SmimeError, whatever byte is changed or wherever the message is cut', async () => {
    const signed = await signEntity(referral(), signer());
    const encrypted = await encryptEntity(signed, [riverview.certificateDer]);
    const damage = fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean());
    await fc.assert(
      fc.asyncProperty(damage, async ([position, value, cut]) => {
        for (const original of [signed, encrypted]) {
          const at = position % original.length;
          const damaged = cut ? original.subarray(0, at) : Buffer.from(original);
          if (!cut) damaged[at] = value;
          const outcome = await (original === signed ? verifySignedEntity(damaged) : decryptEntity(damaged, [keyOf(riverview)])).then(
            () => null,
            (error: unknown) => error,
          );
          if (outcome !== null) expect(outcome).toBeInstanceOf(SmimeError);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('MIME helpers', () => {
  it('turns every lone LF or CR into CRLF and leaves CRLF alone', () => {
    expect(toCrlf(Buffer.from('a\nb\rc\r\nd\n\re')).toString()).toBe('a\r\nb\r\nc\r\nd\r\n\r\ne');
    expect(toCrlf(Buffer.from('\r\n\r\n')).toString()).toBe('\r\n\r\n');
    expect(toCrlf(new Uint8Array([0x0a])).toString()).toBe('\r\n');
  });

  it('splits an entity at its blank line and reads unfolded headers case-insensitively', () => {
    const { header, body } = splitEntity(Buffer.from('Content-Type: multipart/mixed;\r\n boundary="b"\r\nX-Empty:\r\n\r\nbody\r\n\r\nmore'));
    expect(header).toBe('Content-Type: multipart/mixed;\r\n boundary="b"\r\nX-Empty:');
    expect(body.toString()).toBe('body\r\n\r\nmore');
    expect(headerValue(header, 'content-type')).toBe('multipart/mixed; boundary="b"');
    expect(headerValue(header, 'x-empty')).toBe('');
    expect(headerValue(header, 'Subject')).toBeUndefined();
    expect(splitEntity(Buffer.from('A: 1\n\nlf body'))).toEqual({ header: 'A: 1', body: Buffer.from('lf body') });
    expect(splitEntity(Buffer.from('\r\nno headers'))).toEqual({ header: '', body: Buffer.from('no headers') });
    expect(splitEntity(Buffer.from('A: only headers'))).toEqual({ header: 'A: only headers', body: Buffer.alloc(0) });
  });
});
