import { SAMPLE_INTAKE_RULE_NAME } from '@clinicrelay/contracts/intake.ts';
import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { intakeRules, userIntakeRules } from '../../db/schema/intake.ts';
import { memberships } from '../../db/schema/users.ts';

// Issue 13 §4: every organization starts with "To Records (Sample)", its default (first) Direct address to its
// Administrators, as Kno2 seeds one, so an administrator sees how rules read. Made once, when the organization has
// its first Direct address (activation, a requested address, the demo seed; migration 0017 for older ones); an
// Administrator who deletes or renames it does not get it back. Returns the rule's id when it made it.
export async function ensureSampleRule(tx: DbOrTx, organizationId: string): Promise<string | null> {
  const [existing] = await tx.select({ id: intakeRules.id }).from(intakeRules).where(eq(intakeRules.organizationId, organizationId)).limit(1);
  if (existing) return null;
  const [address] = await tx
    .select({ fullAddress: documentSources.fullAddress })
    .from(documentSources)
    .where(and(eq(documentSources.organizationId, organizationId), eq(documentSources.type, 'Direct')))
    .orderBy(asc(documentSources.createdAt), asc(documentSources.fullAddress))
    .limit(1);
  if (!address) return null;
  const [rule] = await tx.insert(intakeRules).values({ organizationId, name: SAMPLE_INTAKE_RULE_NAME, toAddresses: [address.fullAddress] }).returning({ id: intakeRules.id });
  const admins = await tx.select({ userId: memberships.userId }).from(memberships).where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'Administrator')));
  if (admins.length) await tx.insert(userIntakeRules).values(admins.map((a) => ({ userId: a.userId, organizationId, intakeRuleId: rule!.id }))).onConflictDoNothing();
  return rule!.id;
}
