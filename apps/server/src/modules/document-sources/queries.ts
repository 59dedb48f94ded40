import { and, asc, eq, ilike, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { documentSourceProviders } from '../../db/schema/back-office.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { userDocumentSources } from '../../db/schema/intake.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export type StoredType = (typeof documentSources.$inferSelect)['type'];

const columns = {
  id: documentSources.id,
  organizationId: documentSources.organizationId,
  organizationName: organizations.name,
  type: documentSources.type,
  fullAddress: documentSources.fullAddress,
  status: documentSources.status,
  isGlobal: documentSources.isGlobal,
  createdAt: documentSources.createdAt,
};
export type SourceRow = { id: string; organizationId: string; organizationName: string; type: StoredType; fullAddress: string; status: number; isGlobal: boolean; createdAt: Date };

const selectSources = (db: DbOrTx) => db.select(columns).from(documentSources).innerJoin(organizations, eq(organizations.id, documentSources.organizationId));

export function findSourcePage(
  db: DbOrTx,
  filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined; type?: StoredType | undefined; organizationId?: string | undefined },
  page: PageRequest,
) {
  const conditions: SQL[] = [];
  if (filter.type) conditions.push(eq(documentSources.type, filter.type));
  if (filter.organizationId) conditions.push(eq(documentSources.organizationId, filter.organizationId));
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    conditions.push(or(ilike(documentSources.fullAddress, pattern), ilike(organizations.name, pattern))!);
  }
  const where = and(...conditions);
  return findPage(
    page,
    ({ offset, limit }) => selectSources(db).where(where).orderBy(...byName(documentSources.fullAddress, filter.sortDir)).offset(offset).limit(limit),
    async () => (await db.select({ n: sql<number>`count(*)::int` }).from(documentSources).innerJoin(organizations, eq(organizations.id, documentSources.organizationId)).where(where))[0]?.n ?? 0,
  );
}

export async function findSource(db: DbOrTx, id: string): Promise<SourceRow | undefined> {
  const [row] = await selectSources(db).where(eq(documentSources.id, id));
  return row;
}

export async function findByAddress(db: DbOrTx, fullAddress: string) {
  const [row] = await db.select({ id: documentSources.id, organizationId: documentSources.organizationId }).from(documentSources).where(eq(documentSources.fullAddress, fullAddress));
  return row;
}

export async function findOrganization(db: DbOrTx, id: string) {
  const [row] = await db.select({ id: organizations.id, name: organizations.name, subdomain: organizations.subdomain }).from(organizations).where(eq(organizations.id, id));
  return row;
}

export async function insertSource(db: DbOrTx, values: { organizationId: string; type: StoredType; fullAddress: string; status?: number }) {
  const [row] = await db.insert(documentSources).values(values).onConflictDoNothing({ target: documentSources.fullAddress }).returning({ id: documentSources.id });
  return row;
}

export async function updateSource(db: DbOrTx, id: string, values: { fullAddress?: string; status?: number; isGlobal?: boolean }) {
  const [row] = await db.update(documentSources).set(values).where(eq(documentSources.id, id)).returning({ id: documentSources.id });
  return row;
}

export function findProviderPage(db: DbOrTx, type: 'DirectMessaging' | 'Fax' | undefined, page: PageRequest) {
  const where = type ? eq(documentSourceProviders.type, type) : undefined;
  return findPage(
    page,
    ({ offset, limit }) => db.select().from(documentSourceProviders).where(where).orderBy(documentSourceProviders.id).offset(offset).limit(limit),
    () => db.$count(documentSourceProviders, where),
  );
}

// Who may send from each address: the users it is assigned to in its organization.
export async function findSenders(db: DbOrTx, documentSourceIds: string[]) {
  if (documentSourceIds.length === 0) return [];
  return db
    .select({ documentSourceId: userDocumentSources.documentSourceId, userId: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(userDocumentSources)
    .innerJoin(documentSources, eq(documentSources.id, userDocumentSources.documentSourceId))
    .innerJoin(users, eq(users.id, userDocumentSources.userId))
    .where(and(inArray(userDocumentSources.documentSourceId, documentSourceIds), eq(userDocumentSources.organizationId, documentSources.organizationId)))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
}

// The fax numbers taken that start with the digits given (any organization, deleted ones included).
export async function findFaxNumbersStartingWith(db: DbOrTx, prefix: string) {
  const rows = await db
    .select({ fullAddress: documentSources.fullAddress })
    .from(documentSources)
    .where(and(eq(documentSources.type, 'Fax'), like(documentSources.fullAddress, `${prefix}%`)));
  return rows.map((r) => r.fullAddress);
}
