import { NETWORK_FEATURES, networkMessages as text, type NetworkFeature } from '@clinicrelay/contracts/networks.ts';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import * as q from './queries.ts';

export interface NetworksDeps {
  db: Database;
}

// back-office-a §5: typeaheads search from the second character.
const TYPEAHEAD_MIN = 2;
// GET /api/networks/ with no paging asks for the whole list (catalog note); a platform has a handful of networks.
const WHOLE_LIST = 5000;

export const listNetworks = (deps: NetworksDeps, query: { search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined; pageNumber?: number | undefined; pageSize?: number | undefined }) =>
  q.findNetworkPage(deps.db, query, query.pageNumber === undefined && query.pageSize === undefined ? { pageNumber: 1, pageSize: WHOLE_LIST } : { pageNumber: query.pageNumber ?? 1, pageSize: query.pageSize ?? 10 });

export async function getNetwork(deps: NetworksDeps, id: string) {
  return (await q.findNetwork(deps.db, id)) ?? Promise.reject(notFound());
}

const nameTaken = () => badRequest(text.nameTaken, { name: [text.nameTaken] });

export async function createNetwork(deps: NetworksDeps, caller: AdminCaller, name: string) {
  const id = await deps.db.transaction(async (tx) => {
    const row = await q.insertNetwork(tx, name);
    if (!row) throw nameTaken();
    await writeAudit(tx, { eventType: 'NetworkCreated', ...auditedByAdmin(caller), details: { networkId: row.id, name } });
    return row.id;
  });
  return getNetwork(deps, id);
}

/** The features as the spec shows them: parents with their children. */
export function networkFeatures(): NetworkFeature[] {
  const of = (parentId: number | null): NetworkFeature[] =>
    NETWORK_FEATURES.filter((f) => f.parentId === parentId).map((f) => ({ id: f.id, name: f.name, description: f.description, childNetworkFeatures: of(f.id) }));
  return of(null);
}

// §4: SSO and SCIM stay on once on; a child only with its parent; only known features.
function checkFeatures(before: readonly number[], after: readonly number[]) {
  const wanted = new Set(after);
  const fields = (message: string) => badRequest(message, { enabledNetworkFeatureIds: [message] });
  for (const id of wanted) {
    const feature = NETWORK_FEATURES.find((f) => f.id === id);
    if (!feature) throw fields(text.saveFailed);
    if (feature.parentId !== null && !wanted.has(feature.parentId)) throw fields(text.childNeedsParent);
  }
  for (const id of before) if (NETWORK_FEATURES.find((f) => f.id === id)?.locked && !wanted.has(id)) throw fields(text.featureLocked);
}

// The network-feature toggle of end-user §6 is for the network's administrators (and system administrators); for
// anyone else the network does not exist.
export async function getFeatureSettings(deps: NetworksDeps, caller: AdminCaller, id: string) {
  const allowed = caller.session.roles.includes('SysAdmin') || (await q.isNetworkAdministrator(deps.db, id, caller.session.userId));
  const network = allowed ? await q.findNetwork(deps.db, id) : undefined;
  if (!network) throw notFound();
  return { id: network.id, name: network.name, organizations: network.organizations, enabledNetworkFeatureIds: network.enabledNetworkFeatureIds, features: networkFeatures() };
}

export async function updateFeatureSettings(deps: NetworksDeps, caller: AdminCaller, id: string, enabledNetworkFeatureIds: number[]) {
  const current = await getFeatureSettings(deps, caller, id);
  const features = [...new Set(enabledNetworkFeatureIds)].sort((a, b) => a - b);
  checkFeatures(current.enabledNetworkFeatureIds, features);
  await deps.db.transaction(async (tx) => {
    await q.updateNetwork(tx, id, { name: current.name, enabledNetworkFeatureIds: features });
    await writeAudit(tx, { eventType: 'NetworkFeaturesUpdated', ...auditedByAdmin(caller), details: { networkId: id, enabledNetworkFeatureIds: features } });
  });
  return getFeatureSettings(deps, caller, id);
}

export async function updateNetwork(deps: NetworksDeps, caller: AdminCaller, id: string, input: { name: string; enabledNetworkFeatureIds?: number[] | undefined }) {
  await deps.db.transaction(async (tx) => {
    const current = await q.findNetwork(tx, id);
    if (!current) throw notFound();
    const features = input.enabledNetworkFeatureIds && [...new Set(input.enabledNetworkFeatureIds)].sort((a, b) => a - b);
    if (features) checkFeatures(current.enabledNetworkFeatureIds, features);
    try {
      await q.updateNetwork(tx, id, { name: input.name, enabledNetworkFeatureIds: features });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    await writeAudit(tx, { eventType: 'NetworkUpdated', ...auditedByAdmin(caller), details: { networkId: id, name: input.name, ...(features ? { enabledNetworkFeatureIds: features } : {}) } });
  });
  return getNetwork(deps, id);
}

export async function deleteNetwork(deps: NetworksDeps, caller: AdminCaller, id: string) {
  await deps.db.transaction(async (tx) => {
    const row = await q.deleteNetwork(tx, id);
    if (!row) throw notFound();
    await writeAudit(tx, { eventType: 'NetworkDeleted', ...auditedByAdmin(caller), details: { networkId: id, name: row.name } });
  });
  return { ok: true as const };
}

async function existing(deps: NetworksDeps, networkId: string) {
  if (!(await q.networkExists(deps.db, networkId))) throw notFound();
}
const chooseFromList = (field: string) => badRequest(text.chooseFromList, { [field]: [text.chooseFromList] });

export async function organizationsOf(deps: NetworksDeps, networkId: string, search: string | undefined) {
  if (search === undefined) return (await getNetwork(deps, networkId)).organizations;
  await existing(deps, networkId);
  return search.length < TYPEAHEAD_MIN ? [] : q.findOrganizationCandidates(deps.db, search);
}

export async function addOrganization(deps: NetworksDeps, caller: AdminCaller, networkId: string, organizationId: string) {
  await existing(deps, networkId);
  await deps.db.transaction(async (tx) => {
    if (!(await q.organizationExists(tx, organizationId))) throw chooseFromList('organizationId');
    const current = await q.networkOfOrganization(tx, organizationId);
    if (current && current !== networkId) throw badRequest(text.organizationInOtherNetwork, { organizationId: [text.organizationInOtherNetwork] });
    await q.addOrganization(tx, networkId, organizationId);
    await writeAudit(tx, { eventType: 'NetworkOrganizationAdded', ...auditedByAdmin(caller), details: { networkId, organizationId } });
  });
  return { ok: true as const };
}

export async function removeOrganization(deps: NetworksDeps, caller: AdminCaller, networkId: string, organizationId: string) {
  await deps.db.transaction(async (tx) => {
    if (!(await q.removeOrganization(tx, networkId, organizationId))) throw notFound();
    await writeAudit(tx, { eventType: 'NetworkOrganizationRemoved', ...auditedByAdmin(caller), details: { networkId, organizationId } });
  });
  return { ok: true as const };
}

export async function administratorsOf(deps: NetworksDeps, networkId: string, search: string | undefined) {
  if (search === undefined) return (await getNetwork(deps, networkId)).administrators;
  await existing(deps, networkId);
  return search.length < TYPEAHEAD_MIN ? [] : q.findAdministratorCandidates(deps.db, networkId, search);
}

export async function addAdministrator(deps: NetworksDeps, caller: AdminCaller, networkId: string, userId: string) {
  await existing(deps, networkId);
  await deps.db.transaction(async (tx) => {
    if (!(await q.activeUserExists(tx, userId))) throw chooseFromList('userId');
    await q.addAdministrator(tx, networkId, userId);
    await writeAudit(tx, { eventType: 'NetworkAdministratorAdded', ...auditedByAdmin(caller), details: { networkId, userId } });
  });
  return { ok: true as const };
}

export async function removeAdministrator(deps: NetworksDeps, caller: AdminCaller, networkId: string, userId: string) {
  await deps.db.transaction(async (tx) => {
    if (!(await q.removeAdministrator(tx, networkId, userId))) throw notFound();
    await writeAudit(tx, { eventType: 'NetworkAdministratorRemoved', ...auditedByAdmin(caller), details: { networkId, userId } });
  });
  return { ok: true as const };
}
