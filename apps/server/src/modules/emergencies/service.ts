import { emergencyStatus, utcToday, type emergencyInput, type emergencyQuery, type emergencyUpdate } from '@clinicrelay/contracts/emergencies.ts';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { notFound } from '../../platform/errors.ts';
import * as q from './queries.ts';

export interface EmergenciesDeps {
  db: Database;
  now: () => Date;
}

// isDisabled is derived (§3): the disabledDate reached (emergencyStatus in the contracts says which reading and why).
const withStatus = (today: string) => (row: q.EmergencyRow) => ({ ...row, isDisabled: emergencyStatus(row.disabledDate, today) === 'Disabled' });

// One organization once, even when the form sent it twice.
const distinctByOid = (organizations: q.CoveredOrganization[]) => [...new Map(organizations.map((o) => [o.oid, o])).values()];

export async function listEmergencies(deps: EmergenciesDeps, query: z.output<typeof emergencyQuery>) {
  const page = await q.findEmergencyPage(deps.db, query, query);
  return { items: page.items.map(withStatus(utcToday(deps.now()))), totalCount: page.totalCount };
}

export async function getEmergency(deps: EmergenciesDeps, id: string) {
  const row = await q.findEmergency(deps.db, id);
  if (!row) throw notFound();
  return withStatus(utcToday(deps.now()))(row);
}

export async function createEmergency(deps: EmergenciesDeps, caller: AdminCaller, input: z.output<typeof emergencyInput>) {
  const id = await deps.db.transaction(async (tx) => {
    const created = await q.insertEmergency(tx, { name: input.name, disabledDate: input.disabledDate, by: caller.session.userId });
    const organizations = distinctByOid(input.organizations);
    await q.replaceOrganizations(tx, created, organizations);
    await writeAudit(tx, { eventType: 'EmergencyCreated', ...auditedByAdmin(caller), details: { id: created, name: input.name, disabledDate: input.disabledDate, oids: organizations.map((o) => o.oid) } });
    return created;
  });
  return getEmergency(deps, id);
}

export async function updateEmergency(deps: EmergenciesDeps, caller: AdminCaller, input: z.output<typeof emergencyUpdate>) {
  await deps.db.transaction(async (tx) => {
    if (!(await q.updateEmergency(tx, input.id, { name: input.name, disabledDate: input.disabledDate, by: caller.session.userId, at: deps.now() }))) throw notFound();
    const organizations = distinctByOid(input.organizations);
    await q.replaceOrganizations(tx, input.id, organizations);
    await writeAudit(tx, { eventType: 'EmergencyUpdated', ...auditedByAdmin(caller), details: { id: input.id, name: input.name, disabledDate: input.disabledDate, oids: organizations.map((o) => o.oid) } });
  });
  return getEmergency(deps, input.id);
}

// §4: enabling clears the disabled date (a pending one too); disabling dates it today, unless it is already disabled
// (its date reached), which keeps the day it stopped. Both answer the emergency as it now is.
export async function setEmergencyEnabled(deps: EmergenciesDeps, caller: AdminCaller, id: string, enabled: boolean) {
  const now = deps.now();
  const today = utcToday(now);
  await deps.db.transaction(async (tx) => {
    const row = await q.findEmergency(tx, id, { forUpdate: true });
    if (!row) throw notFound();
    const disabledDate = enabled ? null : emergencyStatus(row.disabledDate, today) === 'Disabled' ? row.disabledDate : today;
    if (disabledDate === row.disabledDate) return;
    await q.updateEmergency(tx, id, { disabledDate, by: caller.session.userId, at: now });
    await writeAudit(tx, { eventType: enabled ? 'EmergencyEnabled' : 'EmergencyDisabled', ...auditedByAdmin(caller), details: { id, name: row.name, disabledDate, previousDisabledDate: row.disabledDate } });
  });
  return getEmergency(deps, id);
}
