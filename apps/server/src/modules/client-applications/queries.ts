import { and, eq, ilike, ne, or } from 'drizzle-orm';
import type { ClientApplicationQuery } from '@clinicrelay/contracts/client-applications.ts';
import type { DbOrTx } from '../../db/client.ts';
import { clientApplications } from '../../db/schema/client-applications.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { byName, containsPattern, findPage } from '../../platform/paging.ts';

const columns = {
  id: clientApplications.id,
  name: clientApplications.name,
  logoUrl: clientApplications.logoUrl,
  redirectURI: clientApplications.redirectUri,
  applicationUrl: clientApplications.applicationUrl,
  clientId: clientApplications.clientId,
  organizationId: clientApplications.organizationId,
  organizationName: organizations.name,
  integrationUserId: clientApplications.integrationUserId,
  credentialsIssuedAt: clientApplications.credentialsIssuedAt,
};

const sortColumns = {
  name: clientApplications.name,
  logoUrl: clientApplications.logoUrl,
  redirectURI: clientApplications.redirectUri,
  applicationUrl: clientApplications.applicationUrl,
  clientId: clientApplications.clientId,
};

export function findClientApplicationPage(db: DbOrTx, query: ClientApplicationQuery) {
  const pattern = query.search ? containsPattern(query.search) : undefined;
  const where = pattern ? or(ilike(clientApplications.name, pattern), ilike(clientApplications.clientId, pattern), ilike(clientApplications.applicationUrl, pattern)) : undefined;
  return findPage(
    query,
    ({ offset, limit }) =>
      db
        .select(columns)
        .from(clientApplications)
        .leftJoin(organizations, eq(organizations.id, clientApplications.organizationId))
        .where(where)
        .orderBy(...byName(sortColumns[query.col ?? 'name'], query.sortDir), clientApplications.id)
        .offset(offset)
        .limit(limit),
    () => db.$count(clientApplications, where),
  );
}

export async function findClientApplication(db: DbOrTx, id: string) {
  const [row] = await db.select(columns).from(clientApplications).leftJoin(organizations, eq(organizations.id, clientApplications.organizationId)).where(eq(clientApplications.id, id));
  return row;
}

export async function nameTaken(db: DbOrTx, name: string, exceptId?: string) {
  const [row] = await db
    .select({ id: clientApplications.id })
    .from(clientApplications)
    .where(and(ilike(clientApplications.name, name.replace(/[\\%_]/g, (c) => `\\${c}`)), exceptId ? ne(clientApplications.id, exceptId) : undefined));
  return !!row;
}

export async function organizationExists(db: DbOrTx, organizationId: string) {
  const [row] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId));
  return !!row;
}

export async function insertClientApplication(db: DbOrTx, values: typeof clientApplications.$inferInsert) {
  const [row] = await db.insert(clientApplications).values(values).returning({ id: clientApplications.id });
  return row!.id;
}

export async function updateClientApplication(db: DbOrTx, id: string, values: Partial<typeof clientApplications.$inferInsert>) {
  const [row] = await db.update(clientApplications).set(values).where(eq(clientApplications.id, id)).returning({ id: clientApplications.id, clientId: clientApplications.clientId });
  return row;
}

export async function deleteClientApplication(db: DbOrTx, id: string) {
  const [row] = await db.delete(clientApplications).where(eq(clientApplications.id, id)).returning({ clientId: clientApplications.clientId, name: clientApplications.name, integrationUserId: clientApplications.integrationUserId });
  return row;
}

// The user a client-credentials integration acts as: no password (it never signs in), a member of one organization.
export async function insertIntegrationUser(db: DbOrTx, values: { clientId: string; name: string; by: string }) {
  const userName = `app-${values.clientId}@clients.invalid`;
  const [row] = await db
    .insert(users)
    .values({ userName, email: userName, firstName: values.name.slice(0, 100), lastName: 'Integration', passwordHash: null, createdBy: values.by, modifiedBy: values.by })
    .returning({ id: users.id });
  return row!.id;
}

export async function setIntegrationMembership(db: DbOrTx, userId: string, organizationId: string | null, disabled: boolean) {
  await db.delete(memberships).where(eq(memberships.userId, userId));
  if (organizationId) await db.insert(memberships).values({ userId, organizationId, role: 'User' });
  await db.update(users).set({ isDisabled: disabled, defaultOrganizationId: organizationId }).where(eq(users.id, userId));
}

export async function credentialsVersion(db: DbOrTx, id: string) {
  const [row] = await db.select({ v: clientApplications.credentialsVersion }).from(clientApplications).where(eq(clientApplications.id, id));
  return row?.v ?? 0;
}

export type ClientApplicationRow = NonNullable<Awaited<ReturnType<typeof findClientApplication>>>;
