import { and, arrayContains, asc, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { certificateOrganizations, certificatePreviousVersions, certificates } from '../../db/schema/certificates.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export type CertificateRow = typeof certificates.$inferSelect;
export type CertificateValues = Omit<typeof certificates.$inferInsert, 'id' | 'createdAt' | 'version'>;

const listColumns = {
  id: certificates.id,
  name: certificates.name,
  thumbprint: certificates.thumbprint,
  notAfter: certificates.notAfter,
  version: certificates.version,
  enabled: certificates.enabled,
};

export async function organizationsOf(db: DbOrTx, certificateIds: string[]) {
  if (certificateIds.length === 0) return new Map<string, { id: string; name: string }[]>();
  const rows = await db
    .select({ certificateId: certificateOrganizations.certificateId, id: organizations.id, name: organizations.name })
    .from(certificateOrganizations)
    .innerJoin(organizations, eq(organizations.id, certificateOrganizations.organizationId))
    .where(inArray(certificateOrganizations.certificateId, certificateIds))
    .orderBy(...byName(organizations.name));
  const byCertificate = new Map<string, { id: string; name: string }[]>();
  for (const { certificateId, ...organization } of rows) byCertificate.set(certificateId, [...(byCertificate.get(certificateId) ?? []), organization]);
  return byCertificate;
}

export function findCertificatePage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined }, page: PageRequest) {
  const where = filter.search ? or(ilike(certificates.name, containsPattern(filter.search)), ilike(certificates.thumbprint, containsPattern(filter.search))) : undefined;
  return findPage(
    page,
    ({ offset, limit }) => db.select(listColumns).from(certificates).where(where).orderBy(...byName(certificates.name, filter.sortDir)).offset(offset).limit(limit),
    () => db.$count(certificates, where),
  );
}

export async function findByName(db: DbOrTx, name: string) {
  const [row] = await db.select().from(certificates).where(eq(certificates.name, name));
  return row;
}

export async function insertCertificate(db: DbOrTx, values: CertificateValues) {
  const [row] = await db.insert(certificates).values(values).onConflictDoNothing({ target: certificates.name }).returning({ id: certificates.id });
  return row;
}

// A new certificate under an existing name: the next version. The one it replaces is kept with its key, so what was
// encrypted to it while the new one was being published can still be opened (issue 28 §1).
export async function replaceCertificate(db: DbOrTx, id: string, values: CertificateValues) {
  await db.insert(certificatePreviousVersions).select(
    db
      .select({
        id: sql`gen_random_uuid()`.as('id'),
        certificateId: certificates.id,
        version: certificates.version,
        usage: certificates.usage,
        sanEmails: certificates.sanEmails,
        sanDnsNames: certificates.sanDnsNames,
        thumbprint: certificates.thumbprint,
        notBefore: certificates.notBefore,
        notAfter: certificates.notAfter,
        certificateDer: certificates.certificateDer,
        privateKeyCiphertext: certificates.privateKeyCiphertext,
        privateKeyIv: certificates.privateKeyIv,
        privateKeyTag: certificates.privateKeyTag,
        replacedAt: sql`now()`.as('replaced_at'),
      })
      .from(certificates)
      .where(eq(certificates.id, id)),
  );
  await db
    .update(certificates)
    .set({ ...values, version: sql`${certificates.version} + 1`, modifiedAt: sql`now()` })
    .where(eq(certificates.id, id));
}

export async function setEnabled(db: DbOrTx, id: string, enabled: boolean, modifiedBy: string) {
  await db.update(certificates).set({ enabled, modifiedBy, modifiedAt: sql`now()` }).where(eq(certificates.id, id));
}

// The organizations with a Direct address the names cover: the address itself (rfc822Name) or its domain (dNSName).
export async function linkOrganizations(db: DbOrTx, certificateId: string, san: { emails: string[]; dnsNames: string[] }) {
  await db.delete(certificateOrganizations).where(eq(certificateOrganizations.certificateId, certificateId));
  const domain = sql`split_part(${documentSources.fullAddress}, '@', 2)`;
  const covered = or(
    san.emails.length ? inArray(documentSources.fullAddress, san.emails) : undefined,
    san.dnsNames.length ? inArray(domain, san.dnsNames) : undefined,
  );
  await db
    .insert(certificateOrganizations)
    .select(db.selectDistinct({ certificateId: sql<string>`${certificateId}::uuid`.as('certificate_id'), organizationId: documentSources.organizationId }).from(documentSources).where(and(eq(documentSources.type, 'Direct'), covered)))
    .onConflictDoNothing();
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

// The enabled certificates that may serve an address for a use, the address's own (rfc822Name) before its domain's,
// the newest (latest notBefore) first.
export function findUsable(db: DbOrTx, address: string, usage: 'signing' | 'encryption') {
  return db
    .select()
    .from(certificates)
    .where(
      and(
        eq(certificates.enabled, true),
        inArray(certificates.usage, [usage, 'both']),
        or(arrayContains(certificates.sanEmails, [address]), arrayContains(certificates.sanDnsNames, [domainOf(address)])),
      ),
    )
    .orderBy(sql`case when ${certificates.sanEmails} @> array[${address}]::text[] then 0 else 1 end`, desc(certificates.notBefore), desc(certificates.notAfter), asc(certificates.name));
}

const keyColumns = {
  certificateDer: certificates.certificateDer,
  privateKeyCiphertext: certificates.privateKeyCiphertext,
  privateKeyIv: certificates.privateKeyIv,
  privateKeyTag: certificates.privateKeyTag,
};

/**
 * Every key that may open what is sent to an address: the enabled certificates naming it or its domain, and the
 * versions a re-import of those replaced (whatever their usage: which key opens a message is decided by its
 * RecipientInfos). Dates are the caller's to judge.
 */
export async function findDecryptable(db: DbOrTx, address: string) {
  const domain = domainOf(address);
  const current = await db
    .select({ name: certificates.name, sanEmails: certificates.sanEmails, notBefore: certificates.notBefore, notAfter: certificates.notAfter, chain: certificates.chain, ...keyColumns })
    .from(certificates)
    .where(and(eq(certificates.enabled, true), or(arrayContains(certificates.sanEmails, [address]), arrayContains(certificates.sanDnsNames, [domain]))));
  const previous = await db
    .select({
      name: sql<string>`${certificates.name} || ' (version ' || ${certificatePreviousVersions.version} || ')'`,
      sanEmails: certificatePreviousVersions.sanEmails,
      notBefore: certificatePreviousVersions.notBefore,
      notAfter: certificatePreviousVersions.notAfter,
      chain: certificates.chain,
      certificateDer: certificatePreviousVersions.certificateDer,
      privateKeyCiphertext: certificatePreviousVersions.privateKeyCiphertext,
      privateKeyIv: certificatePreviousVersions.privateKeyIv,
      privateKeyTag: certificatePreviousVersions.privateKeyTag,
    })
    .from(certificatePreviousVersions)
    .innerJoin(certificates, eq(certificates.id, certificatePreviousVersions.certificateId))
    .where(
      and(
        eq(certificates.enabled, true),
        or(arrayContains(certificatePreviousVersions.sanEmails, [address]), arrayContains(certificatePreviousVersions.sanDnsNames, [domain])),
      ),
    );
  return [...current, ...previous];
}
