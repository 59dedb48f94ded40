import { normalizeFaxNumber } from '@clinicrelay/contracts/document-sources.ts';
import { faxAccountMessages as text, type EfaxAccountType, type FaxAccounts, type WestfaxAccount } from '@clinicrelay/contracts/fax-accounts.ts';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import type { FaxAccountProvider } from './provider.ts';
import * as q from './queries.ts';

export interface FaxAccountsDeps {
  db: Database;
  now: () => Date;
  provider: FaxAccountProvider;
}

const DEFAULT_BRAND = 'ClinicRelay';

async function organizationOf(deps: FaxAccountsDeps, id: string) {
  const organization = await q.findOrganization(deps.db, id);
  if (!organization) throw notFound();
  return organization;
}

// back-office-a §2: both tabs ask for a subdomain first; account and group names are made from it.
async function withSubdomain(deps: FaxAccountsDeps, id: string) {
  const organization = await organizationOf(deps, id);
  if (!organization.subdomain.trim()) throw badRequest(text.noSubdomainDetail);
  return organization;
}

const westfaxOf = (row: q.FaxAccountRow): WestfaxAccount => ({
  username: row.username ?? '',
  numbers: row.numbers,
  syncedAt: row.syncedAt?.toISOString() ?? null,
  createdDate: row.createdAt.toISOString(),
});

export async function accountsOf(deps: FaxAccountsDeps, organizationId: string): Promise<FaxAccounts> {
  const organization = await organizationOf(deps, organizationId);
  const rows = await q.findAccounts(deps.db, organizationId);
  const efax = rows.find((r) => r.provider === 'eFax');
  const westfax = rows.find((r) => r.provider === 'WestFax');
  return {
    organizationName: organization.name,
    subdomain: organization.subdomain,
    provider: deps.provider.name,
    eFaxAccount: efax ? { groupName: efax.groupName ?? '', accountType: efax.accountType ?? 'Kno2EFaxAccount', modifiedDate: efax.modifiedAt.toISOString() } : null,
    westFaxAccount: westfax ? westfaxOf(westfax) : null,
  };
}

const audit = (deps: FaxAccountsDeps, caller: AdminCaller, eventType: string, organizationId: string, details: Record<string, unknown> = {}) =>
  writeAudit(deps.db, { eventType, ...auditedByAdmin(caller), details: { organizationId, ...details } });

// PUT and POST /api/efax/account/kno2 both save the organization's one eFax account. A sub group of ours is named after
// the organization's preferred group name, else its subdomain; a customer-provided account names the customer's group.
export async function saveEfaxAccount(deps: FaxAccountsDeps, caller: AdminCaller, body: { organizationId: string; accountType: EfaxAccountType; groupName?: string | undefined }) {
  const organization = await withSubdomain(deps, body.organizationId);
  const failed = text.efaxFailed(organization.brandName ?? DEFAULT_BRAND, organization.name);
  const groupName = body.groupName || (body.accountType === 'Kno2EFaxAccount' ? organization.preferredGroupName || organization.subdomain : '');
  if (!groupName) throw badRequest(failed, { groupName: [text.groupNameRequired] });
  await deps.provider.saveEfaxGroup({ groupName, accountType: body.accountType });
  let row: q.FaxAccountRow;
  try {
    row = await q.saveAccount(deps.db, organization.id, 'eFax', { accountType: body.accountType, groupName }, deps.now());
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(failed, { groupName: [text.groupNameTaken] });
    throw error;
  }
  await audit(deps, caller, 'EfaxAccountSaved', organization.id, { accountType: body.accountType, groupName });
  return { message: text.efaxSaved(organization.name), eFaxAccount: { groupName, accountType: body.accountType, modifiedDate: row.modifiedAt.toISOString() } };
}

// PUT /api/westfax/account: generates the sub account, or resets its password when there is one. The password is
// returned once and never stored here.
export async function saveWestfaxAccount(deps: FaxAccountsDeps, caller: AdminCaller, organizationId: string) {
  const organization = await withSubdomain(deps, organizationId);
  const existing = await q.findAccount(deps.db, organizationId, 'WestFax');
  const username = existing?.username ?? `${organization.subdomain.toLowerCase()}.fax`;
  const { password } = existing ? await deps.provider.resetWestfaxPassword(username) : await deps.provider.createWestfaxAccount(username);
  const row = await q.saveAccount(deps.db, organizationId, 'WestFax', { username }, deps.now());
  await audit(deps, caller, existing ? 'WestfaxPasswordReset' : 'WestfaxAccountCreated', organizationId, { username });
  return { message: (existing ? text.westfaxUpdated : text.westfaxCreated)(organization.name), westFaxAccount: westfaxOf(row), password };
}

async function westfax(deps: FaxAccountsDeps, organizationId: string) {
  const organization = await organizationOf(deps, organizationId);
  const account = await q.findAccount(deps.db, organizationId, 'WestFax');
  if (!account) throw badRequest(text.westfaxMissing);
  return { organization, account, username: account.username ?? '' };
}

export async function syncWestfaxAccount(deps: FaxAccountsDeps, caller: AdminCaller, organizationId: string) {
  const { organization, account, username } = await westfax(deps, organizationId);
  const numbers = (await deps.provider.westfaxNumbers(username)) ?? account.numbers;
  const row = await q.saveAccount(deps.db, organizationId, 'WestFax', { numbers, syncedAt: deps.now() }, deps.now());
  await audit(deps, caller, 'WestfaxAccountSynced', organizationId, { username });
  return { message: text.westfaxSynced(organization.name), westFaxAccount: westfaxOf(row) };
}

export async function deleteWestfaxAccount(deps: FaxAccountsDeps, caller: AdminCaller, organizationId: string) {
  const { username } = await westfax(deps, organizationId);
  await deps.provider.deleteWestfaxAccount(username);
  await q.deleteAccount(deps.db, organizationId, 'WestFax');
  await audit(deps, caller, 'WestfaxAccountDeleted', organizationId, { username });
  return { ok: true as const };
}

export async function addWestfaxNumber(deps: FaxAccountsDeps, caller: AdminCaller, organizationId: string, value: string) {
  const { organization, account, username } = await westfax(deps, organizationId);
  const number = normalizeFaxNumber(value);
  if (!number) throw badRequest(text.numberInvalid, { number: [text.numberInvalid] });
  if (await q.numberInUse(deps.db, number)) throw badRequest(text.numberTaken, { number: [text.numberTaken] });
  await deps.provider.addWestfaxNumber(username, number);
  const row = await q.saveAccount(deps.db, organizationId, 'WestFax', { numbers: [...account.numbers, number].sort() }, deps.now());
  await audit(deps, caller, 'WestfaxNumberAdded', organizationId, { username, number });
  return { message: text.westfaxUpdated(organization.name), westFaxAccount: westfaxOf(row) };
}

export async function removeWestfaxNumber(deps: FaxAccountsDeps, caller: AdminCaller, organizationId: string, value: string) {
  const { organization, account, username } = await westfax(deps, organizationId);
  const number = normalizeFaxNumber(value) ?? value;
  if (!account.numbers.includes(number)) throw notFound();
  await deps.provider.removeWestfaxNumber(username, number);
  const row = await q.saveAccount(deps.db, organizationId, 'WestFax', { numbers: account.numbers.filter((n) => n !== number) }, deps.now());
  await audit(deps, caller, 'WestfaxNumberRemoved', organizationId, { username, number });
  return { message: text.westfaxUpdated(organization.name), westFaxAccount: westfaxOf(row) };
}
