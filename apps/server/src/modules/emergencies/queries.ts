import { asc, eq, ilike, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { emergencies, emergencyCoveredOrganizations } from '../../db/schema/emergencies.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export interface CoveredOrganization {
  oid: string;
  name: string;
}

export interface EmergencyRow {
  id: string;
  name: string;
  disabledDate: string | null;
  organizations: CoveredOrganization[];
}

const columns = { id: emergencies.id, name: emergencies.name, disabledDate: emergencies.disabledDate };

// The organizations of these emergencies, by emergency, in name order.
async function organizationsOf(db: DbOrTx, ids: string[]): Promise<Map<string, CoveredOrganization[]>> {
  const byEmergency = new Map<string, CoveredOrganization[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byEmergency;
  const rows = await db
    .select({ emergencyId: emergencyCoveredOrganizations.emergencyId, oid: emergencyCoveredOrganizations.oid, name: emergencyCoveredOrganizations.name })
    .from(emergencyCoveredOrganizations)
    .where(inArray(emergencyCoveredOrganizations.emergencyId, ids))
    .orderBy(...byName(emergencyCoveredOrganizations.name), asc(emergencyCoveredOrganizations.oid));
  for (const { emergencyId, ...organization } of rows) byEmergency.get(emergencyId)?.push(organization);
  return byEmergency;
}

export async function findEmergencyPage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined }, page: PageRequest) {
  const where = filter.search ? ilike(emergencies.name, containsPattern(filter.search)) : undefined;
  const result = await findPage(
    page,
    ({ offset, limit }) => db.select(columns).from(emergencies).where(where).orderBy(...byName(emergencies.name, filter.sortDir), asc(emergencies.id)).offset(offset).limit(limit),
    () => db.$count(emergencies, where),
  );
  const organizations = await organizationsOf(db, result.items.map((row) => row.id));
  return { items: result.items.map((row): EmergencyRow => ({ ...row, organizations: organizations.get(row.id) ?? [] })), totalCount: result.totalCount };
}

export async function findEmergency(db: DbOrTx, id: string, options: { forUpdate?: boolean } = {}): Promise<EmergencyRow | undefined> {
  const query = db.select(columns).from(emergencies).where(eq(emergencies.id, id));
  const [row] = await (options.forUpdate ? query.for('update') : query);
  if (!row) return undefined;
  return { ...row, organizations: (await organizationsOf(db, [id])).get(id) ?? [] };
}

export async function insertEmergency(db: DbOrTx, values: { name: string; disabledDate: string | null; by: string }) {
  const [row] = await db.insert(emergencies).values({ name: values.name, disabledDate: values.disabledDate, createdBy: values.by, modifiedBy: values.by }).returning({ id: emergencies.id });
  return row!.id;
}

export async function updateEmergency(db: DbOrTx, id: string, values: { name?: string; disabledDate?: string | null; by: string; at: Date }) {
  const rows = await db
    .update(emergencies)
    .set({ ...(values.name === undefined ? {} : { name: values.name }), ...(values.disabledDate === undefined ? {} : { disabledDate: values.disabledDate }), modifiedBy: values.by, modifiedAt: values.at })
    .where(eq(emergencies.id, id))
    .returning({ id: emergencies.id });
  return rows.length > 0;
}

/** Replaces the organizations an emergency covers. */
export async function replaceOrganizations(db: DbOrTx, emergencyId: string, organizations: CoveredOrganization[]) {
  await db.delete(emergencyCoveredOrganizations).where(eq(emergencyCoveredOrganizations.emergencyId, emergencyId));
  if (organizations.length > 0) await db.insert(emergencyCoveredOrganizations).values(organizations.map((o) => ({ emergencyId, oid: o.oid, name: o.name })));
}
