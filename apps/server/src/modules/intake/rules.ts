import { and, eq, inArray, ne } from 'drizzle-orm';
import { intakeMessages, type intakeRuleCreate, type IntakeRuleView } from '@clinicrelay/contracts/intake.ts';
import { DOCUMENT_SOURCE_STATUS } from '@clinicrelay/contracts/document-sources.ts';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { intakeRules } from '../../db/schema/intake.ts';
import { auditedBy, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { normalizedAddress } from './service.ts';

// Not in the spec: PUT /api/intakerules/{id} changes one of the organization's intake rules (issue 13 §4); the
// list, creation, deletion and per-user assignment live with the users module (GET/POST/DELETE /api/intakerules).
export interface IntakeRuleDeps {
  db: Database;
  now: () => Date;
}

type RuleBody = z.infer<typeof intakeRuleCreate>;
type RuleRow = typeof intakeRules.$inferSelect;
export type RuleValues = Pick<typeof intakeRules.$inferInsert, 'name' | 'toAddresses' | 'fromAddress' | 'sourceType' | 'isGlobal'>;

export const toRuleView = (r: RuleRow): IntakeRuleView => ({ id: r.id, name: r.name, toAddresses: r.toAddresses, fromAddress: r.fromAddress, sourceType: r.sourceType, isGlobal: r.isGlobal });

// Addresses are stored as messages carry them (Direct lower-case, fax digits); the To addresses must be the
// organization's own (not deleted), since a rule routes what the organization receives.
export async function ruleValues(db: DbOrTx, organizationId: string, body: RuleBody): Promise<RuleValues> {
  const toAddresses = [...new Set(body.toAddresses.map((a) => normalizedAddress(a)!))];
  if (toAddresses.length) {
    const own = await db
      .select({ fullAddress: documentSources.fullAddress })
      .from(documentSources)
      .where(and(eq(documentSources.organizationId, organizationId), inArray(documentSources.fullAddress, toAddresses), ne(documentSources.status, DOCUMENT_SOURCE_STATUS.Deleted)));
    if (own.length !== toAddresses.length) throw badRequest(intakeMessages.ruleAddressNotOwn, { toAddresses: [intakeMessages.ruleAddressNotOwn] });
  }
  return { name: body.name, toAddresses, fromAddress: normalizedAddress(body.fromAddress), sourceType: body.sourceType ?? null, isGlobal: body.isGlobal };
}

export async function updateRule(deps: IntakeRuleDeps, caller: OrgCaller, id: string, body: RuleBody): Promise<IntakeRuleView> {
  const values = await ruleValues(deps.db, caller.organizationId, body);
  const [row] = await deps.db
    .update(intakeRules)
    .set(values)
    .where(and(eq(intakeRules.organizationId, caller.organizationId), eq(intakeRules.id, id)))
    .returning();
  if (!row) throw notFound();
  await writeAudit(deps.db, { eventType: 'IntakeRuleUpdated', ...auditedBy(caller), correlationId: id, details: {} }, deps.now());
  return toRuleView(row);
}
