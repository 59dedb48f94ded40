import type { z } from 'zod';
import { featureToggleMessages as text, type Feature, type featureInput, type featureQuery } from '@clinicrelay/contracts/feature-toggles.ts';
import { featureNames } from '@clinicrelay/contracts/session.ts';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import { clearFeatureCache } from './cache.ts';
import * as q from './queries.ts';

export interface FeatureTogglesDeps {
  db: Database;
  now: () => Date;
}

const builtIn = new Set<string>(featureNames);
const nameError = (message: string) => badRequest(message, { name: [message] });

const toFeature = (row: q.FeatureRow): Feature => ({
  id: row.id,
  name: row.name,
  enabled: row.enabled,
  isOrganizationFeature: row.isOrganizationFeature,
  createDate: row.createdAt.toISOString(),
  createdBy: row.createdBy,
  modifiedBy: row.modifiedBy,
  modifiedDate: row.modifiedAt.toISOString(),
});

export async function listFeatures(deps: FeatureTogglesDeps, query: z.output<typeof featureQuery>) {
  const page = await q.findFeaturePage(deps.db, query, query);
  return { items: page.items.map(toFeature), totalCount: page.totalCount };
}

export async function getFeature(deps: FeatureTogglesDeps, id: string) {
  const row = await q.findFeature(deps.db, id);
  if (!row) throw notFound();
  return toFeature(row);
}

// The unique index is the guard for two saves at once; the check before it gives the field's message.
async function saving<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameError(text.nameTaken);
    throw error;
  }
}

export async function createFeature(deps: FeatureTogglesDeps, caller: AdminCaller, input: z.output<typeof featureInput>) {
  const id = await saving(() =>
    deps.db.transaction(async (tx) => {
      if (await q.featureNameTaken(tx, input.name)) throw nameError(text.nameTaken);
      const row = await q.insertFeature(tx, { ...input, by: caller.session.userId });
      await writeAudit(tx, { eventType: 'FeatureToggleCreated', ...auditedByAdmin(caller), details: { id: row.id, ...input } });
      return row.id;
    }),
  );
  clearFeatureCache(deps.db);
  return getFeature(deps, id);
}

export async function updateFeature(deps: FeatureTogglesDeps, caller: AdminCaller, id: string, input: z.output<typeof featureInput>) {
  await saving(() =>
    deps.db.transaction(async (tx) => {
      const current = await q.findFeature(tx, id);
      if (!current) throw notFound();
      if (current.name !== input.name && builtIn.has(current.name)) throw nameError(text.builtInName);
      if (await q.featureNameTaken(tx, input.name, id)) throw nameError(text.nameTaken);
      await q.updateFeature(tx, id, { ...input, by: caller.session.userId, at: deps.now() });
      await writeAudit(tx, {
        eventType: 'FeatureToggleUpdated',
        ...auditedByAdmin(caller),
        details: { id, name: input.name, enabled: input.enabled, isOrganizationFeature: input.isOrganizationFeature, was: { name: current.name, enabled: current.enabled, isOrganizationFeature: current.isOrganizationFeature } },
      });
    }),
  );
  // This process at once; the others when the trigger's notification reaches them (cache.ts).
  clearFeatureCache(deps.db);
  return getFeature(deps, id);
}
