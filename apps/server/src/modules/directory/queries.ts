import { and, asc, eq, inArray, sql, type Query, type SQL } from 'drizzle-orm';
import { IN_SERVICE_STATUSES } from '@clinicrelay/contracts/document-sources.ts';
import { compileQuery, queryCompiledRows, type DbOrTx } from '../../db/client.ts';
import { directoryContacts, directoryEndpoints, directoryEntries } from '../../db/schema/directory.ts';
import { directoryServiceEntries } from '../../db/schema/directory-entries.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { organizations } from '../../db/schema/organizations.ts';

// What a search asks of one tab, every text already normalized (normalize.ts); prefixes unless said otherwise.
export interface TabFilter {
  entityType: 1 | 2;
  // Providers: the last name; Organizations: the organization's name. Both are the start of name_norm.
  name?: string | undefined;
  first?: string | undefined;
  // Providers only: the organization or clinic a provider belongs to (NPPES individuals have none).
  org?: string | undefined;
  city?: string | undefined;
  // Exact, a 2-letter code.
  state?: string | undefined;
  zip?: string | undefined;
}

export type EntryRow = typeof directoryEntries.$inferSelect;

const prefix = (value: string) => `${value}%`;

// A tab's statement is compiled once per shape (which fields have a value, the tab, whether NPPES is read) and run
// with its values: building it with drizzle took as much CPU as PostgreSQL takes to run it (issue 10 bench).
const FILTER_FIELDS = ['name', 'first', 'org', 'city', 'state', 'zip'] as const;
const bound = (name: (typeof FILTER_FIELDS)[number] | 'organizationId' | 'want' | 'cap' | 'start' | 'size') => sql.placeholder(name);

// The column a tab's results are ordered by after "has a Direct address": the field the search starts from, so
// the page comes from one index range in order (schema/directory.ts), then the name.
export function orderColumn(f: TabFilter): 'name' | 'first' | 'city' | 'zip' {
  if (f.name) return 'name';
  if (f.first) return 'first';
  if (f.city) return 'city';
  if (f.zip) return 'zip';
  return 'name';
}

function where(f: TabFilter, hasDirect: boolean): SQL {
  const e = directoryEntries;
  const parts: SQL[] = [eq(e.entityType, f.entityType), eq(e.hasDirect, hasDirect), sql`${e.active}`];
  if (f.name) {
    parts.push(sql`${e.nameNorm} like ${bound('name')}`);
    // "smith j" must not match "smithj…": the last name itself starts with what was typed.
    if (f.entityType === 1) parts.push(sql`${e.lastNorm} like ${bound('name')}`);
  }
  if (f.first) parts.push(sql`${e.firstNorm} like ${bound('first')}`);
  if (f.org) parts.push(sql`${e.orgNorm} like ${bound('org')}`);
  if (f.city) parts.push(sql`${e.cityNorm} like ${bound('city')}`);
  if (f.state) parts.push(sql`${e.state} = ${bound('state')}`);
  if (f.zip) parts.push(sql`${e.zip} like ${bound('zip')}`);
  return and(...parts)!;
}

// The sort key of a tab's rows after "has a Direct address" (see orderColumn), as an expression over a table's
// search columns.
function sortKey(f: TabFilter, t: { nameNorm: unknown; firstNorm: unknown; cityNorm: unknown; zip: unknown }): SQL {
  switch (orderColumn(f)) {
    case 'first':
      return sql`${t.firstNorm}`;
    case 'city':
      return sql`${t.cityNorm}`;
    case 'zip':
      return sql`${t.zip}`;
    default:
      return sql`${t.nameNorm}`;
  }
}

// An organization's name in search form, in SQL, for hosted organizations (a few rows, read live): the same folding
// as normalize.ts for Latin letters with the common accents, which is what organization names use.
const ACCENTED = 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿ';
const PLAIN = 'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyy';
const sqlNormalized = (column: SQL) =>
  sql`btrim(regexp_replace(lower(translate(${column}, ${ACCENTED + "'’`"}, ${PLAIN})), '[^a-z0-9]+', ' ', 'g'))`;

// What a directory entry shows, whichever source it comes from (the names of the entries' and contacts' columns);
// only NPPES entries always have an NPI.
export type EntryFields = { npi: string | null } & Pick<
  EntryRow,
  'id' | 'entityType' | 'lastName' | 'firstName' | 'middleName' | 'organizationName' | 'clinicName' | 'phonePrimary' | 'fax' | 'addressLine1' | 'city' | 'state' | 'zip' | 'taxonomy' | 'directAddress'
>;

// One row of a tab in every source.
export type SearchRow = EntryFields & { source: 'NPPES' | 'Hosted' | 'Organization' | 'Published' };

// A page of one tab and its count (up to `cap`), in one statement: NPPES entries with a Direct address and those
// without, each read from its own index range in order and stopped at what the page needs (no sort of every match,
// whatever the count); the organization's own contacts; and, on the Organizations tab, the organizations hosted
// here, read live so they are always current. Ordered: Direct address first, then the field the search starts
// from, then the name; byte order (the search columns are C-collated ASCII).
export async function findTabPage(
  db: DbOrTx,
  f: TabFilter,
  organizationId: string,
  page: { start: number; size: number; cap: number; nppes: boolean },
): Promise<{ rows: SearchRow[]; total: number }> {
  const key = `${f.entityType} ${page.nppes} ${FILTER_FIELDS.filter((k) => f[k]).join()}`;
  let query = tabPageQueries.get(key);
  if (!query) tabPageQueries.set(key, (query = compileQuery(tabPageSql(f, page.nppes))));
  const values: Record<string, unknown> = { organizationId, want: page.start + page.size, cap: page.cap, start: page.start, size: page.size };
  for (const k of FILTER_FIELDS) if (f[k]) values[k] = k === 'state' ? f[k] : prefix(f[k]);
  const [result] = await queryCompiledRows<{ total: number; rows: SearchRow[] | null }>(db, query, values);
  return { rows: result?.rows ?? [], total: result?.total ?? 0 };
}

const tabPageQueries = new Map<string, Query>();

// The statement of findTabPage for the fields `f` has a value in (their values placeholders).
function tabPageSql(f: TabFilter, readNppes: boolean): SQL {
  const e = directoryEntries;
  const c = directoryContacts;
  const entryColumns = sql`${e.id}::text as "id", 'NPPES' as "source", ${e.npi} as "npi", ${e.entityType}::int as "entityType", ${e.lastName} as "lastName",
    ${e.firstName} as "firstName", ${e.middleName} as "middleName", ${e.organizationName} as "organizationName", ${e.clinicName} as "clinicName",
    ${e.phonePrimary} as "phonePrimary", ${e.fax} as "fax", ${e.addressLine1} as "addressLine1", ${e.city} as "city", ${e.state} as "state",
    ${e.zip} as "zip", ${e.taxonomy} as "taxonomy", ${e.directAddress} as "directAddress", ${e.hasDirect} as "has_direct",
    ${sortKey(f, e)} as "k", ${e.nameNorm} as "n", '1' || ${e.npi} as "tie"`;
  const nppes = (hasDirect: boolean) =>
    sql`(select ${entryColumns} from ${e} where ${where(f, hasDirect)} order by ${sortKey(f, e)}, ${e.nameNorm}, ${e.npi} limit ${bound('want')})`;
  const nppesCount = (hasDirect: boolean) => sql`(select 1 from ${e} where ${where(f, hasDirect)} limit ${bound('cap')})`;

  const contactWhere: SQL[] = [sql`${c.organizationId} = ${bound('organizationId')}`, sql`${c.entityType} = ${f.entityType}`];
  if (f.name) contactWhere.push(f.entityType === 1 ? sql`${c.lastNorm} like ${bound('name')}` : sql`${c.orgNorm} like ${bound('name')}`);
  if (f.first) contactWhere.push(sql`${c.firstNorm} like ${bound('first')}`);
  if (f.org) contactWhere.push(sql`${c.orgNorm} like ${bound('org')}`);
  if (f.city) contactWhere.push(sql`${c.cityNorm} like ${bound('city')}`);
  if (f.state) contactWhere.push(sql`${c.state} = ${bound('state')}`);
  if (f.zip) contactWhere.push(sql`${c.zip} like ${bound('zip')}`);
  const contacts = sql`(select ${c.id}::text as "id", 'Organization' as "source", ${c.npi} as "npi", ${c.entityType}::int as "entityType", ${c.lastName} as "lastName",
    ${c.firstName} as "firstName", ${c.middleName} as "middleName", ${c.organizationName} as "organizationName", ${c.clinicName} as "clinicName",
    ${c.phonePrimary} as "phonePrimary", ${c.fax} as "fax", ${c.addressLine1} as "addressLine1", ${c.city} as "city", ${c.state} as "state",
    ${c.zip} as "zip", ${c.taxonomy} as "taxonomy", ${c.directAddress} as "directAddress", ${c.directAddress} is not null as "has_direct",
    ${sortKey(f, c)} collate "C" as "k", ${c.nameNorm} collate "C" as "n", '0' || ${c.id}::text as "tie"
    from ${c} where ${and(...contactWhere)} order by 19, 20 limit ${bound('cap')})`;

  // Entries the platform's operators published (/api/kno2directory, modules/directory-entries): every organization finds them.
  const p = directoryServiceEntries;
  const publishedWhere: SQL[] = [sql`${p.entityType} = ${f.entityType}`];
  if (f.name) publishedWhere.push(f.entityType === 1 ? sql`${p.lastNorm} like ${bound('name')}` : sql`${p.orgNorm} like ${bound('name')}`);
  if (f.first) publishedWhere.push(sql`${p.firstNorm} like ${bound('first')}`);
  if (f.org) publishedWhere.push(sql`${p.orgNorm} like ${bound('org')}`);
  if (f.city) publishedWhere.push(sql`${p.cityNorm} like ${bound('city')}`);
  if (f.state) publishedWhere.push(sql`${p.state} = ${bound('state')}`);
  if (f.zip) publishedWhere.push(sql`${p.zip} like ${bound('zip')}`);
  const published = sql`(select ${p.id}::text as "id", 'Published' as "source", ${p.npi} as "npi", ${p.entityType}::int as "entityType", ${p.lastName} as "lastName",
    ${p.firstName} as "firstName", ${p.middleName} as "middleName", ${p.organizationName} as "organizationName", ${p.clinicName} as "clinicName",
    ${p.phonePrimary} as "phonePrimary", ${p.fax} as "fax", ${p.addressLine1} as "addressLine1", ${p.city} as "city", ${p.state} as "state",
    ${p.zip} as "zip", ${p.taxonomy} as "taxonomy", ${p.directAddress} as "directAddress", ${p.directAddress} is not null as "has_direct",
    ${sortKey(f, p)} collate "C" as "k", ${p.nameNorm} collate "C" as "n", '0' || ${p.id}::text as "tie"
    from ${p} where ${and(...publishedWhere)} order by 19, 20 limit ${bound('cap')})`;

  // Hosted organizations carry no person's name; their address and phone are the organization's own, read live, so an
  // edit of the organization shows at once.
  const hostedApplies = f.entityType === 2 && !f.first;
  const ds = documentSources;
  const o = organizations;
  const orgName = sqlNormalized(sql`${o.name}`);
  const digits = (column: SQL) => sql`nullif(regexp_replace(coalesce(${column}, ''), '[^0-9]', '', 'g'), '')`;
  const hostedWhere: SQL[] = [];
  if (f.name) hostedWhere.push(sql`and ${orgName} like ${bound('name')}`);
  if (f.city) hostedWhere.push(sql`and ${sqlNormalized(sql`${o.addressCity}`)} like ${bound('city')}`);
  if (f.state) hostedWhere.push(sql`and ${o.addressState} = ${bound('state')}`);
  if (f.zip) hostedWhere.push(sql`and ${digits(sql`${o.addressZip}`)} like ${bound('zip')}`);
  // Addresses in service only: statuses 1 and 2, IN_SERVICE_STATUSES of the contracts.
  const hosted = sql`(select ${ds.id}::text as "id", 'Hosted' as "source", ${o.organizationNpi} as "npi", 2 as "entityType", null as "lastName", null as "firstName",
    null as "middleName", ${o.name} as "organizationName", null as "clinicName", ${digits(sql`coalesce(${o.primaryPhone}, ${o.phone})`)} as "phonePrimary",
    (select f."full_address" from ${ds} f where f."organization_id" = ${o.id} and f."type" = 'Fax' and f."status" in (1, 2) order by f."full_address" limit 1) as "fax",
    nullif(concat_ws(' ', ${o.addressStreet}, ${o.addressUnit}), '') as "addressLine1", ${o.addressCity} as "city", ${o.addressState} as "state",
    ${digits(sql`${o.addressZip}`)} as "zip", null as "taxonomy", ${ds.fullAddress} as "directAddress", true as "has_direct",
    ${orgName} collate "C" as "k", ${orgName} collate "C" as "n", '0' || ${ds.fullAddress} as "tie"
    from ${ds} inner join ${o} on ${o.id} = ${ds.organizationId}
    where ${ds.type} = 'Direct' and ${ds.status} in (1, 2) and ${o.isEnabled} and ${o.cancelledAt} is null
      ${sql.join(hostedWhere, sql` `)}
    limit ${bound('cap')})`;

  const sources = [...(readNppes ? [nppes(true), nppes(false)] : []), contacts, published, ...(hostedApplies ? [hosted] : [])];
  const counted = [
    ...(readNppes ? [nppesCount(true), nppesCount(false)] : []),
    sql`(select 1 from ${contacts} "c")`,
    sql`(select 1 from ${published} "pe")`,
    ...(hostedApplies ? [sql`(select 1 from ${hosted} "h")`] : []),
  ];
  return sql`select (select least(count(*), ${bound('cap')})::int from (${sql.join(counted, sql` union all `)}) "counted") as "total",
      (select json_agg("p" order by "p"."has_direct" desc, "p"."k", "p"."n", "p"."tie") from (
        select * from (${sql.join(sources, sql` union all `)}) "u" order by "has_direct" desc, "k", "n", "tie" offset ${bound('start')} limit ${bound('size')}) "p") as "rows"`;
}

export type ContactRow = typeof directoryContacts.$inferSelect;


export function findContactPage(db: DbOrTx, organizationId: string, page: { offset: number; limit: number; term?: string | undefined }) {
  const c = directoryContacts;
  const termWhere = page.term ? sql`(${c.nameNorm} like ${prefix(page.term)} or ${c.orgNorm} like ${prefix(page.term)} or ${c.firstNorm} like ${prefix(page.term)})` : undefined;
  const whereOrg = and(eq(c.organizationId, organizationId), termWhere);
  return Promise.all([
    db.select().from(c).where(whereOrg).orderBy(asc(c.nameNorm), asc(c.id)).offset(page.offset).limit(page.limit),
    db.$count(c, whereOrg),
  ]);
}

export async function findContact(db: DbOrTx, organizationId: string, id: string): Promise<ContactRow | undefined> {
  const [row] = await db.select().from(directoryContacts).where(and(eq(directoryContacts.organizationId, organizationId), eq(directoryContacts.id, id)));
  return row;
}

export type ContactValues = Omit<typeof directoryContacts.$inferInsert, 'id' | 'createdAt'>;

export async function insertContact(db: DbOrTx, values: ContactValues): Promise<ContactRow> {
  const [row] = await db.insert(directoryContacts).values(values).returning();
  return row!;
}

export async function updateContact(db: DbOrTx, organizationId: string, id: string, values: Partial<ContactValues>): Promise<ContactRow | undefined> {
  const [row] = await db
    .update(directoryContacts)
    .set(values)
    .where(and(eq(directoryContacts.organizationId, organizationId), eq(directoryContacts.id, id)))
    .returning();
  return row;
}

export async function deleteContact(db: DbOrTx, organizationId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(directoryContacts)
    .where(and(eq(directoryContacts.organizationId, organizationId), eq(directoryContacts.id, id)))
    .returning({ id: directoryContacts.id });
  return rows.length > 0;
}

// validate: what each address is known as. Hosted addresses with their organization; NPPES endpoints with their
// entry; the caller's own contacts.
export function findHostedByAddress(db: DbOrTx, addresses: string[]) {
  return db
    .select({
      id: documentSources.id,
      address: documentSources.fullAddress,
      organizationName: organizations.name,
      npi: organizations.organizationNpi,
      street: organizations.addressStreet,
      unit: organizations.addressUnit,
      city: organizations.addressCity,
      state: organizations.addressState,
      zip: organizations.addressZip,
      phone: sql<string | null>`coalesce(${organizations.primaryPhone}, ${organizations.phone})`,
    })
    .from(documentSources)
    .innerJoin(organizations, eq(organizations.id, documentSources.organizationId))
    .where(and(eq(documentSources.type, 'Direct'), inArray(documentSources.fullAddress, addresses), inArray(documentSources.status, [...IN_SERVICE_STATUSES])));
}

export function findEndpointsByAddress(db: DbOrTx, addresses: string[]) {
  return db
    .select({ address: directoryEndpoints.address, entry: directoryEntries })
    .from(directoryEndpoints)
    .innerJoin(directoryEntries, eq(directoryEntries.npi, directoryEndpoints.npi))
    .where(inArray(directoryEndpoints.address, addresses))
    .orderBy(asc(directoryEntries.npi));
}

export function findContactsByAddress(db: DbOrTx, organizationId: string, addresses: string[]) {
  return db
    .select()
    .from(directoryContacts)
    .where(and(eq(directoryContacts.organizationId, organizationId), inArray(directoryContacts.directAddress, addresses)));
}
