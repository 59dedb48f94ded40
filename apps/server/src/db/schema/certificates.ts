import { boolean, customType, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { auditColumns, organizations } from './organizations.ts';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

// The Direct certificates of this HISP (issue 12 §1, back-office-b §3 "Certificate"), imported from PKCS#12. One row
// per name holds its current version; a re-import under the same name replaces it and increments version.
export const certificates = pgTable(
  'certificates',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull().unique(),
    // From the keyUsage extension: digitalSignature → signing, keyEncipherment → encryption; none or both → both.
    usage: text({ enum: ['signing', 'encryption', 'both'] }).notNull(),
    subject: text().notNull(),
    // Subject alternative names, lower-case: rfc822Name binds an address, dNSName a whole Direct domain.
    sanEmails: text().array().notNull().default([]),
    sanDnsNames: text().array().notNull().default([]),
    thumbprint: text().notNull(),
    thumbprintSha256: text().notNull(),
    notBefore: timestamp({ withTimezone: true }).notNull(),
    notAfter: timestamp({ withTimezone: true }).notNull(),
    version: integer().notNull().default(1),
    enabled: boolean().notNull().default(true),
    certificateDer: bytea().notNull(),
    // PKCS#8 DER under AES-256-GCM (a key derived from BLOB_ENCRYPTION_KEY); the certificate's SHA-256 is the AAD.
    privateKeyCiphertext: bytea().notNull(),
    privateKeyIv: bytea().notNull(),
    privateKeyTag: bytea().notNull(),
    // The other certificates of the PKCS#12 file (intermediates, root), DER in base64 (drivers differ on bytea[]).
    chain: text().array().notNull().default([]),
    ...auditColumns,
  },
  (t) => [index('certificates_san_emails_idx').using('gin', t.sanEmails), index('certificates_san_dns_idx').using('gin', t.sanDnsNames)],
);

// Issue 28 §1: the versions a re-import under the same name replaced, with their keys, so a message encrypted to the
// previous certificate while the new one was being published still opens (within DIRECT_DECRYPT_GRACE_DAYS of its expiry).
export const certificatePreviousVersions = pgTable(
  'certificate_previous_versions',
  {
    id: uuid().primaryKey().defaultRandom(),
    certificateId: uuid().notNull().references(() => certificates.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    usage: text({ enum: ['signing', 'encryption', 'both'] }).notNull(),
    sanEmails: text().array().notNull().default([]),
    sanDnsNames: text().array().notNull().default([]),
    thumbprint: text().notNull(),
    notBefore: timestamp({ withTimezone: true }).notNull(),
    notAfter: timestamp({ withTimezone: true }).notNull(),
    certificateDer: bytea().notNull(),
    privateKeyCiphertext: bytea().notNull(),
    privateKeyIv: bytea().notNull(),
    privateKeyTag: bytea().notNull(),
    replacedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('certificate_previous_versions_certificate_idx').on(t.certificateId)],
);

// The organizations a certificate serves: those with a Direct address its SAN covers, found at import.
export const certificateOrganizations = pgTable(
  'certificate_organizations',
  {
    certificateId: uuid().notNull().references(() => certificates.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.certificateId, t.organizationId] }), index('certificate_organizations_org_idx').on(t.organizationId)],
);

// Trust anchors (issue 12 §1): the certificate authorities whose Direct certificates this HISP trusts, for incoming
// and for outgoing mail separately; a null domain applies to every Direct domain hosted here.
export const trustAnchors = pgTable('trust_anchors', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  // Set when the anchor came from a trust bundle: the bundle's refresh replaces its anchors.
  bundleId: uuid().references(() => trustBundles.id, { onDelete: 'cascade' }),
  domain: text(),
  incoming: boolean().notNull().default(true),
  outgoing: boolean().notNull().default(true),
  subject: text().notNull(),
  thumbprintSha256: text().notNull(),
  notAfter: timestamp({ withTimezone: true }).notNull(),
  certificateDer: bytea().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

// Trust bundles (issue 12 §1): a PKCS#7 file of anchors (the DirectTrust and other communities publish them), imported
// from a file or fetched from a URL every refreshIntervalMinutes; its anchors are trust_anchors rows with its id.
export const trustBundles = pgTable('trust_bundles', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  url: text(),
  domain: text(),
  incoming: boolean().notNull().default(true),
  outgoing: boolean().notNull().default(true),
  refreshIntervalMinutes: integer().notNull().default(1440),
  // SHA-256 of the last bundle read, so an unchanged download does not rewrite the anchors.
  checksum: text(),
  lastRefreshedAt: timestamp({ withTimezone: true }),
  lastError: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

// The last fetch of each CRL distribution point the Direct engine used (issue 27 §1, the "CRL refresh failing" alert):
// written on a list's first use after a download, and on every failure (a failing list is never cached).
export const revocationLists = pgTable('revocation_lists', {
  url: text().primaryKey(),
  lastSuccessAt: timestamp({ withTimezone: true }),
  lastError: text(),
  lastErrorAt: timestamp({ withTimezone: true }),
  // When the failures began; null again after a success.
  failingSince: timestamp({ withTimezone: true }),
});
