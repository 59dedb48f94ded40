import { execFileSync } from 'node:child_process';
import { createPublicKey, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateMessages as text } from '@clinicrelay/contracts/certificates.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { certificates } from '../../db/schema/certificates.ts';
import { useTestApp } from '../../test/app.ts';
import { opensslBinary, opensslMissing } from '../../test/openssl.ts';
import { findEncryptionCertificate, findSigningCertificate } from './service.ts';

const ADMIN = 'sysadmin@example.org';
const URL = '/api/configuration/certificates';
const PASSWORD = 'correct horse';
const DOMAIN = 'lakeside.direct.example.org';
const ADDRESS = `intake@${DOMAIN}`;
const DAY = 86_400_000;

const missing = opensslMissing();

// PKCS#12 files made by OpenSSL 3, as an administrator would get them from a CA or export them.
function makeFiles() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'certificates-test-'));
  const run = (...args: string[]) => execFileSync(opensslBinary!, args, { cwd: dir, stdio: 'pipe' });
  const extensions = (name: string, lines: string[]) => writeFileSync(path.join(dir, name), lines.join('\n'));
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '365', '-sha256', '-subj', '/CN=Test Direct CA');
  const issue = (name: string, options: { bits?: number; digest?: string; days?: number; ext: string[] }) => {
    extensions(`${name}.ext`, options.ext);
    run('req', '-new', '-newkey', `rsa:${options.bits ?? 2048}`, '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    run('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', `-${options.digest ?? 'sha256'}`, '-days', String(options.days ?? 30), '-extfile', `${name}.ext`, '-out', `${name}.pem`);
  };
  issue('domain', { ext: [`subjectAltName=DNS:${DOMAIN}`, 'keyUsage=digitalSignature,keyEncipherment'] });
  issue('address', { days: 60, ext: [`subjectAltName=email:${ADDRESS}`, 'keyUsage=digitalSignature'] });
  issue('weak', { bits: 1024, ext: [`subjectAltName=DNS:${DOMAIN}`] });
  issue('sha1', { digest: 'sha1', ext: [`subjectAltName=DNS:${DOMAIN}`] });
  issue('nosan', { ext: ['keyUsage=digitalSignature'] });
  const pfx = (out: string, ...args: string[]) => {
    run('pkcs12', '-export', '-passout', `pass:${PASSWORD}`, '-out', out, ...args);
    return readFileSync(path.join(dir, out));
  };
  const files = {
    // The OpenSSL 3 default: PBES2, PBKDF2-HMAC-SHA256, AES-256-CBC, HMAC-SHA256 MAC; with the CA as the chain.
    domain: pfx('domain.pfx', '-inkey', 'domain.key', '-in', 'domain.pem', '-certfile', 'ca.pem'),
    // Older tools: PKCS#12 PBE with SHA-1 and 3DES, SHA-1 MAC.
    legacy: pfx('legacy.p12', '-legacy', '-certpbe', 'PBE-SHA1-3DES', '-keypbe', 'PBE-SHA1-3DES', '-inkey', 'domain.key', '-in', 'domain.pem'),
    // What `-legacy` writes by default: the key under 3DES, the certificates under RC2-40 (not in Node's OpenSSL).
    legacyRc2: pfx('rc2.p12', '-legacy', '-inkey', 'domain.key', '-in', 'domain.pem'),
    // A PBES2 cipher no Direct tool uses.
    camellia: pfx('camellia.pfx', '-keypbe', 'CAMELLIA-256-CBC', '-certpbe', 'CAMELLIA-256-CBC', '-inkey', 'domain.key', '-in', 'domain.pem'),
    address: pfx('address.pfx', '-inkey', 'address.key', '-in', 'address.pem'),
    weak: pfx('weak.pfx', '-inkey', 'weak.key', '-in', 'weak.pem'),
    sha1: pfx('sha1.pfx', '-inkey', 'sha1.key', '-in', 'sha1.pem'),
    noSan: pfx('nosan.pfx', '-inkey', 'nosan.key', '-in', 'nosan.pem'),
    noKey: pfx('nokey.pfx', '-nokeys', '-in', 'domain.pem'),
    // The key of one certificate beside another certificate.
    mismatch: pfx('mismatch.pfx', '-nocerts', '-inkey', 'address.key', '-certfile', 'domain.pem'),
    domainKeyPem: readFileSync(path.join(dir, 'domain.key'), 'utf8'),
  };
  rmSync(dir, { recursive: true, force: true });
  return files;
}

describe.skipIf(missing)('certificates (back-office-b §7, issue 12 §1)', () => {
  const t = useTestApp();
  let files: ReturnType<typeof makeFiles>;
  beforeAll(() => {
    files = makeFiles();
  });
  const startedAt = new Date();
  afterAll(() => {
    t.clock.now = startedAt;
  });

  async function upload(user: string, fields: { name?: string; password?: string; useExistingName?: string }, file?: { name: string; bytes: Uint8Array }) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.append(key, value);
    if (file) form.append('file', new Blob([Buffer.from(file.bytes)]), file.name);
    const request = new Response(form);
    const { accessToken } = await t.login(user);
    return t.app.inject({
      method: 'POST',
      url: URL,
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }
  const importFile = (name: string, bytes: Uint8Array, extra: { password?: string; useExistingName?: string; fileName?: string } = {}) =>
    upload(ADMIN, { name, password: extra.password ?? PASSWORD, useExistingName: extra.useExistingName }, { name: extra.fileName ?? `${name}.pfx`, bytes });
  const refusal = (message: string, field = 'file') => ({ message, modelState: { [field]: [message] } });

  it('imports an OpenSSL 3 .pfx, lists it, reads it by name, and keeps its private key encrypted', async () => {
    const res = await importFile('lakeside-domain', files.domain);
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({
      name: 'lakeside-domain',
      version: 1,
      enabled: true,
      usage: 'both',
      subject: 'CN=domain',
      subjectAltNames: { rfc822Names: [], dnsNames: [DOMAIN] },
      chainLength: 1,
      // The demo organization whose Direct address is in the domain.
      organizations: [{ id: expect.any(String), name: expect.stringContaining('Lakeside') }],
    });
    expect(created.thumbprint).toMatch(/^[0-9A-F]{40}$/);
    expect(created.thumbprintSha256).toMatch(/^[0-9A-F]{64}$/);
    expect(new Date(created.notAfter).getTime() - Date.now()).toBeGreaterThan(29 * DAY);

    const list = await t.call(ADMIN, 'GET', URL);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({
      totalCount: 1,
      items: [{ id: created.id, name: 'lakeside-domain', thumbprint: created.thumbprint, notAfter: created.notAfter, version: 1, enabled: true, organizations: created.organizations }],
    });
    expect((await t.call(ADMIN, 'GET', `${URL}/lakeside-domain`)).json()).toEqual(created);
    expect((await t.call(ADMIN, 'GET', `${URL}/nobody`)).statusCode).toBe(404);

    const [row] = await t.handle.db.select().from(certificates).where(eq(certificates.name, 'lakeside-domain'));
    const spki = createPublicKey(files.domainKeyPem).export({ format: 'der', type: 'spki' });
    // No part of the key in the clear (the modulus ends the same in the public and private key): ciphertext only.
    expect(Buffer.from(row!.privateKeyCiphertext).includes(Buffer.from(spki).subarray(-64))).toBe(false);
    const [audit] = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'CertificateImported'));
    expect(audit).toMatchObject({ userName: ADMIN, details: { name: 'lakeside-domain', thumbprint: created.thumbprint } });
  });

  it('finds the signing and encryption certificates of an address, with the decrypted private key', async () => {
    const deps = { db: t.handle.db, masterKey: Buffer.from('dGVzdC1ibG9iLWtleS10ZXN0LWJsb2Ita2V5LXRlc3QtYmxvYi1rZXkhIQ==', 'base64').subarray(0, 32), now: () => new Date() };
    const byDomain = await findSigningCertificate(deps, 'Someone@Lakeside.Direct.Example.org');
    expect(byDomain?.name).toBe('lakeside-domain');
    expect(byDomain?.certificate.checkPrivateKey(byDomain.privateKey)).toBe(true);
    expect(byDomain?.chain).toHaveLength(1);
    expect(await findSigningCertificate(deps, 'intake@riverview.direct.example.org')).toBeUndefined();

    // An address's own certificate comes before its domain's, for what it may do (keyUsage digitalSignature only).
    expect((await importFile('lakeside-intake', files.address, { fileName: 'intake.P12' })).statusCode).toBe(200);
    expect((await findSigningCertificate(deps, ADDRESS))?.name).toBe('lakeside-intake');
    expect((await findEncryptionCertificate(deps, ADDRESS))?.name).toBe('lakeside-domain');

    // A disabled certificate is not used; an expired one neither.
    expect((await t.call(ADMIN, 'PUT', `${URL}/lakeside-intake/enable`, { enabled: false })).json()).toMatchObject({ enabled: false });
    expect((await findSigningCertificate(deps, ADDRESS))?.name).toBe('lakeside-domain');
    expect((await t.call(ADMIN, 'PUT', `${URL}/lakeside-intake/enable`, { enabled: true })).json()).toMatchObject({ enabled: true });
    const later = { ...deps, now: () => new Date(Date.now() + 45 * DAY) };
    expect((await findEncryptionCertificate(later, ADDRESS))).toBeUndefined();
    expect((await findSigningCertificate(later, ADDRESS))?.name).toBe('lakeside-intake');
    // A wrong master key cannot open a private key.
    await expect(findSigningCertificate({ ...deps, masterKey: randomBytes(32) }, ADDRESS)).rejects.toThrow();
  });

  it('enables and disables a certificate, with an audit event each', async () => {
    const off = await t.call(ADMIN, 'PUT', `${URL}/lakeside-domain/enable`, { enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ name: 'lakeside-domain', enabled: false });
    expect((await t.call(ADMIN, 'GET', `${URL}?search=DOMAIN`)).json().items).toEqual([expect.objectContaining({ name: 'lakeside-domain', enabled: false })]);
    expect((await t.call(ADMIN, 'PUT', `${URL}/lakeside-domain/enable`, { enabled: true })).json()).toMatchObject({ enabled: true });
    expect((await t.call(ADMIN, 'PUT', `${URL}/nobody/enable`, { enabled: true })).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'PUT', `${URL}/lakeside-domain/enable`, { enabled: 'yes' })).statusCode).toBe(400);
    const events = await t.handle.db.select({ type: auditEvents.eventType }).from(auditEvents);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['CertificateDisabled', 'CertificateEnabled']));
  });

  it('replaces the certificate of a name only when useExistingName says so, as its next version', async () => {
    expect((await importFile('lakeside-domain', files.legacy)).json()).toEqual(refusal(text.nameTaken, 'name'));
    expect((await importFile('never-imported', files.legacy, { useExistingName: 'true' })).statusCode).toBe(404);
    // The legacy PBE-SHA1-3DES file of the same certificate and key.
    const replaced = await importFile('lakeside-domain', files.legacy, { useExistingName: 'true' });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ name: 'lakeside-domain', version: 2, enabled: true, chainLength: 0 });
    const [audit] = await t.handle.db.select().from(auditEvents).where(eq(auditEvents.eventType, 'CertificateReplaced'));
    expect(audit?.details).toMatchObject({ name: 'lakeside-domain' });
    // The default of `openssl pkcs12 -export -legacy` (RC2-40 certificate bag, SHA-1 MAC).
    const rc2 = await importFile('lakeside-domain', files.legacyRc2, { useExistingName: 'true' });
    expect(rc2.statusCode, rc2.body).toBe(200);
    expect(rc2.json()).toMatchObject({ version: 3, thumbprint: replaced.json().thumbprint });
  });

  it('refuses files a Direct certificate cannot come from, each with its reason', async () => {
    expect((await importFile('wrong-password', files.domain, { password: 'not it' })).json()).toEqual(refusal(text.wrongPassword, 'password'));
    expect((await importFile('garbage', randomBytes(2000))).json()).toEqual(refusal(text.notAPkcs12));
    expect((await importFile('no-key', files.noKey)).json()).toEqual(refusal(text.noPrivateKey));
    expect((await importFile('mismatch', files.mismatch)).json()).toEqual(refusal(text.keyMismatch));
    expect((await importFile('weak', files.weak)).json()).toEqual(refusal(text.weakKey));
    expect((await importFile('sha1', files.sha1)).json()).toEqual(refusal(text.weakSignature));
    expect((await importFile('no-san', files.noSan)).json()).toEqual(refusal(text.noSubjectAltName));
    expect((await importFile('camellia', files.camellia)).json()).toEqual(refusal(text.unsupportedEncryption));
    expect((await importFile('pem', files.domain, { fileName: 'domain.pem' })).json()).toEqual(refusal(text.fileRequired));
    expect((await upload(ADMIN, { name: 'no-file', password: PASSWORD })).json()).toEqual(refusal(text.fileRequired));
    expect((await upload(ADMIN, { password: PASSWORD }, { name: 'x.pfx', bytes: files.domain })).json()).toEqual(refusal('Name is required.', 'name'));
    expect((await upload(ADMIN, { name: 'x'.repeat(128), password: PASSWORD }, { name: 'x.pfx', bytes: files.domain })).json()).toEqual(
      refusal('Name must be at most 127 characters.', 'name'),
    );
    const tooBig = await importFile('too-big', Buffer.alloc(1024 * 1024 + 1));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe(text.fileTooLarge);

    // Expired: the same file a while after its notAfter.
    t.clock.now = new Date(Date.now() + 31 * DAY);
    expect((await importFile('expired', files.domain)).json()).toEqual(refusal(text.expired));
    t.clock.now = startedAt;
    expect((await t.call(ADMIN, 'GET', URL)).json().totalCount).toBe(2);
  });

  it('is for system administrators only', async () => {
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) {
      expect((await t.call(user, 'GET', URL)).statusCode, user).toBe(403);
      expect((await t.call(user, 'GET', `${URL}/lakeside-domain`)).statusCode, user).toBe(403);
      expect((await t.call(user, 'PUT', `${URL}/lakeside-domain/enable`, { enabled: false })).statusCode, user).toBe(403);
      expect((await upload(user, { name: 'theirs', password: PASSWORD }, { name: 'x.pfx', bytes: files.domain })).statusCode, user).toBe(403);
    }
    expect((await t.call(null, 'GET', URL)).statusCode).toBe(401);
    expect((await t.call(ADMIN, 'GET', `${URL}/lakeside-domain`)).json()).toMatchObject({ enabled: true });
  });
});
