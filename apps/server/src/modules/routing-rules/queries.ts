import { and, asc, desc, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { routingRuleEndpoints, routingRuleSenders, routingRules } from '../../db/schema/routing-rules.ts';
import { byName, containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export type RuleRow = typeof routingRules.$inferSelect;
export type RuleValues = Omit<typeof routingRules.$inferInsert, 'id'>;
export type EndpointRow = typeof routingRuleEndpoints.$inferSelect;
export type EndpointValues = Omit<typeof routingRuleEndpoints.$inferInsert, 'id' | 'createdAt'>;
export type SenderRow = typeof routingRuleSenders.$inferSelect & { organizationName: string };
export type SenderValues = Omit<typeof routingRuleSenders.$inferInsert, 'id' | 'createdAt'>;
export type RuleSortColumn = 'address' | 'stepType' | 'convertToFormat';

const lowerAddress = sql`lower(${routingRules.address})`;

export function findRulePage(db: DbOrTx, filter: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined; col?: RuleSortColumn | undefined }, page: PageRequest) {
  const where = filter.search ? ilike(routingRules.address, containsPattern(filter.search)) : undefined;
  const direction = filter.sortDir === 'desc' ? desc : asc;
  const order: SQL[] =
    filter.col === 'stepType'
      ? [direction(routingRules.stepType), asc(routingRules.id)]
      : filter.col === 'convertToFormat'
        ? [direction(routingRules.convertToFormat), asc(routingRules.id)]
        : [...byName(routingRules.address, filter.sortDir), asc(routingRules.id)];
  return findPage(
    page,
    ({ offset, limit }) => db.select().from(routingRules).where(where).orderBy(...order).offset(offset).limit(limit),
    () => db.$count(routingRules, where),
  );
}

export async function findRule(db: DbOrTx, id: string) {
  const [row] = await db.select().from(routingRules).where(eq(routingRules.id, id));
  return row;
}

// The rule of an address, case ignored (one per address: the unique index on lower(address)).
export async function findRuleByAddress(db: DbOrTx, address: string) {
  const [row] = await db.select().from(routingRules).where(eq(lowerAddress, address.toLowerCase()));
  return row;
}

export async function addressTaken(db: DbOrTx, address: string, exceptId?: string) {
  return (await db.$count(routingRules, and(eq(lowerAddress, address.toLowerCase()), exceptId ? ne(routingRules.id, exceptId) : undefined))) > 0;
}

export async function insertRule(db: DbOrTx, values: RuleValues) {
  const [row] = await db.insert(routingRules).values(values).returning();
  return row!;
}

export async function updateRule(db: DbOrTx, id: string, values: Partial<RuleValues>) {
  const [row] = await db.update(routingRules).set(values).where(eq(routingRules.id, id)).returning();
  return row;
}

export async function deleteRule(db: DbOrTx, id: string) {
  const [row] = await db.delete(routingRules).where(eq(routingRules.id, id)).returning();
  return row;
}

export function findEndpoints(db: DbOrTx, ruleIds: string[]): Promise<EndpointRow[]> {
  if (ruleIds.length === 0) return Promise.resolve([]);
  return db.select().from(routingRuleEndpoints).where(inArray(routingRuleEndpoints.routingRuleId, ruleIds)).orderBy(asc(routingRuleEndpoints.createdAt), asc(routingRuleEndpoints.id));
}

async function findSendersWhere(db: DbOrTx, where: SQL | undefined): Promise<SenderRow[]> {
  const rows = await db
    .select({ sender: routingRuleSenders, organizationName: organizations.name })
    .from(routingRuleSenders)
    .innerJoin(organizations, eq(organizations.id, routingRuleSenders.organizationId))
    .where(where)
    .orderBy(...byName(organizations.name), asc(routingRuleSenders.id));
  return rows.map((r) => ({ ...r.sender, organizationName: r.organizationName }));
}

export async function findSenders(db: DbOrTx, ruleIds: string[]): Promise<SenderRow[]> {
  if (ruleIds.length === 0) return [];
  return findSendersWhere(db, inArray(routingRuleSenders.routingRuleId, ruleIds));
}

export async function findSender(db: DbOrTx, id: string) {
  const [row] = await findSendersWhere(db, eq(routingRuleSenders.id, id));
  return row;
}

export async function findEndpoint(db: DbOrTx, id: string) {
  const [row] = await db.select().from(routingRuleEndpoints).where(eq(routingRuleEndpoints.id, id));
  return row;
}

export async function insertEndpoint(db: DbOrTx, values: EndpointValues) {
  const [row] = await db.insert(routingRuleEndpoints).values(values).returning();
  return row!;
}

export async function updateEndpoint(db: DbOrTx, id: string, values: EndpointValues) {
  const [row] = await db.update(routingRuleEndpoints).set(values).where(eq(routingRuleEndpoints.id, id)).returning();
  return row;
}

export async function deleteEndpoint(db: DbOrTx, id: string) {
  const [row] = await db.delete(routingRuleEndpoints).where(eq(routingRuleEndpoints.id, id)).returning();
  return row;
}

export async function senderTaken(db: DbOrTx, routingRuleId: string, organizationId: string, exceptId?: string) {
  const where = and(eq(routingRuleSenders.routingRuleId, routingRuleId), eq(routingRuleSenders.organizationId, organizationId), exceptId ? ne(routingRuleSenders.id, exceptId) : undefined);
  return (await db.$count(routingRuleSenders, where)) > 0;
}

export async function insertSender(db: DbOrTx, values: SenderValues) {
  const [row] = await db.insert(routingRuleSenders).values(values).returning({ id: routingRuleSenders.id });
  return row!.id;
}

export async function updateSender(db: DbOrTx, id: string, values: SenderValues) {
  const [row] = await db.update(routingRuleSenders).set(values).where(eq(routingRuleSenders.id, id)).returning({ id: routingRuleSenders.id });
  return row?.id;
}

export async function deleteSender(db: DbOrTx, id: string) {
  const [row] = await db.delete(routingRuleSenders).where(eq(routingRuleSenders.id, id)).returning();
  return row;
}

export async function organizationExists(db: DbOrTx, id: string) {
  return (await db.$count(organizations, eq(organizations.id, id))) > 0;
}
