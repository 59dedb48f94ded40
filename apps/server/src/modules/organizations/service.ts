import type { z } from 'zod';
import {
  FREE_PLAN_USER_LIMIT,
  RESELLER_TYPE_AFFILIATE,
  RESELLER_TYPE_LICENSING,
  organizationMessages as text,
  type Organization,
  type OrganizationAdminSettings,
  type organizationInput,
  type organizationQuery,
} from '@clinicrelay/contracts/organizations.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import type { organizations, OrganizationSettingsColumn } from '../../db/schema/organizations.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import { clearSessionCache, type AdminCaller } from '../../platform/auth/guard.ts';
import { badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';
import { settingsOf } from '../organization-settings/service.ts';
import type { CustomerMessagingService } from '../../platform/customer-messaging.ts';
import { provisionOnActivation } from './provisioning.ts';
import * as q from './queries.ts';

export interface OrganizationsDeps {
  db: Database;
  now: () => Date;
  mailFrom: MailAddress;
  // The records address's domain comes from PUBLIC_URL; links in mails point at appUrl (this server without one).
  publicUrl: string | undefined;
  appUrl: string;
  customerMessaging: CustomerMessagingService;
}

type Input = z.output<typeof organizationInput>;

// §5: typeaheads search from the second character; a typeahead offers 10.
const TYPEAHEAD_MIN = 2;
const TYPEAHEAD_SIZE = 10;

const fieldError = (field: string, message: string) => badRequest(message, { [field]: [message] });
const subdomainError = () => fieldError('subdomain', text.subdomainInvalid);

export function listOrganizations(deps: OrganizationsDeps, query: z.output<typeof organizationQuery>) {
  // The typeahead (GET /api/organizations/?search=): no paging asked.
  if (query.pageNumber === undefined && query.pageSize === undefined && query.search !== undefined) {
    if (query.search.length < TYPEAHEAD_MIN) return Promise.resolve({ items: [], totalCount: 0 });
    return q.findOptions(deps.db, query.search, TYPEAHEAD_SIZE);
  }
  return q.findOrganizationPage(deps.db, query, { pageNumber: query.pageNumber ?? 1, pageSize: query.pageSize ?? 10 });
}

export async function queueCounts(deps: OrganizationsDeps) {
  const [awaitingActivation, awaitingReview] = await Promise.all([q.countQueue(deps.db, 'awaitingActivation'), q.countQueue(deps.db, 'awaitingReview')]);
  return { awaitingActivation, awaitingReview };
}

// organizations.settings as the settings tab shows them (a flag never set is off).
function adminSettingsOf(column: OrganizationSettingsColumn): OrganizationAdminSettings {
  const { brandName: _brand, ...s } = settingsOf(column);
  return { ...s, planRestricted: column.planRestricted === true };
}

export async function getOrganization(deps: Pick<OrganizationsDeps, 'db'>, id: string): Promise<Organization> {
  const row = await q.findById(deps.db, id);
  if (!row) throw notFound();
  const o = row.organization;
  return {
    id: o.id,
    orgId: o.orgId,
    name: o.name,
    subdomain: o.subdomain,
    brandId: o.brandId,
    organizationTypeId: o.organizationTypeId,
    organizationSpecialtyId: o.organizationSpecialtyId,
    networkDbId: row.networkId,
    networkName: row.networkName,
    plan: o.planId && row.planDescription !== null ? { id: o.planId, allowedUsersDescription: row.planDescription } : null,
    planId: o.planId,
    reseller: o.licensingResellerId
      ? { id: o.licensingResellerId, type: RESELLER_TYPE_LICENSING }
      : o.affiliateResellerId
        ? { id: o.affiliateResellerId, type: row.affiliateResellerType ?? RESELLER_TYPE_AFFILIATE }
        : null,
    resellerId: o.licensingResellerId ?? o.affiliateResellerId,
    resellerName: o.licensingResellerId ? row.licensingResellerName : row.affiliateResellerName,
    affiliateResellerId: o.affiliateResellerId,
    affiliateResellerName: row.affiliateResellerName,
    licensingResellerId: o.licensingResellerId,
    licensingResellerName: row.licensingResellerName,
    tierCode: o.tierCode,
    numberOfUsers: row.numberOfUsers,
    enabledFeatures: await q.enabledFeatureNames(deps.db, id),
    allowedPurposeOfUseCodes: o.allowedPurposeOfUseCodes,
    organizationNpi: o.organizationNpi,
    organizationEmr: o.organizationEmr,
    hispProviderId: o.hispProviderId,
    address: { street: o.addressStreet, unit: o.addressUnit, city: o.addressCity, state: o.addressState, zip: o.addressZip, country: o.addressCountry },
    primaryPhone: o.primaryPhone,
    primaryFax: o.primaryFax,
    phone: o.phone,
    primaryContactFirstName: o.primaryContactFirstName,
    primaryContactLastName: o.primaryContactLastName,
    primaryContactEmail: o.primaryContactEmail,
    primaryContactTitle: o.primaryContactTitle,
    primaryContactNpi: o.primaryContactNpi,
    homeCommunityId: o.homeCommunityId,
    preferredGroupName: o.preferredGroupName,
    isActivated: o.isActivated,
    isEnabled: o.isEnabled,
    loginType: o.loginType,
    apiCapture: o.apiCapture,
    isPendingCancellation: o.isPendingCancellation,
    cancelledAt: o.cancelledAt?.toISOString() ?? null,
    settings: adminSettingsOf(o.settings),
    createdBy: row.createdByName,
    createDate: o.createdAt.toISOString(),
    modifiedBy: row.modifiedByName,
    modifiedDate: o.modifiedAt.toISOString(),
  };
}

/** GET /api/organizations/subdomain/isvalid: characters of a DNS label and not a reserved word. */
export async function subdomainIsValid(deps: { db: DbOrTx }, subdomain: string) {
  return /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(subdomain) && subdomain.length <= 255 && !(await q.isReservedSubdomain(deps.db, subdomain));
}
/** GET /api/organizations/subdomain/exists: another organization has it. */
export const subdomainExists = (deps: Pick<OrganizationsDeps, 'db'>, subdomain: string, exceptId?: string) => q.subdomainTaken(deps.db, subdomain, exceptId || undefined);


// The rules of §5 and §4 that need the database; `current` is the stored row on an update.
async function checkInput(tx: DbOrTx, input: Input, current: q.OrganizationRow | undefined) {
  if (!(await subdomainIsValid({ db: tx }, input.subdomain)) || (await q.subdomainTaken(tx, input.subdomain, current?.id))) throw subdomainError();
  if (!(await q.brandExists(tx, input.brandId))) throw fieldError('brandId', text.chooseFromList);
  if (!(await q.typeExists(tx, input.organizationTypeId))) throw fieldError('organizationTypeId', text.chooseFromList);
  if (!(await q.specialtyExists(tx, input.organizationSpecialtyId))) throw fieldError('organizationSpecialtyId', text.chooseFromList);
  if (!(await q.hispExists(tx, input.hispProviderId))) throw fieldError('hispProviderId', text.chooseFromList);
  const users = current ? await q.countMembers(tx, current.id) : 0;

  let planId = input.planId;
  // §3: each role takes a reseller of its type.
  const affiliate = input.affiliateResellerId ? await q.findReseller(tx, input.affiliateResellerId) : undefined;
  if (input.affiliateResellerId && !affiliate) throw fieldError('affiliateResellerId', text.chooseFromList);
  if (affiliate && affiliate.type !== RESELLER_TYPE_AFFILIATE) throw fieldError('affiliateResellerId', text.notAnAffiliate);
  const licenser = input.licensingResellerId ? await q.findReseller(tx, input.licensingResellerId) : undefined;
  if (input.licensingResellerId && !licenser) throw fieldError('licensingResellerId', text.chooseFromList);
  if (licenser && licenser.type !== RESELLER_TYPE_LICENSING) throw fieldError('licensingResellerId', text.notALicenser);
  // §4: removing (or replacing) the licensing reseller resets the plan to the free one, refused above its limit; the
  // affiliate reseller never touches the plan.
  if (current?.licensingResellerId && input.licensingResellerId !== current.licensingResellerId) {
    if (users > FREE_PLAN_USER_LIMIT) throw fieldError('licensingResellerId', text.licenserOverFreeLimit);
    planId = (await q.findFreePlan(tx))?.id ?? null;
  } else if (planId) {
    const plan = await q.findPlan(tx, planId);
    if (!plan) throw fieldError('planId', text.chooseFromList);
    // §5: only plans whose allowedUsers covers the organization's users, or unlimited (-1).
    if (plan.allowedUsers !== -1 && plan.allowedUsers < users) throw fieldError('planId', text.planTooSmall);
  }
  const known = new Set((await q.allFeatures(tx)).map((f) => f.name));
  if (input.enabledFeatures.some((f) => !known.has(f))) throw fieldError('enabledFeatures', text.chooseFromList);
  return { planId };
}

function columnsOf(input: Input, planId: string | null, current: q.OrganizationRow | undefined): q.OrganizationValues {
  return {
    name: input.name,
    subdomain: input.subdomain,
    brandId: input.brandId,
    organizationTypeId: input.organizationTypeId,
    organizationSpecialtyId: input.organizationSpecialtyId,
    planId,
    affiliateResellerId: input.affiliateResellerId,
    licensingResellerId: input.licensingResellerId,
    tierCode: input.tierCode,
    allowedPurposeOfUseCodes: input.allowedPurposeOfUseCodes,
    organizationNpi: input.organizationNpi,
    organizationEmr: input.organizationEmr,
    hispProviderId: input.hispProviderId,
    addressStreet: input.address.street,
    addressUnit: input.address.unit,
    addressCity: input.address.city,
    addressState: input.address.state,
    addressZip: input.address.zip,
    addressCountry: input.address.country || 'US',
    primaryPhone: input.primaryPhone,
    primaryFax: input.primaryFax,
    primaryContactFirstName: input.primaryContactFirstName,
    primaryContactLastName: input.primaryContactLastName,
    primaryContactEmail: input.primaryContactEmail,
    primaryContactTitle: input.primaryContactTitle,
    primaryContactNpi: input.primaryContactNpi,
    homeCommunityId: input.homeCommunityId,
    preferredGroupName: input.preferredGroupName,
    isActivated: input.isActivated,
    // Settings absent (the details tab): those stored stay.
    ...(input.settings ? { settings: { ...(current?.settings ?? {}), ...input.settings } } : {}),
  };
}

const uniqueSubdomain = async <T>(write: () => Promise<T>) => {
  try {
    return await write();
  } catch (error) {
    // Two saves of one subdomain at once: the unique index decides.
    if (isUniqueViolation(error)) throw subdomainError();
    throw error;
  }
};

// options.within: the caller's own writes in the creating transaction (a batch import records the row's organization,
// so a retried import never creates it twice).
export async function createOrganization(deps: OrganizationsDeps, caller: AdminCaller, input: Input, options: { within?: (tx: DbOrTx, id: string) => Promise<void> } = {}) {
  const id = await uniqueSubdomain(() =>
    deps.db.transaction(async (tx) => {
      const { planId } = await checkInput(tx, input, undefined);
      const row = await q.insertOrganization(tx, { ...(columnsOf(input, planId, undefined) as typeof organizations.$inferInsert), createdBy: caller.session.userId, modifiedBy: caller.session.userId });
      await q.setEnabledFeatures(tx, row.id, input.enabledFeatures);
      // Activated from the form: as the activation modal does, with the default records address.
      if (input.isActivated) await provisionOnActivation(tx, { id: row.id, subdomain: input.subdomain }, deps.publicUrl, true);
      await writeAudit(tx, { eventType: 'OrganizationCreated', ...auditedByAdmin(caller), details: { organizationId: row.id, subdomain: input.subdomain } });
      await options.within?.(tx, row.id);
      return row.id;
    }),
  );
  return getOrganization(deps, id);
}

export async function updateOrganization(deps: OrganizationsDeps, caller: AdminCaller, id: string, input: Input) {
  await uniqueSubdomain(() =>
    deps.db.transaction(async (tx) => {
      const current = await q.lockOrganization(tx, id);
      if (!current) throw notFound();
      const { planId } = await checkInput(tx, input, current);
      await q.updateOrganization(tx, id, { ...columnsOf(input, planId, current), modifiedBy: caller.session.userId, modifiedAt: deps.now() });
      await q.setEnabledFeatures(tx, id, input.enabledFeatures);
      if (input.isActivated && !current.isActivated) await provisionOnActivation(tx, { id, subdomain: input.subdomain }, deps.publicUrl, true);
      await writeAudit(tx, { eventType: 'OrganizationUpdated', ...auditedByAdmin(caller), details: { organizationId: id, ...(planId !== current.planId ? { planId } : {}) } });
    }),
  );
  return getOrganization(deps, id);
}

export async function deleteOrganization(deps: OrganizationsDeps, caller: AdminCaller, id: string) {
  try {
    await deps.db.transaction(async (tx) => {
      const row = await q.deleteOrganization(tx, id);
      if (!row) throw notFound();
      await writeAudit(tx, { eventType: 'OrganizationDeleted', ...auditedByAdmin(caller), details: { organizationId: id, name: row.name } });
    });
  } catch (error) {
    // Messages and other records that keep their organization (no cascade) refuse the delete.
    if (isForeignKeyViolation(error)) throw badRequest(text.inUse);
    throw error;
  }
  clearSessionCache(deps.db);
  return { ok: true as const };
}

function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error, i = 0; e instanceof Error && i < 10; e = e.cause, i++) if ((e as { code?: unknown }).code === '23503') return true;
  return false;
}

export async function setLoginAbility(deps: OrganizationsDeps, caller: AdminCaller, id: string, enabled: boolean | undefined) {
  await deps.db.transaction(async (tx) => {
    const current = await q.lockOrganization(tx, id);
    if (!current) throw notFound();
    const isEnabled = enabled ?? !current.isEnabled;
    await q.updateOrganization(tx, id, { isEnabled, modifiedBy: caller.session.userId, modifiedAt: deps.now() });
    // A disabled organization's members are signed out at once, not at their next token renewal.
    if (!isEnabled) await q.revokeOrganizationSessions(tx, id, deps.now());
    await writeAudit(tx, { eventType: isEnabled ? 'OrganizationLoginEnabled' : 'OrganizationLoginDisabled', ...auditedByAdmin(caller), details: { organizationId: id } });
  });
  clearSessionCache(deps.db);
  return getOrganization(deps, id);
}

export async function setApiCapture(deps: OrganizationsDeps, caller: AdminCaller, id: string, apiCapture: boolean | undefined) {
  await deps.db.transaction(async (tx) => {
    const current = await q.lockOrganization(tx, id);
    if (!current) throw notFound();
    const on = apiCapture ?? !current.apiCapture;
    await q.updateOrganization(tx, id, { apiCapture: on, modifiedBy: caller.session.userId, modifiedAt: deps.now() });
    await writeAudit(tx, { eventType: on ? 'OrganizationApiCaptureStarted' : 'OrganizationApiCaptureStopped', ...auditedByAdmin(caller), details: { organizationId: id } });
  });
  return getOrganization(deps, id);
}

export async function clearCancellation(deps: OrganizationsDeps, caller: AdminCaller, id: string) {
  await deps.db.transaction(async (tx) => {
    const current = await q.lockOrganization(tx, id);
    if (!current) throw notFound();
    if (!current.isPendingCancellation) throw badRequest(text.notPendingCancellation);
    await q.updateOrganization(tx, id, { isPendingCancellation: false, modifiedBy: caller.session.userId, modifiedAt: deps.now() });
    await writeAudit(tx, { eventType: 'OrganizationCancellationCleared', ...auditedByAdmin(caller), details: { organizationId: id } });
  });
  return { ok: true as const };
}

// No network call inside a transaction: the service is called first, then the sync is recorded.
export async function syncOrganization(deps: OrganizationsDeps, caller: AdminCaller, id: string) {
  const organization = await getOrganization(deps, id);
  const result = await deps.customerMessaging.syncOrganization({ id, orgId: organization.orgId, name: organization.name, subdomain: organization.subdomain });
  await writeAudit(deps.db, { eventType: 'OrganizationCustomerMessagingSynced', ...auditedByAdmin(caller), details: { organizationId: id, service: deps.customerMessaging.name, sandbox: deps.customerMessaging.sandbox, reference: result.reference } });
  return { ok: true as const, sandbox: deps.customerMessaging.sandbox, message: deps.customerMessaging.sandbox ? text.sandboxSync : text.syncStarted };
}

export async function organizationsWithoutUser(deps: OrganizationsDeps, userId: string, search: string) {
  if (!(await q.userExists(deps.db, userId))) throw notFound();
  return search.length < TYPEAHEAD_MIN ? [] : q.findOrganizationsWithoutUser(deps.db, userId, search);
}

export async function administrators(deps: OrganizationsDeps, id: string) {
  await getOrganization(deps, id);
  return q.findAdministrators(deps.db, id);
}

// Devices, licenses and integrations: the product has no such rows yet (later issues add them); an existing
// organization answers an empty list.
export async function noRecordsYet(deps: OrganizationsDeps, id: string) {
  await getOrganization(deps, id);
  return [];
}

export async function lookUpNpi(deps: OrganizationsDeps, npi: string) {
  const row = await q.findNpi(deps.db, npi);
  if (!row) return null;
  const person = [row.firstName, row.middleName, row.lastName].filter(Boolean).join(' ');
  // NPPES's registry names the official "prefix first middle last suffix, credential"; blank when none is listed.
  const officialName = [row.officialNamePrefix, row.officialFirstName, row.officialMiddleName, row.officialLastName, row.officialNameSuffix].filter(Boolean).join(' ');
  const official = row.officialCredential && officialName ? `${officialName}, ${row.officialCredential}` : officialName;
  return {
    number: row.npi,
    basic: { authorizedOfficialFirstName: row.officialFirstName, authorizedOfficialMiddleName: row.officialMiddleName, authorizedOfficialLastName: row.officialLastName },
    name: row.organizationName ?? person,
    organizationName: row.organizationName,
    fullName: official || null,
    organizationalSubpart: row.organizationSubpart === 'Y' ? 'YES' : row.organizationSubpart === 'N' ? 'NO' : null,
    authorizedOfficialTelephoneNumber: row.officialPhone,
    status: row.active ? 'A' : 'D',
    addresses: row.addressLine1 || row.city ? [{ address_1: row.addressLine1, address_2: null, city: row.city, state: row.state, postalCode: row.zip }] : [],
  };
}

export async function choices(deps: OrganizationsDeps) {
  const [brands, types, plans, resellers, hisps, features] = await Promise.all([q.allBrands(deps.db), q.allTypes(deps.db), q.allPlans(deps.db), q.allResellers(deps.db), q.allHisps(deps.db), q.allFeatures(deps.db)]);
  return { brands, types, plans, resellers, hisps, features };
}

export const organizationTypes = (deps: OrganizationsDeps) => q.allTypes(deps.db);

