import type { KeyObject } from 'node:crypto';
import { X509Certificate } from 'node:crypto';
import { certificateMessages as text, type Certificate } from '@clinicrelay/contracts/certificates.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { checkCertificateFile, type CheckedCertificate } from './certificate-file.ts';
import { openPrivateKey, sealPrivateKey } from './private-keys.ts';
import * as q from './queries.ts';

export interface CertificatesDeps {
  db: Database;
  now: () => Date;
  /** BLOB_ENCRYPTION_KEY: private keys are sealed under a key derived from it (private-keys.ts). */
  masterKey: Uint8Array;
}

export interface CertificateUpload {
  name: string;
  password: string;
  useExistingName: boolean;
  file: { fileName: string; bytes: Buffer };
}

const toIso = (date: Date) => date.toISOString();

async function detail(db: DbOrTx, row: q.CertificateRow): Promise<Certificate> {
  const organizations = (await q.organizationsOf(db, [row.id])).get(row.id) ?? [];
  return {
    id: row.id,
    name: row.name,
    thumbprint: row.thumbprint,
    thumbprintSha256: row.thumbprintSha256,
    notBefore: toIso(row.notBefore),
    notAfter: toIso(row.notAfter),
    version: row.version,
    enabled: row.enabled,
    usage: row.usage,
    subject: row.subject,
    subjectAltNames: { rfc822Names: row.sanEmails, dnsNames: row.sanDnsNames },
    chainLength: row.chain.length,
    organizations,
  };
}

export async function listCertificates(deps: CertificatesDeps, query: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined; pageNumber: number; pageSize: number }) {
  const page = await q.findCertificatePage(deps.db, query, query);
  const organizations = await q.organizationsOf(deps.db, page.items.map((c) => c.id));
  return {
    totalCount: page.totalCount,
    items: page.items.map((c) => ({ ...c, notAfter: toIso(c.notAfter), organizations: organizations.get(c.id) ?? [] })),
  };
}

export async function getCertificate(deps: CertificatesDeps, name: string) {
  const row = await q.findByName(deps.db, name);
  if (!row) throw notFound();
  return detail(deps.db, row);
}

/**
 * A checked certificate and its key, stored under a name (the key sealed), linked to the organizations its SAN names;
 * replacing the row `replacing` when given. The id, or undefined when the name was taken meanwhile.
 */
export async function storeCertificate(tx: DbOrTx, masterKey: Uint8Array, name: string, checked: CheckedCertificate, userId: string | null, replacing?: string) {
  const sealed = sealPrivateKey(masterKey, checked.privateKey, checked.der);
  const values: q.CertificateValues = {
    name,
    usage: checked.usage,
    subject: checked.subject,
    sanEmails: checked.sanEmails,
    sanDnsNames: checked.sanDnsNames,
    thumbprint: checked.thumbprint,
    thumbprintSha256: checked.thumbprintSha256,
    notBefore: checked.notBefore,
    notAfter: checked.notAfter,
    enabled: true,
    certificateDer: checked.der,
    privateKeyCiphertext: sealed.ciphertext,
    privateKeyIv: sealed.iv,
    privateKeyTag: sealed.tag,
    chain: checked.chain.map((der) => der.toString('base64')),
    modifiedBy: userId,
  };
  let id = replacing;
  if (id) await q.replaceCertificate(tx, id, values);
  else id = (await q.insertCertificate(tx, { ...values, createdBy: userId }))?.id;
  if (id) await q.linkOrganizations(tx, id, { emails: checked.sanEmails, dnsNames: checked.sanDnsNames });
  return id;
}

const nameTaken = () => badRequest(text.nameTaken, { name: [text.nameTaken] });

// back-office-b §7: useExistingName is set when editing and replaces the certificate of that name (its next version);
// without it the name must be new. A re-import is enabled, as a new Key Vault version is.
export async function uploadCertificate(deps: CertificatesDeps, caller: AdminCaller, upload: CertificateUpload) {
  const existing = await q.findByName(deps.db, upload.name);
  if (existing && !upload.useExistingName) throw nameTaken();
  if (!existing && upload.useExistingName) throw notFound();
  const checked = await checkCertificateFile(upload.file.bytes, upload.password, deps.now());
  await deps.db.transaction(async (tx) => {
    const id = await storeCertificate(tx, deps.masterKey, upload.name, checked, caller.session.userId, existing?.id);
    // Someone else imported the name a moment ago.
    if (!id) throw nameTaken();
    await writeAudit(tx, {
      eventType: existing ? 'CertificateReplaced' : 'CertificateImported',
      ...auditedByAdmin(caller),
      details: { certificateId: id, name: upload.name, thumbprint: checked.thumbprint, ...(existing ? { previousThumbprint: existing.thumbprint } : {}) },
    });
  });
  return getCertificate(deps, upload.name);
}

export async function setCertificateEnabled(deps: CertificatesDeps, caller: AdminCaller, name: string, enabled: boolean) {
  await deps.db.transaction(async (tx) => {
    const row = await q.findByName(tx, name);
    if (!row) throw notFound();
    await q.setEnabled(tx, row.id, enabled, caller.session.userId);
    await writeAudit(tx, { eventType: enabled ? 'CertificateEnabled' : 'CertificateDisabled', ...auditedByAdmin(caller), details: { certificateId: row.id, name, thumbprint: row.thumbprint } });
  });
  return getCertificate(deps, name);
}

export interface DirectCertificate {
  name: string;
  certificate: X509Certificate;
  /** The certificate's DER, and the chain the PKCS#12 file held (to put beside a signature). */
  der: Buffer;
  chain: Buffer[];
  privateKey: KeyObject;
}

type FindDeps = Pick<CertificatesDeps, 'db' | 'masterKey'> & { now?: () => Date };

const opened = (masterKey: Uint8Array, row: Pick<q.CertificateRow, 'name' | 'certificateDer' | 'chain' | 'privateKeyCiphertext' | 'privateKeyIv' | 'privateKeyTag'>): DirectCertificate => {
  const der = Buffer.from(row.certificateDer);
  return {
    name: row.name,
    certificate: new X509Certificate(der),
    der,
    chain: row.chain.map((c) => Buffer.from(c, 'base64')),
    privateKey: openPrivateKey(masterKey, { ciphertext: row.privateKeyCiphertext, iv: row.privateKeyIv, tag: row.privateKeyTag }, der),
  };
};

async function findFor(deps: FindDeps, address: string, usage: 'signing' | 'encryption'): Promise<DirectCertificate | undefined> {
  const normalized = address.trim().toLowerCase();
  const now = (deps.now?.() ?? new Date()).getTime();
  const rows = await q.findUsable(deps.db, normalized, usage);
  const row = rows.find((r) => r.notBefore.getTime() <= now && now < r.notAfter.getTime());
  return row ? opened(deps.masterKey, row) : undefined;
}

/**
 * For the Direct transport: the enabled, currently valid certificate (with its private key) that signs for the
 * address: one naming the address (rfc822Name) before one naming its domain (dNSName), the newest of them (latest
 * notBefore) when several are valid, as during a rollover; undefined when none.
 */
export const findSigningCertificate = (deps: FindDeps, address: string) => findFor(deps, address, 'signing');
/** As findSigningCertificate, for encryption (the one this HISP publishes). */
export const findEncryptionCertificate = (deps: FindDeps, address: string) => findFor(deps, address, 'encryption');

const DAY_MS = 86_400_000;

/**
 * For decrypting what is sent to the address (issue 28 §1): every enabled certificate naming the address, then every
 * one naming its domain, with the versions a re-import replaced, that is valid now or expired less than `graceDays`
 * ago (a sender may still hold the previous certificate, and a message may be queued for days). The newest first.
 */
export async function findDecryptionCertificates(deps: FindDeps & { graceDays: number }, address: string): Promise<DirectCertificate[]> {
  const normalized = address.trim().toLowerCase();
  const now = (deps.now?.() ?? new Date()).getTime();
  const rows = (await q.findDecryptable(deps.db, normalized)).filter((r) => r.notBefore.getTime() <= now && now < r.notAfter.getTime() + deps.graceDays * DAY_MS);
  const addressFirst = (r: (typeof rows)[number]) => (r.sanEmails.includes(normalized) ? 0 : 1);
  rows.sort((a, b) => addressFirst(a) - addressFirst(b) || b.notBefore.getTime() - a.notBefore.getTime());
  return rows.map((row) => opened(deps.masterKey, row));
}
