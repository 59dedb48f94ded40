import { ORGANIZATION_SEARCH_LIMIT, type emergencyOrganizationInput, type emergencyOrganizationQuery } from '@clinicrelay/contracts/emergencies.ts';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { notFound } from '../../platform/errors.ts';
import * as q from './queries.ts';

export interface CarequalityServiceDeps {
  db: Database;
  now: () => Date;
}

export const listOrganizations = (deps: CarequalityServiceDeps, query: z.output<typeof emergencyOrganizationQuery>) => q.findOrganizationPage(deps.db, query, query);

export async function getOrganization(deps: CarequalityServiceDeps, oid: string) {
  return (await q.findOrganization(deps.db, oid)) ?? Promise.reject(notFound());
}

// PUT adds the organization or, for an OID already listed, changes its display name.
export async function saveOrganization(deps: CarequalityServiceDeps, caller: AdminCaller, input: z.output<typeof emergencyOrganizationInput>) {
  return deps.db.transaction(async (tx) => {
    const { inserted, ...row } = await q.upsertOrganization(tx, { ...input, by: caller.session.userId, at: deps.now() });
    await writeAudit(tx, { eventType: inserted ? 'EmergencyOrganizationAdded' : 'EmergencyOrganizationUpdated', ...auditedByAdmin(caller), details: row });
    return row;
  });
}

export async function deleteOrganization(deps: CarequalityServiceDeps, caller: AdminCaller, oid: string) {
  await deps.db.transaction(async (tx) => {
    const row = await q.deleteOrganization(tx, oid);
    if (!row) throw notFound();
    await writeAudit(tx, { eventType: 'EmergencyOrganizationDeleted', ...auditedByAdmin(caller), details: row });
  });
  return { ok: true as const };
}

export const searchOrganizations = (deps: CarequalityServiceDeps, text: string) => q.searchOrganizations(deps.db, text, ORGANIZATION_SEARCH_LIMIT);
