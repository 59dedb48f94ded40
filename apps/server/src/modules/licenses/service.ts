import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  type licenseIssueRequest,
  LICENSE_KEY_ALPHABET,
  LICENSE_KEY_GROUP_LENGTH,
  LICENSE_KEY_GROUPS,
  licenseMessages as text,
  type LicenseType,
  type licenseTypeInput,
  type licenseTypeQuery,
} from '@clinicrelay/contracts/licenses.ts';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest, isUniqueViolation, notFound } from '../../platform/errors.ts';
import { readFeed } from '../message-browser/service.ts';
import { licenseEntitySet, licensesFrom } from './entity-set.ts';
import * as q from './queries.ts';

export interface LicensesDeps {
  db: Database;
  now: () => Date;
}

const DAY_MS = 86_400_000;
const typeNotFound = () => new AppError(404, text.typeNotFound);
const taken = () => badRequest(text.typeExists, { name: [text.typeExists] });

const toLicenseType = (row: NonNullable<Awaited<ReturnType<typeof q.findLicenseType>>>): LicenseType => ({
  ...row,
  category: row.category as LicenseType['category'],
  apps: row.applicationNames,
});

// License types (back-office-b §3, §5).

export async function listLicenseTypes(deps: LicensesDeps, query: z.output<typeof licenseTypeQuery>) {
  const page = await q.findLicenseTypePage(deps.db, query, query);
  return { items: page.items.map(toLicenseType), totalCount: page.totalCount };
}

export async function getLicenseType(deps: LicensesDeps, id: string) {
  const row = await q.findLicenseType(deps.db, id);
  if (!row) throw typeNotFound();
  return toLicenseType(row);
}

export const licenseTypeExists = (deps: LicensesDeps, name: string, exceptId?: string) => q.licenseTypeTaken(deps.db, name, exceptId);

export const appNames = (deps: LicensesDeps) => q.applicationNames(deps.db);

async function valuesOf(deps: LicensesDeps, input: z.output<typeof licenseTypeInput>): Promise<q.LicenseTypeValues> {
  const subscription = input.subscription || null;
  if (subscription && !(await q.planExists(deps.db, subscription))) throw badRequest(text.subscriptionUnknown, { subscription: [text.subscriptionUnknown] });
  const days = input.subscriptionDurationDays;
  return {
    name: input.name,
    description: input.description,
    category: input.category,
    subscription,
    subscriptionDurationDays: typeof days === 'number' ? days : null,
    applicationNames: input.applicationNames,
    connectorNames: input.connectorNames,
  };
}

export async function createLicenseType(deps: LicensesDeps, caller: AdminCaller, input: z.output<typeof licenseTypeInput>) {
  const values = await valuesOf(deps, input);
  const id = await deps.db.transaction(async (tx) => {
    const row = await q.insertLicenseType(tx, { ...values, by: caller.session.userId });
    if (!row) throw taken();
    await writeAudit(tx, { eventType: 'LicenseTypeCreated', ...auditedByAdmin(caller), details: { id: row.id, name: values.name } });
    return row.id;
  });
  return getLicenseType(deps, id);
}

export async function updateLicenseType(deps: LicensesDeps, caller: AdminCaller, id: string, input: z.output<typeof licenseTypeInput>) {
  const values = await valuesOf(deps, input);
  await deps.db.transaction(async (tx) => {
    let row: { id: string } | undefined;
    try {
      row = await q.updateLicenseType(tx, id, { ...values, by: caller.session.userId, at: deps.now() });
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
    if (!row) throw typeNotFound();
    await writeAudit(tx, { eventType: 'LicenseTypeUpdated', ...auditedByAdmin(caller), details: { id, name: values.name } });
  });
  return getLicenseType(deps, id);
}

export async function deleteLicenseType(deps: LicensesDeps, caller: AdminCaller, id: string) {
  await deps.db.transaction(async (tx) => {
    // Issued keys name their type in the grid and the organization's tab: a type with keys stays.
    const inUse = await q.licensesOfType(tx, id);
    if (inUse > 0) throw badRequest(text.typeInUse(inUse));
    const row = await q.deleteLicenseType(tx, id);
    if (!row) throw typeNotFound();
    await writeAudit(tx, { eventType: 'LicenseTypeDeleted', ...auditedByAdmin(caller), details: { id, name: row.name } });
  });
  return { ok: true as const };
}

// License keys.

/** A new key: 30 characters of the Crockford alphabet drawn by the CSPRNG (150 bits), in six groups of five. */
export function newLicenseKey(): string {
  const groups: string[] = [];
  for (let g = 0; g < LICENSE_KEY_GROUPS; g += 1) {
    let group = '';
    for (let i = 0; i < LICENSE_KEY_GROUP_LENGTH; i += 1) group += LICENSE_KEY_ALPHABET[randomInt(LICENSE_KEY_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** What is stored of a key: its SHA-256 (over the characters without dashes, upper case) and its first group. */
export function licenseKeyHash(key: string): string {
  return createHash('sha256').update(key.replaceAll('-', '').toUpperCase()).digest('hex');
}

const generateError = (reason: string, field?: string) => badRequest(text.generateError(reason), field ? { [field]: [reason] } : undefined);

async function organizationOf(deps: LicensesDeps, company: string) {
  const byId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(company);
  const found = await q.findOrganizations(deps.db, byId ? { id: company.toLowerCase() } : { name: company });
  if (found.length === 0) throw generateError(text.organizationNotFound, 'company');
  if (found.length > 1) throw generateError(text.organizationAmbiguous, 'company');
  return found[0]!;
}

// POST /api/licenses/issue: `quantity` keys of a license type for an organization, all expiring `expiresindays` from
// now. The answer is the only place the keys appear in full.
export async function issueLicenses(deps: LicensesDeps, caller: AdminCaller, request: z.output<typeof licenseIssueRequest>) {
  const type = await q.findLicenseTypeByName(deps.db, request.licenseType);
  if (!type) throw generateError(text.licenseTypeUnknown, 'licenseType');
  const isPlan = type.category === 'LicensedPlan';
  if (request.licensedPlan !== isPlan) throw generateError(text.licensedPlanMismatch(type.name, isPlan), 'licensedPlan');
  const applicationName = request.applicationname || null;
  if (!isPlan && !applicationName) throw generateError(text.applicationNameRequired, 'applicationname');
  const organization = await organizationOf(deps, request.company);

  const issuedAt = deps.now();
  const expiresAt = new Date(issuedAt.getTime() + request.expiresindays * DAY_MS);
  const batchId = randomUUID();
  const keys = Array.from({ length: request.quantity }, () => newLicenseKey());
  const rows: q.NewLicense[] = keys.map((key) => ({
    keyHash: licenseKeyHash(key),
    keyPrefix: key.slice(0, key.indexOf('-')),
    licenseTypeId: type.id,
    organizationId: organization.id,
    batchId,
    licenseeName: request.name,
    email: request.email,
    internalProductName: request.internalproductname,
    applicationName,
    reference: request.reference,
    issuedAt,
    expiresAt,
    issuedBy: caller.session.userId,
  }));
  const inserted = await deps.db.transaction(async (tx) => {
    const saved = await q.insertLicenses(tx, rows);
    await writeAudit(tx, {
      eventType: 'LicensesIssued',
      ...auditedByAdmin(caller),
      details: { batchId, count: saved.length, licenseType: type.name, organizationId: organization.id, reference: request.reference },
    });
    return saved;
  });
  const idOf = new Map(inserted.map((r) => [r.keyHash, r.id]));
  return {
    count: keys.length,
    licenses: keys.map((key) => ({
      id: idOf.get(licenseKeyHash(key))!,
      licenseKey: key,
      licenseType: type.name,
      organization: organization.name,
      issuedDate: issuedAt.toISOString(),
      expirationDate: expiresAt.toISOString(),
    })),
  };
}

// GET /api/adminlicenses: a page of keys by OData query options, read as the message browser's feeds are (a $top
// above the cap, or none, is served a page at a time with @odata.nextLink to the rest).
export const readLicenseFeed = (deps: LicensesDeps, path: string, query: Record<string, unknown>) =>
  readFeed(deps, { set: licenseEntitySet(deps.now()), from: licensesFrom }, path, query);

// GET /api/admin/organizations/{id}/licenses: the organization's keys, newest first; 404 for no such organization.
export async function organizationLicenses(deps: LicensesDeps, organizationId: string) {
  if (!(await q.organizationExists(deps.db, organizationId))) throw notFound();
  const rows = await q.findOrganizationLicenses(deps.db, organizationId);
  return rows.map((r) => ({
    id: r.id,
    name: `${r.keyPrefix}-…`,
    licenseKey: `${r.keyPrefix}-…`,
    licenseType: r.licenseType,
    connectorId: r.connectorId,
    connectorName: r.connectorName,
    issuedDate: r.issuedAt.toISOString(),
    expirationDate: r.expiresAt.toISOString(),
  }));
}
