import {
  DIRECTORY_COUNT_CAP,
  DIRECTORY_VALIDATE_MAX,
  directoryContactInput,
  directoryMessages,
  hasDirectorySearchValue,
  type DirectoryAddressCheck,
  type DirectoryEntry,
  type DirectorySearchResponse,
  type directorySearchRequest,
} from '@clinicrelay/contracts/directory.ts';
import { isValidDirectAddress } from '@clinicrelay/contracts/delivery.ts';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { digitsOnly, nameKey, normalize, normalizeOrNull } from './normalize.ts';
import * as q from './queries.ts';

export interface DirectoryDeps {
  db: Database;
  now: () => Date;
}

type SearchRequest = z.output<typeof directorySearchRequest>;
type ContactInput = z.output<typeof directoryContactInput>;

const entryOf = (row: q.EntryFields, source: DirectoryEntry['source']): DirectoryEntry => ({
  id: row.id,
  directAddress: row.directAddress,
  organizationName: row.organizationName,
  lastName: row.lastName,
  firstName: row.firstName,
  middleName: row.middleName,
  clinicName: row.clinicName,
  phonePrimary: row.phonePrimary,
  fax: row.fax,
  standardizedAddressLine1: row.addressLine1,
  standardizedCity: row.city,
  standardizedState: row.state,
  standardizedZip: row.zip,
  npi: row.npi,
  entityType: row.entityType,
  taxonomy: row.taxonomy,
  source,
  hosted: source === 'Hosted',
});

// An address hosted here as an entry: the organization's name, NPI, address and phone, and the address.
type HostedRow = Awaited<ReturnType<typeof q.findHostedByAddress>>[number];
const hostedEntry = (h: HostedRow): DirectoryEntry =>
  entryOf(
    {
      id: h.id,
      directAddress: h.address,
      organizationName: h.organizationName,
      entityType: 2,
      npi: h.npi,
      lastName: null,
      firstName: null,
      middleName: null,
      clinicName: null,
      phonePrimary: digitsOnly(h.phone) || null,
      fax: null,
      addressLine1: [h.street, h.unit].filter(Boolean).join(' ') || null,
      city: h.city,
      state: h.state,
      zip: digitsOnly(h.zip) || null,
      taxonomy: null,
    },
    'Hosted',
  );

/** The two tabs' filters from the request, in search form; a tab that cannot match is null. */
export function tabFilters(r: Pick<SearchRequest, 'firstName' | 'lastName' | 'organizationName' | 'city' | 'state' | 'zip'>): { providers: q.TabFilter; organizations: q.TabFilter | null } {
  const common = { city: normalize(r.city) || undefined, state: r.state || undefined, zip: digitsOnly(r.zip) || undefined };
  const last = normalize(r.lastName) || undefined;
  const first = normalize(r.firstName) || undefined;
  const org = normalize(r.organizationName) || undefined;
  return {
    providers: { entityType: 1, name: last, first, org, ...common },
    // An organization has no first or last name: a search for a person finds no organization.
    organizations: last || first ? null : { entityType: 2, name: org, ...common },
  };
}

/** One tab's page and capped count (queries.ts findTabPage); the benchmark runs the same. */
export async function searchTab(db: Database, organizationId: string, f: q.TabFilter | null, pageStart: number, pageSize: number) {
  if (!f) return { items: [], total: 0 };
  const { rows, total } = await q.findTabPage(db, f, organizationId, {
    start: pageStart,
    size: pageSize,
    cap: DIRECTORY_COUNT_CAP,
    // NPPES individuals carry no organization name: a provider search by organization reads only the own contacts.
    nppes: !(f.entityType === 1 && f.org),
  });
  return { items: rows.map((row) => entryOf(row, row.source)), total };
}

// POST /api/directory/search: both tabs, each paged on its own; counts stop at 100 ("99+" in the dialog).
export async function search(deps: DirectoryDeps, caller: OrgCaller, r: SearchRequest): Promise<DirectorySearchResponse> {
  if (!hasDirectorySearchValue(r)) throw badRequest(directoryMessages.searchNeedsValue);
  const tabs = tabFilters(r);
  const [providers, organizations] = await Promise.all([
    searchTab(deps.db, caller.organizationId, tabs.providers, r.providerPageStart, r.pageSize),
    searchTab(deps.db, caller.organizationId, tabs.organizations, r.organizationPageStart, r.pageSize),
  ]);
  return { providers: providers.items, totalProvidersCount: providers.total, organizations: organizations.items, totalOrganizationsCount: organizations.total };
}

const personName = (e: { firstName: string | null; middleName?: string | null; lastName: string | null }) =>
  [e.firstName, e.middleName, e.lastName].filter(Boolean).join(' ') || null;

// GET /api/directory/validate: what each address is, in the order asked, duplicates once.
export async function validate(deps: DirectoryDeps, caller: OrgCaller, addressesText: string): Promise<DirectoryAddressCheck[]> {
  const typed = [...new Set(addressesText.split(/[;,\s]+/).map((a) => a.trim()).filter(Boolean))];
  if (typed.length > DIRECTORY_VALIDATE_MAX) throw badRequest(`At most ${DIRECTORY_VALIDATE_MAX} addresses can be checked at once.`);
  const valid = typed.filter(isValidDirectAddress).map((a) => a.toLowerCase());
  const [hosted, endpoints, contacts] = valid.length
    ? await Promise.all([
        q.findHostedByAddress(deps.db, valid),
        q.findEndpointsByAddress(deps.db, valid),
        q.findContactsByAddress(deps.db, caller.organizationId, valid),
      ])
    : [[], [], []];
  return typed.map((address): DirectoryAddressCheck => {
    if (!isValidDirectAddress(address)) return { address, status: 'Invalid', valid: false, hosted: false, name: null, organizationName: null };
    const lower = address.toLowerCase();
    const here = hosted.find((h) => h.address === lower);
    if (here) return { address, status: 'Hosted', valid: true, hosted: true, name: here.organizationName, organizationName: here.organizationName };
    const contact = contacts.find((c) => c.directAddress === lower);
    const known = contact ?? endpoints.find((e) => e.address === lower)?.entry;
    if (known) {
      const name = known.entityType === 2 ? known.organizationName : personName(known);
      return { address, status: 'Known', valid: true, hosted: false, name, organizationName: known.organizationName ?? known.clinicName };
    }
    return { address, status: 'Unknown', valid: true, hosted: false, name: null, organizationName: null };
  });
}

// /api/addressbook: the organization's own entries.

const contactEntry = (row: q.ContactRow) => ({
  ...entryOf(row, 'Organization'),
  tenantId: row.organizationId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

function contactValues(input: ContactInput): Omit<q.ContactValues, 'organizationId' | 'createdBy' | 'updatedAt'> {
  const v = {
    entityType: input.entityType,
    npi: input.npi || null,
    lastName: input.lastName || null,
    firstName: input.firstName || null,
    middleName: input.middleName || null,
    organizationName: input.organizationName || null,
    clinicName: input.clinicName || null,
    phonePrimary: digitsOnly(input.phonePrimary) || null,
    fax: digitsOnly(input.fax) || null,
    addressLine1: input.standardizedAddressLine1 || null,
    city: input.standardizedCity || null,
    state: input.standardizedState || null,
    zip: input.standardizedZip || null,
    taxonomy: input.taxonomy || null,
    directAddress: input.directAddress ? input.directAddress.toLowerCase() : null,
  };
  const errors: Record<string, string[]> = {};
  if (v.entityType === 1 ? !v.lastName : !v.organizationName) errors[v.entityType === 1 ? 'lastName' : 'organizationName'] = [directoryMessages.entryNeedsName];
  if (v.directAddress && !isValidDirectAddress(v.directAddress)) errors.directAddress = [directoryMessages.entryAddressInvalid];
  if (Object.keys(errors).length) throw badRequest(Object.values(errors)[0]![0]!, errors);
  const nameNorm = nameKey(v);
  return { ...v, nameNorm, lastNorm: normalizeOrNull(v.lastName), firstNorm: normalizeOrNull(v.firstName), orgNorm: normalizeOrNull(v.organizationName ?? v.clinicName), cityNorm: normalizeOrNull(v.city) };
}

const sameTenant = (caller: OrgCaller, tenantId: string) => {
  if (tenantId !== caller.organizationId) throw notFound();
};

export async function listContacts(deps: DirectoryDeps, caller: OrgCaller, page: { pageNumber: number; pageSize: number; search?: string | undefined }) {
  const [rows, totalCount] = await q.findContactPage(deps.db, caller.organizationId, {
    offset: (page.pageNumber - 1) * page.pageSize,
    limit: page.pageSize,
    term: normalize(page.search) || undefined,
  });
  return { items: rows.map(contactEntry), totalCount };
}

export async function getContact(deps: DirectoryDeps, caller: OrgCaller, tenantId: string, id: string) {
  sameTenant(caller, tenantId);
  const row = await q.findContact(deps.db, caller.organizationId, id);
  if (!row) throw notFound();
  return contactEntry(row);
}

export async function createContact(deps: DirectoryDeps, caller: OrgCaller, input: ContactInput) {
  const now = deps.now();
  const row = await q.insertContact(deps.db, { ...contactValues(input), organizationId: caller.organizationId, createdBy: caller.session.userId, updatedAt: now });
  return contactEntry(row);
}

export async function updateContact(deps: DirectoryDeps, caller: OrgCaller, input: ContactInput) {
  if (!input.id) throw badRequest(directoryMessages.entryNotFound, { id: [directoryMessages.entryNotFound] });
  const row = await q.updateContact(deps.db, caller.organizationId, input.id, { ...contactValues(input), updatedAt: deps.now() });
  if (!row) throw notFound();
  return contactEntry(row);
}

export async function deleteContact(deps: DirectoryDeps, caller: OrgCaller, tenantId: string, id: string) {
  sameTenant(caller, tenantId);
  if (!(await q.deleteContact(deps.db, caller.organizationId, id))) throw notFound();
  return { ok: true as const };
}

// GET /api/addressbook/search/{term}: one box over the whole directory: a Direct address finds its entries;
// any other term is an organization-name and a last-name prefix (the first page of both tabs).
export async function searchTerm(deps: DirectoryDeps, caller: OrgCaller, term: string): Promise<DirectoryEntry[]> {
  if (term.includes('@')) {
    const address = term.toLowerCase();
    const [hosted, endpoints, contacts] = await Promise.all([
      q.findHostedByAddress(deps.db, [address]),
      q.findEndpointsByAddress(deps.db, [address]),
      q.findContactsByAddress(deps.db, caller.organizationId, [address]),
    ]);
    return [
      ...hosted.map(hostedEntry),
      ...contacts.map((c) => entryOf(c, 'Organization')),
      ...endpoints.map((e) => ({ ...entryOf(e.entry, 'NPPES'), directAddress: e.address })),
    ];
  }
  const first = { providerPageStart: 0, organizationPageStart: 0, pageSize: 10 };
  const [byOrg, byName] = await Promise.all([search(deps, caller, { ...first, organizationName: term }), search(deps, caller, { ...first, lastName: term })]);
  return [...byOrg.organizations, ...byName.providers];
}
