import { and, eq, ilike, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { featureToggles } from '../../db/schema/features.ts';
import { users } from '../../db/schema/users.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

// The column named with its table: inside the subquery a bare created_by would be the users row's own.
const userName = (column: 'created_by' | 'modified_by') => sql<string | null>`(select u.user_name from ${users} u where u.id = ${featureToggles}.${sql.identifier(column)})`;

const columns = {
  id: featureToggles.id,
  name: featureToggles.name,
  enabled: featureToggles.isEnabled,
  isOrganizationFeature: featureToggles.isOrganizationFeature,
  createdAt: featureToggles.createdAt,
  createdBy: userName('created_by'),
  modifiedAt: featureToggles.modifiedAt,
  modifiedBy: userName('modified_by'),
};
export type FeatureRow = { id: string; name: string; enabled: boolean; isOrganizationFeature: boolean; createdAt: Date; createdBy: string | null; modifiedAt: Date; modifiedBy: string | null };

export function findFeaturePage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined }, page: PageRequest) {
  const where = filter.search ? ilike(featureToggles.name, containsPattern(filter.search)) : undefined;
  return findPage<FeatureRow>(
    page,
    ({ offset, limit }) => db.select(columns).from(featureToggles).where(where).orderBy(...byName(featureToggles.name, filter.sortDir)).offset(offset).limit(limit),
    () => db.$count(featureToggles, where),
  );
}

export async function findFeature(db: DbOrTx, id: string): Promise<FeatureRow | undefined> {
  const [row] = await db.select(columns).from(featureToggles).where(eq(featureToggles.id, id));
  return row;
}

export async function featureNameTaken(db: DbOrTx, name: string, exceptId?: string) {
  const n = await db.$count(featureToggles, and(sql`lower(${featureToggles.name}) = lower(${name})`, exceptId ? ne(featureToggles.id, exceptId) : undefined));
  return n > 0;
}

export interface FeatureValues {
  name: string;
  enabled: boolean;
  isOrganizationFeature: boolean;
}

export async function insertFeature(db: DbOrTx, values: FeatureValues & { by: string }) {
  const [row] = await db
    .insert(featureToggles)
    .values({ name: values.name, isEnabled: values.enabled, isOrganizationFeature: values.isOrganizationFeature, createdBy: values.by, modifiedBy: values.by })
    .returning({ id: featureToggles.id });
  return row!;
}

export async function updateFeature(db: DbOrTx, id: string, values: FeatureValues & { by: string; at: Date }) {
  const [row] = await db
    .update(featureToggles)
    .set({ name: values.name, isEnabled: values.enabled, isOrganizationFeature: values.isOrganizationFeature, modifiedBy: values.by, modifiedAt: values.at })
    .where(eq(featureToggles.id, id))
    .returning({ id: featureToggles.id });
  return row;
}
