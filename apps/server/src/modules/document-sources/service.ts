import {
  DOCUMENT_SOURCE_STATUS as STATUS,
  documentSourceMessages as text,
  documentSourceStatusName,
  normalizeDirectAddress,
  normalizeFaxNumber,
  type AdminDocumentSource,
  type AdminDocumentSourceListItem,
  type DocumentSourceType,
  type FaxNumberOrdered,
} from '@clinicrelay/contracts/document-sources.ts';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import { sandboxFaxNumberProvider, type FaxNumberProvider } from './fax-numbers.ts';
import { ensureSampleRule } from '../intake/sample-rule.ts';
import * as q from './queries.ts';

export interface DocumentSourcesDeps {
  db: Database;
  /** Where new fax numbers come from; the sandbox provider when not given. */
  faxNumbers?: FaxNumberProvider;
}

// Which organization a caller may reach (issue 13 §3): a system administrator every one (null), an organization's
// Administrator only their current one; anything outside it answers 404.
export type Scope = string | null;
function within(scope: Scope, organizationId: string) {
  if (scope !== null && scope !== organizationId) throw notFound();
}

// The API says DirectMessaging where the table (and Release) says Direct.
const stored = (type: DocumentSourceType): q.StoredType => (type === 'Fax' ? 'Fax' : 'Direct');
const shown = (type: q.StoredType): DocumentSourceType => (type === 'Fax' ? 'Fax' : 'DirectMessaging');

const toApi = (row: q.SourceRow): AdminDocumentSource => ({
  id: row.id,
  organizationId: row.organizationId,
  organizationName: row.organizationName,
  type: shown(row.type),
  fullAddress: row.fullAddress,
  status: row.status,
  statusName: documentSourceStatusName(row.status),
  createdDate: row.createdAt.toISOString(),
  isGlobal: row.isGlobal,
});

const addressError = (message: string) => badRequest(message, { fullAddress: [message] });

// A Direct address as stored (lower case), or a fax number as its 10 digits; the body schema has checked the form.
// Direct addresses of this installation are name@{subdomain}.…: local delivery finds the organization by the whole
// address, and the subdomain keeps one organization from taking another's domain.
function storedAddress(type: DocumentSourceType, value: string, subdomain: string): string {
  if (type === 'Fax') {
    const digits = normalizeFaxNumber(value);
    if (!digits) throw addressError(text.faxInvalid);
    return digits;
  }
  const address = normalizeDirectAddress(value);
  if (subdomain && !address.split('@')[1]?.startsWith(`${subdomain.toLowerCase()}.`)) throw addressError(text.directDomain.replace('{domain}', `${subdomain.toLowerCase()}.`));
  return address;
}

export async function listSources(
  deps: DocumentSourcesDeps,
  query: { pageNumber: number; pageSize: number; search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined; type?: DocumentSourceType | undefined; organizationId?: string | undefined },
  scope: Scope = null,
): Promise<{ items: AdminDocumentSourceListItem[]; totalCount: number }> {
  const organizationId = scope ?? query.organizationId;
  const page = await q.findSourcePage(deps.db, { ...query, organizationId, type: query.type && stored(query.type) }, query);
  const senders = await q.findSenders(deps.db, page.items.map((row) => row.id));
  const items = page.items.map((row) => ({
    ...toApi(row),
    senders: senders.filter((s) => s.documentSourceId === row.id).map((s) => ({ userId: s.userId, fullName: `${s.firstName} ${s.lastName}`.trim() })),
  }));
  return { items, totalCount: page.totalCount };
}

export async function getSource(deps: { db: DbOrTx }, id: string, scope: Scope = null) {
  const row = await q.findSource(deps.db, id);
  if (!row) throw notFound();
  within(scope, row.organizationId);
  return toApi(row);
}

/** GET /exists?val=: whether a Direct address or fax number is taken by any organization (deleted ones included). */
export async function addressExists(deps: DocumentSourcesDeps, value: string) {
  const address = normalizeFaxNumber(value) ?? normalizeDirectAddress(value);
  return (await q.findByAddress(deps.db, address)) !== undefined;
}

async function audit(tx: DbOrTx, caller: AdminCaller, eventType: string, source: { id: string; organizationId: string; type: q.StoredType; fullAddress: string }, extra: Record<string, unknown> = {}) {
  await writeAudit(tx, { eventType, ...auditedByAdmin(caller), details: { documentSourceId: source.id, organizationId: source.organizationId, type: source.type, fullAddress: source.fullAddress, ...extra } });
}

// A new address starts Provisioning (0): it is neither offered as From nor receives until activated.
export async function createSource(deps: DocumentSourcesDeps, caller: AdminCaller, body: { organizationId: string; type: DocumentSourceType; fullAddress: string }, scope: Scope = null) {
  within(scope, body.organizationId);
  const id = await deps.db.transaction(async (tx) => {
    const organization = await q.findOrganization(tx, body.organizationId);
    if (!organization) throw notFound();
    const fullAddress = storedAddress(body.type, body.fullAddress, organization.subdomain);
    const row = await q.insertSource(tx, { organizationId: organization.id, type: stored(body.type), fullAddress });
    if (!row) throw addressError(text.addressTaken);
    await audit(tx, caller, 'DocumentSourceCreated', { id: row.id, organizationId: organization.id, type: stored(body.type), fullAddress });
    if (body.type === 'DirectMessaging') await ensureSampleRule(tx, organization.id);
    return row.id;
  });
  return getSource(deps, id);
}

async function current(tx: DbOrTx, id: string) {
  const row = await q.findSource(tx, id);
  if (!row) throw notFound();
  return row;
}

// Changing an activated address leaves it in service while the carrier applies it: Pending Update (2) until activated.
export async function updateSource(deps: DocumentSourcesDeps, caller: AdminCaller, body: { id: string; type: DocumentSourceType; fullAddress: string }) {
  await deps.db.transaction(async (tx) => {
    const row = await current(tx, body.id);
    if (row.status === STATUS.Deleted) throw badRequest(text.deletedIsFinal);
    if (shown(row.type) !== body.type) throw notFound();
    const organization = (await q.findOrganization(tx, row.organizationId))!;
    const fullAddress = storedAddress(body.type, body.fullAddress, organization.subdomain);
    if (fullAddress === row.fullAddress) return;
    const status = row.status === STATUS.Activated ? STATUS.PendingUpdate : row.status;
    try {
      await q.updateSource(tx, row.id, { fullAddress, status });
    } catch (error) {
      if (isUniqueViolation(error)) throw addressError(text.addressTaken);
      throw error;
    }
    await audit(tx, caller, 'DocumentSourceUpdated', { ...row, fullAddress }, { previousAddress: row.fullAddress, status });
  });
  return getSource(deps, body.id);
}

// Not in the spec (issue 13 §2): an Administrator lets every user send from an address, or only those it is given to;
// deleted addresses stay as they are.
export async function setGlobal(deps: DocumentSourcesDeps, caller: AdminCaller, id: string, isGlobal: boolean, scope: Scope = null) {
  await deps.db.transaction(async (tx) => {
    const row = await current(tx, id);
    within(scope, row.organizationId);
    if (row.status === STATUS.Deleted) throw badRequest(text.deletedIsFinal);
    if (row.isGlobal === isGlobal) return;
    await q.updateSource(tx, row.id, { isGlobal });
    await audit(tx, caller, 'DocumentSourceSharingChanged', row, { isGlobal });
  });
  return getSource(deps, id, scope);
}

async function setStatus(deps: DocumentSourcesDeps, caller: AdminCaller, id: string, eventType: string, next: (row: q.SourceRow) => number) {
  await deps.db.transaction(async (tx) => {
    const row = await current(tx, id);
    const status = next(row);
    if (status === row.status) return;
    await q.updateSource(tx, id, { status });
    await audit(tx, caller, eventType, row, { from: row.status, status });
  });
  return getSource(deps, id);
}

// Activation puts the address in service at once (Release's From list, local delivery, Intake); a deleted address
// activated again comes back with its history and user assignments.
export const activateSource = (deps: DocumentSourcesDeps, caller: AdminCaller, id: string) => setStatus(deps, caller, id, 'DocumentSourceActivated', () => STATUS.Activated);

// Removal marks the address Deleted (4) rather than deleting the row: it leaves service at once, and the messages
// sent from or received at it keep pointing at it. The address stays taken; activating it restores it.
export async function removeSource(deps: DocumentSourcesDeps, caller: AdminCaller, id: string, scope: Scope = null) {
  if (scope !== null) await getSource(deps, id, scope);
  await setStatus(deps, caller, id, 'DocumentSourceDeleted', () => STATUS.Deleted);
  return { ok: true as const };
}

// PUT /{id}/faxstatus: the carrier's provisioning outcome for a fax number, or an administrator's correction.
export const setFaxStatus = (deps: DocumentSourcesDeps, caller: AdminCaller, id: string, status: number) =>
  setStatus(deps, caller, id, 'DocumentSourceFaxStatusChanged', (row) => {
    if (row.type !== 'Fax') throw badRequest(text.faxOnly, { status: [text.faxOnly] });
    return status;
  });

export async function listProviders(deps: DocumentSourcesDeps, query: { pageNumber: number; pageSize: number; type?: DocumentSourceType | undefined }) {
  return q.findProviderPage(deps.db, query.type, query);
}

// POST /api/admin/documentsources/faxnumber: the provider assigns a number (no database transaction is open while it
// is asked); the sandbox's numbers are in service at once, as a provider's test mode would have them.
export async function orderFaxNumber(deps: DocumentSourcesDeps, caller: AdminCaller, organizationId: string, scope: Scope = null): Promise<FaxNumberOrdered> {
  within(scope, organizationId);
  const organization = await q.findOrganization(deps.db, organizationId);
  if (!organization) throw notFound();
  const provider = deps.faxNumbers ?? sandboxFaxNumberProvider;
  // Two requests at once may be given the same number: the unique address makes one of them ask again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const taken = new Set(await q.findFaxNumbersStartingWith(deps.db, provider.prefix));
    const number = await provider.orderNumber(taken);
    if (!number) throw badRequest(text.noSandboxFaxNumber);
    const id = await deps.db.transaction(async (tx) => {
      const row = await q.insertSource(tx, { organizationId, type: 'Fax', fullAddress: number, status: STATUS.Activated });
      if (row) await audit(tx, caller, 'DocumentSourceFaxNumberOrdered', { id: row.id, organizationId, type: 'Fax', fullAddress: number }, { provider: provider.name });
      return row?.id;
    });
    if (id) return { ...(await getSource(deps, id)), provider: provider.name, notice: text.sandboxFaxAssigned(displayAddress(number)) };
  }
  throw badRequest(text.noSandboxFaxNumber);
}
