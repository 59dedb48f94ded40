import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { intakeRules, userDocumentSources, userIntakeRules } from '../../db/schema/intake.ts';
import { memberships } from '../../db/schema/users.ts';

export type IntakeRuleRow = typeof intakeRules.$inferSelect;

export async function findMembership(db: DbOrTx, organizationId: string, userId: string) {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row;
}

export async function findDocumentSourceIds(db: DbOrTx, organizationId: string, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: documentSources.id })
    .from(documentSources)
    .where(and(eq(documentSources.organizationId, organizationId), inArray(documentSources.id, ids)));
  return rows.map((r) => r.id);
}

export async function findUserDocumentSources(db: DbOrTx, organizationId: string, userId: string) {
  return db
    .select({ organizationId: userDocumentSources.organizationId, documentSourceId: userDocumentSources.documentSourceId })
    .from(userDocumentSources)
    .innerJoin(documentSources, eq(documentSources.id, userDocumentSources.documentSourceId))
    .where(and(eq(userDocumentSources.organizationId, organizationId), eq(userDocumentSources.userId, userId)))
    .orderBy(asc(documentSources.type), asc(documentSources.fullAddress));
}

// Replaces the user's document sources in one organization.
export async function replaceUserDocumentSources(db: DbOrTx, organizationId: string, userId: string, documentSourceIds: string[]) {
  await db.delete(userDocumentSources).where(and(eq(userDocumentSources.organizationId, organizationId), eq(userDocumentSources.userId, userId)));
  if (documentSourceIds.length) {
    await db.insert(userDocumentSources).values(documentSourceIds.map((documentSourceId) => ({ userId, organizationId, documentSourceId })));
  }
}

export async function findRules(db: DbOrTx, organizationId: string, ids?: string[]) {
  if (ids?.length === 0) return [];
  return db
    .select()
    .from(intakeRules)
    .where(and(eq(intakeRules.organizationId, organizationId), ids ? inArray(intakeRules.id, ids) : undefined))
    .orderBy(asc(intakeRules.name), asc(intakeRules.id));
}

export async function findUserRules(db: DbOrTx, organizationId: string, userId: string) {
  return db
    .select({ rule: intakeRules })
    .from(userIntakeRules)
    .innerJoin(intakeRules, eq(intakeRules.id, userIntakeRules.intakeRuleId))
    .where(and(eq(userIntakeRules.organizationId, organizationId), eq(userIntakeRules.userId, userId)))
    .orderBy(asc(intakeRules.name), asc(intakeRules.id))
    .then((rows) => rows.map((r) => r.rule));
}

// Replaces the user's intake rules in one organization.
export async function replaceUserRules(db: DbOrTx, organizationId: string, userId: string, intakeRuleIds: string[]) {
  await db.delete(userIntakeRules).where(and(eq(userIntakeRules.organizationId, organizationId), eq(userIntakeRules.userId, userId)));
  if (intakeRuleIds.length) {
    await db.insert(userIntakeRules).values(intakeRuleIds.map((intakeRuleId) => ({ userId, organizationId, intakeRuleId })));
  }
}

export async function insertRule(db: DbOrTx, row: typeof intakeRules.$inferInsert) {
  const [created] = await db.insert(intakeRules).values(row).returning();
  return created!;
}

export async function removeRule(db: DbOrTx, organizationId: string, id: string) {
  const rows = await db
    .delete(intakeRules)
    .where(and(eq(intakeRules.organizationId, organizationId), eq(intakeRules.id, id)))
    .returning({ id: intakeRules.id });
  return rows.length > 0;
}
