import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { serviceAccounts } from '../../db/schema/back-office.ts';
import { organizations } from '../../db/schema/organizations.ts';

const columns = {
  id: serviceAccounts.id,
  clientId: serviceAccounts.clientId,
  serviceAccountEnabled: serviceAccounts.serviceAccountEnabled,
  clientIpAddresses: serviceAccounts.clientIpAddresses,
  allowedAddressCount: serviceAccounts.allowedAddressCount,
};

export async function findLimit(db: DbOrTx, organizationId: string) {
  const [row] = await db.select({ count: organizations.serviceAccountLimit }).from(organizations).where(eq(organizations.id, organizationId));
  return row;
}

export async function updateLimit(db: DbOrTx, organizationId: string, count: number) {
  await db.update(organizations).set({ serviceAccountLimit: count }).where(eq(organizations.id, organizationId));
}

export function findAccounts(db: DbOrTx, organizationId: string) {
  return db.select(columns).from(serviceAccounts).where(eq(serviceAccounts.organizationId, organizationId)).orderBy(asc(serviceAccounts.clientId));
}

export async function findAccountForUpdate(db: DbOrTx, organizationId: string, id: string) {
  const [row] = await db.select(columns).from(serviceAccounts).where(and(eq(serviceAccounts.organizationId, organizationId), eq(serviceAccounts.id, id))).for('update');
  return row;
}

export async function updateAccount(db: DbOrTx, id: string, values: { allowedAddressCount?: number; clientIpAddresses?: string[] }) {
  const [row] = await db.update(serviceAccounts).set(values).where(eq(serviceAccounts.id, id)).returning(columns);
  return row!;
}
