import { beforeAll, describe, expect, it } from 'vitest';
import { openssl, opensslMissing } from '../../test/openssl.ts';
import { createCertificateAuthority, issueDirectCertificate, type CertificateAuthority, type IssuedCertificate } from './certificate-authority.ts';
import { decryptEntity, encryptEntity, signEntity, SmimeError, splitEntity, toCrlf, verifySignedEntity, type RecipientKey } from './smime.ts';

// What OpenSSL (`openssl cms`, `openssl smime`) accepts is what other HISPs accept: OpenSSL opens and verifies
// our messages, and we open and verify OpenSSL's, with OAEP and PKCS#1 v1.5 key transport; SHA-1, 3DES,
// altered and unsigned messages are refused.

const missing = opensslMissing();

let ca: CertificateAuthority;
let lakeside: IssuedCertificate;
let riverview: IssuedCertificate;
let hillcrest: IssuedCertificate;
let stranger: IssuedCertificate;
let files: Record<string, string>;

const entity = toCrlf(
  Buffer.from(
    'Content-Type: message/rfc822\n\nFrom: ann.carter@direct.lakeside.example.org\nTo: referrals@direct.riverview.example.org\n' +
      'Subject: Discharge summary\nMessage-ID: <summary-7@direct.lakeside.example.org>\nMIME-Version: 1.0\n' +
      'Content-Type: text/plain; charset=us-ascii\n\nDischarged home on 03/04/2025. Follow up in two weeks.\n',
  ),
);
const DECRYPT_FAILED = 'The message could not be decrypted with our key: it was encrypted for another key, or it is damaged.';

const keyOf = (issued: IssuedCertificate): RecipientKey => ({ certificate: issued.certificateDer, privateKey: issued.privateKey });
const pemKey = (issued: IssuedCertificate) => issued.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

async function run(args: string[], extra: Record<string, string | Uint8Array> = {}): Promise<string> {
  const result = await openssl(args, { ...files, ...extra });
  if (result.code !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

const signedByOpenssl = (...options: string[]) =>
  run(['cms', '-sign', ...options, '-signer', 'lakeside.pem', '-inkey', 'lakeside.key', '-certfile', 'ca.pem', '-in', 'entity.txt']);
const encryptedByOpenssl = (input: string, ...options: string[]) => run(['cms', '-encrypt', '-in', 'input.txt', ...options], { 'input.txt': input });

async function refusal(promise: Promise<unknown>): Promise<SmimeError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SmimeError);
  return error as SmimeError;
}

describe.skipIf(missing)(`S/MIME with OpenSSL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    ca = await createCertificateAuthority({ commonName: 'ClinicRelay Demo CA', organization: 'ClinicRelay Demo', validDays: 3650 });
    const otherCa = await createCertificateAuthority({ commonName: 'Stranger CA', organization: 'Stranger', validDays: 3650 });
    [lakeside, riverview, hillcrest, stranger] = await Promise.all([
      issueDirectCertificate(ca, { address: 'ann.carter@direct.lakeside.example.org', usage: 'both', validDays: 365 }),
      issueDirectCertificate(ca, { address: 'referrals@direct.riverview.example.org', usage: 'encryption', validDays: 365 }),
      issueDirectCertificate(ca, { domain: 'direct.hillcrest.example.org', usage: 'both', validDays: 365 }),
      issueDirectCertificate(otherCa, { domain: 'direct.stranger.example.org', usage: 'both', validDays: 365 }),
    ]);
    files = {
      'ca.pem': ca.certificatePem,
      'lakeside.pem': lakeside.certificatePem,
      'lakeside.key': pemKey(lakeside),
      'riverview.pem': riverview.certificatePem,
      'riverview.key': pemKey(riverview),
      'hillcrest.pem': hillcrest.certificatePem,
      'hillcrest.key': pemKey(hillcrest),
      'entity.txt': entity.toString('latin1'),
    };
  });

  describe('OpenSSL reads ours', () => {
    it.each(['aes-128-cbc', 'aes-256-cbc'] as const)('decrypts (%s, rsaesOaep) for each recipient, verifies against the anchor, and gets the entity back', async (cipher) => {
      const signed = await signEntity(entity, { certificate: lakeside.certificateDer, privateKey: lakeside.privateKey, chain: [ca.certificateDer] });
      const message = await encryptEntity(signed, [riverview.certificateDer, hillcrest.certificateDer], cipher);

      const printed = await run(['cms', '-cmsout', '-print', '-in', 'message.txt'], { 'message.txt': message });
      expect(printed).toContain(`algorithm: ${cipher}`);
      expect(printed.match(/algorithm: rsaesOaep/g)).toHaveLength(2);

      for (const name of ['riverview', 'hillcrest']) {
        const decrypted = await run(['cms', '-decrypt', '-in', 'message.txt', '-recip', `${name}.pem`, '-inkey', `${name}.key`], { 'message.txt': message });
        expect(decrypted).toBe(signed.toString('latin1'));
        const verified = await openssl(['cms', '-verify', '-in', 'signed.txt', '-CAfile', 'ca.pem'], { ...files, 'signed.txt': decrypted });
        expect(verified.stderr).toContain('Verification successful');
        expect(verified.stdout).toBe(entity.toString('latin1'));
      }
    });
  });

  describe('we read OpenSSL’s', () => {
    it('opens `cms -sign -md sha256 | cms -encrypt -aes256 -keyopt rsa_padding_mode:oaep` and verifies it', async () => {
      const message = await encryptedByOpenssl(await signedByOpenssl('-md', 'sha256'), '-aes256', '-recip', 'riverview.pem', '-keyopt', 'rsa_padding_mode:oaep');
      const opened = await decryptEntity(Buffer.from(message), [keyOf(riverview)]);
      expect([opened.cipher, opened.keyTransport]).toEqual(['aes-256-cbc', 'RSAES-OAEP']);
      const verified = await verifySignedEntity(opened.entity);
      expect(verified.content.equals(entity)).toBe(true);
      expect(verified.signer.equals(lakeside.certificateDer)).toBe(true);
      expect(verified.digestAlgorithm).toBe('sha-256');
      expect(verified.certificates).toHaveLength(2);
      expect(verified.signingTime).toBeInstanceOf(Date);
    });

    it.each([
      ['-aes128', 'aes-128-cbc'],
      ['-aes256', 'aes-256-cbc'],
    ])('opens the default PKCS#1 v1.5 key transport with %s', async (option, cipher) => {
      const message = await encryptedByOpenssl(await signedByOpenssl('-md', 'sha256'), option, '-recip', 'hillcrest.pem');
      expect(await run(['cms', '-cmsout', '-print', '-in', 'message.txt'], { 'message.txt': message })).toContain('algorithm: rsaEncryption');
      const opened = await decryptEntity(Buffer.from(message), [keyOf(hillcrest)]);
      expect([opened.cipher, opened.keyTransport]).toEqual([cipher, 'RSAES-PKCS1-v1_5']);
      expect((await verifySignedEntity(opened.entity)).content.equals(entity)).toBe(true);
    });

    it('opens RSA-OAEP with SHA-256, and signer and recipient named by subject key identifier', async () => {
      const message = await encryptedByOpenssl(
        await signedByOpenssl('-md', 'sha256', '-keyid'),
        '-aes128',
        '-keyid',
        '-recip',
        'riverview.pem',
        '-keyopt',
        'rsa_padding_mode:oaep',
        '-keyopt',
        'rsa_oaep_md:sha256',
      );
      const printed = await run(['cms', '-cmsout', '-print', '-in', 'message.txt'], { 'message.txt': message });
      expect(printed).toContain('d.subjectKeyIdentifier');
      const opened = await decryptEntity(Buffer.from(message), [keyOf(riverview)]);
      expect(opened.keyTransport).toBe('RSAES-OAEP');
      expect((await verifySignedEntity(opened.entity)).signer.equals(lakeside.certificateDer)).toBe(true);
    });

    it('verifies `openssl smime -sign` (multipart/signed, LF line ends outside the content), also after CRLF transport', async () => {
      const signed = await run(['smime', '-sign', '-signer', 'lakeside.pem', '-inkey', 'lakeside.key', '-in', 'entity.txt']);
      expect(signed).toMatch(/^MIME-Version: 1.0\nContent-Type: multipart\/signed; protocol="application\/x-pkcs7-signature"; micalg="sha-256"/);
      for (const received of [Buffer.from(signed), toCrlf(Buffer.from(signed))]) {
        const verified = await verifySignedEntity(received);
        expect(verified.content.equals(entity)).toBe(true);
        expect(verified.digestAlgorithm).toBe('sha-256');
      }
    });

    it('verifies opaque signing (`cms -sign -nodetach`, application/pkcs7-mime; smime-type=signed-data)', async () => {
      const signed = await signedByOpenssl('-md', 'sha512', '-nodetach');
      expect(splitEntity(Buffer.from(signed)).header).toContain('smime-type=signed-data');
      const verified = await verifySignedEntity(Buffer.from(signed));
      expect(verified.content.equals(entity)).toBe(true);
      expect(verified.digestAlgorithm).toBe('sha-512');
    });
  });

  // Issue 28: AuthEnvelopedData (RFC 5083) with AES-GCM (RFC 5084), as `openssl cms -encrypt -aes-256-gcm` writes it
  // (smime-type=authEnveloped-data), was refused as "not encrypted".
  describe('AES-GCM (AuthEnvelopedData)', () => {
    it.each([
      ['-aes-256-gcm', [], 'aes-256-gcm', 'RSAES-PKCS1-v1_5'],
      ['-aes-128-gcm', ['-keyopt', 'rsa_padding_mode:oaep'], 'aes-128-gcm', 'RSAES-OAEP'],
    ] as const)('opens `cms -encrypt %s` and verifies the signed content inside', async (option, keyopt, cipher, keyTransport) => {
      const message = await encryptedByOpenssl(await signedByOpenssl('-md', 'sha256'), option, '-recip', 'riverview.pem', ...keyopt);
      expect(message).toMatch(/smime-type=authEnveloped-data/);
      expect(await run(['cms', '-cmsout', '-print', '-in', 'message.txt'], { 'message.txt': message })).toContain('id-smime-ct-authEnvelopedData');
      const opened = await decryptEntity(Buffer.from(message), [keyOf(riverview)]);
      expect([opened.cipher, opened.keyTransport]).toEqual([cipher, keyTransport]);
      const verified = await verifySignedEntity(opened.entity);
      expect(verified.content.equals(entity)).toBe(true);
      expect(verified.signer.equals(lakeside.certificateDer)).toBe(true);
    });

    it('refuses a GCM message whose ciphertext or tag was altered as DecryptFailed, never handing on the content', async () => {
      const message = Buffer.from(await encryptedByOpenssl(entity.toString('latin1'), '-aes-256-gcm', '-recip', 'riverview.pem'));
      const { header, body } = splitEntity(message);
      const der = Buffer.from(body.toString('latin1'), 'base64');
      // The last bytes are the 16-byte MAC (the tag); a byte before it is ciphertext.
      for (const at of [der.length - 1, der.length - 40]) {
        const tampered = Buffer.from(der);
        tampered[at] = tampered[at]! ^ 0x01;
        const error = await refusal(decryptEntity(Buffer.from(`${header}\n\n${tampered.toString('base64')}\n`), [keyOf(riverview)]));
        expect([error.code, error.message]).toEqual(['DecryptFailed', DECRYPT_FAILED]);
      }
      expect((await refusal(decryptEntity(message, [keyOf(stranger), keyOf(hillcrest)]))).code).toBe('NoMatchingKey');
    });
  });

  describe('refusals', () => {
    it('refuses Triple DES unless allowed', async () => {
      const message = Buffer.from(await encryptedByOpenssl(await signedByOpenssl('-md', 'sha256'), '-des3', '-recip', 'riverview.pem'));
      const error = await refusal(decryptEntity(message, [keyOf(riverview)]));
      expect([error.code, error.message]).toEqual(['WeakCipher', 'The message is encrypted with Triple DES, which is not accepted. AES-128 or AES-256 is required.']);
      const allowed = await decryptEntity(message, [keyOf(riverview)], { allowTripleDes: true });
      expect(allowed.cipher).toBe('des-ede3-cbc');
      expect((await verifySignedEntity(allowed.entity)).content.equals(entity)).toBe(true);
    });

    it.each([
      ['sha1', 'SHA-1'],
      ['md5', 'MD5'],
    ])('refuses a signature with -md %s as WeakDigest, naming it', async (md, name) => {
      const error = await refusal(verifySignedEntity(Buffer.from(await signedByOpenssl('-md', md))));
      expect(error.code).toBe('WeakDigest');
      expect(error.message).toBe(`The message is signed with a ${name} digest, which is no longer accepted. SHA-256 or better is required.`);
    });

    it('refuses content altered after signing as BadSignature', async () => {
      const signed = await signedByOpenssl('-md', 'sha256');
      const altered = signed.replace('Follow up in two weeks.', 'Follow up in two years.');
      expect(altered).not.toBe(signed);
      expect((await refusal(verifySignedEntity(Buffer.from(altered)))).code).toBe('BadSignature');
    });

    it('refuses a message that is only encrypted, not signed, after decryption, as NotSigned', async () => {
      const message = await encryptedByOpenssl(entity.toString('latin1'), '-aes256', '-recip', 'riverview.pem', '-keyopt', 'rsa_padding_mode:oaep');
      const opened = await decryptEntity(Buffer.from(message), [keyOf(riverview)]);
      expect(opened.entity.equals(entity)).toBe(true);
      expect((await refusal(verifySignedEntity(opened.entity))).code).toBe('NotSigned');
    });

    it('refuses a message for another recipient as NoMatchingKey', async () => {
      const message = await encryptedByOpenssl(entity.toString('latin1'), '-aes256', '-recip', 'riverview.pem');
      expect((await refusal(decryptEntity(Buffer.from(message), [keyOf(stranger), keyOf(hillcrest)]))).code).toBe('NoMatchingKey');
    });

    it('gives a tampered PKCS#1 v1.5 encrypted key the same DecryptFailed as a wrong key', async () => {
      const message = Buffer.from(await encryptedByOpenssl(entity.toString('latin1'), '-aes256', '-recip', 'riverview.pem'));
      const wrongKey = await refusal(decryptEntity(message, [{ certificate: riverview.certificateDer, privateKey: stranger.privateKey }]));
      expect([wrongKey.code, wrongKey.message]).toEqual(['DecryptFailed', DECRYPT_FAILED]);

      // rsaEncryption, NULL parameters, then the 256-byte OCTET STRING of the encrypted key.
      const { header, body } = splitEntity(message);
      const der = Buffer.from(body.toString('latin1'), 'base64');
      const keyAt = der.indexOf(Buffer.from('06092a864886f70d010101050004820100', 'hex')) + 17;
      expect(keyAt).toBeGreaterThan(17);
      for (const offset of [0, 100, 255]) {
        const tampered = Buffer.from(der);
        tampered[keyAt + offset] = tampered[keyAt + offset]! ^ 0x5a;
        const resent = Buffer.from(`${header}\n\n${tampered.toString('base64')}\n`);
        const error = await refusal(decryptEntity(resent, [keyOf(riverview)]));
        expect([error.code, error.message]).toEqual(['DecryptFailed', DECRYPT_FAILED]);
      }
    });
  });
});
