import { and, eq } from 'drizzle-orm';
import { type intakeRuleCreate, type intakeRuleView } from '@clinicrelay/contracts/intake.ts';
import type { z } from 'zod';
import type { Database, DbOrTx } from '../../db/client.ts';
import { intakeRules } from '../../db/schema/intake.ts';
import { auditedBy, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { notFound } from '../../platform/errors.ts';
import { normalizedAddress } from './service.ts';

// Not in the spec: PUT /api/intakerules/{id} changes one of the organization's intake rules (issue 13 §4); the
// list, creation, deletion and per-user assignment live with the users module (GET/POST/DELETE /api/intakerules).
export interface IntakeRuleDeps {
  db: Database;
  now: () => Date;
}

export async function updateRuleRow(db: DbOrTx, organizationId: string, id: string, values: Pick<typeof intakeRules.$inferInsert, 'name' | 'toAddress' | 'fromAddress' | 'sourceType'>) {
  const [row] = await db
    .update(intakeRules)
    .set(values)
    .where(and(eq(intakeRules.organizationId, organizationId), eq(intakeRules.id, id)))
    .returning();
  return row;
}

// Addresses are stored as messages carry them (Direct lower-case, fax digits), as at creation.
export async function updateRule(deps: IntakeRuleDeps, caller: OrgCaller, id: string, body: z.infer<typeof intakeRuleCreate>): Promise<z.infer<typeof intakeRuleView>> {
  const row = await updateRuleRow(deps.db, caller.organizationId, id, {
    name: body.name,
    toAddress: normalizedAddress(body.toAddress),
    fromAddress: normalizedAddress(body.fromAddress),
    sourceType: body.sourceType ?? null,
  });
  if (!row) throw notFound();
  await writeAudit(deps.db, { eventType: 'IntakeRuleUpdated', ...auditedBy(caller), correlationId: id, details: {} }, deps.now());
  return { id: row.id, name: row.name, toAddress: row.toAddress, fromAddress: row.fromAddress, sourceType: row.sourceType };
}

