import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.ts';

// Data access of the CSV reports: each query is one keyset page (rows after a key, in key order, up to a limit) on an
// index, so a report streams page by page in constant memory (platform/csv.ts keysetBatches).

type Stamp = Date | string | null;

const orgFilter = (column: SQL, organizationIds: readonly string[] | null) =>
  organizationIds && organizationIds.length > 0 ? sql`and ${column} in (${sql.join(organizationIds.map((id) => sql`${id}::uuid`), sql`, `)})` : sql``;

export const organizationOptions = (db: DbOrTx) => queryRows<{ id: string; name: string }>(db, sql`select o.id, o.name from organizations o order by lower(o.name), o.id`);

export interface DirectAddressRow extends Record<string, unknown> {
  id: string;
  orgId: number;
  organizationName: string;
  subdomain: string;
  address: string;
  status: number;
  createdAt: Stamp;
}

export const directAddressPage = (db: DbOrTx, after: string | null, limit: number) =>
  queryRows<DirectAddressRow>(
    db,
    sql`select s.id, o.org_id as "orgId", o.name as "organizationName", o.subdomain, s.full_address as address, s.status, s.created_at as "createdAt"
      from document_sources s join organizations o on o.id = s.organization_id
      where s.type = 'Direct' ${after ? sql`and s.id > ${after}::uuid` : sql``}
      order by s.id limit ${limit}`,
  );

export interface OrganizationRow extends Record<string, unknown> {
  orgId: number;
  name: string;
  subdomain: string;
  brand: string | null;
  organizationType: string | null;
  plan: string | null;
  npi: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  phone: string | null;
  contactName: string | null;
  contactEmail: string | null;
  isActivated: boolean;
  isEnabled: boolean;
  isPendingCancellation: boolean;
  users: number;
  directAddresses: number;
  faxNumbers: number;
  createdAt: Stamp;
}

export const organizationPage = (db: DbOrTx, after: number | null, limit: number) =>
  queryRows<OrganizationRow>(
    db,
    sql`select o.org_id as "orgId", o.name, o.subdomain, b.name as brand, t.name as "organizationType", p.name as plan, o.organization_npi as npi,
        o.address_city as city, o.address_state as state, o.address_zip as zip, o.primary_phone as phone,
        nullif(trim(coalesce(o.primary_contact_first_name, '') || ' ' || coalesce(o.primary_contact_last_name, '')), '') as "contactName",
        o.primary_contact_email as "contactEmail", o.is_activated as "isActivated", o.is_enabled as "isEnabled", o.is_pending_cancellation as "isPendingCancellation",
        (select count(*)::int from memberships m where m.organization_id = o.id) as users,
        (select count(*)::int from document_sources s where s.organization_id = o.id and s.type = 'Direct' and s.status <> 4) as "directAddresses",
        (select count(*)::int from document_sources s where s.organization_id = o.id and s.type = 'Fax' and s.status <> 4) as "faxNumbers",
        o.created_at as "createdAt"
      from organizations o
        left join brands b on b.id = o.brand_id
        left join organization_types t on t.id = o.organization_type_id
        left join subscription_plans p on p.id = o.plan_id
      ${after === null ? sql`` : sql`where o.org_id > ${after}`}
      order by o.org_id limit ${limit}`,
  );

export interface UserRow extends Record<string, unknown> {
  id: string;
  userName: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string | null;
  systemRoles: string | null;
  organizations: string | null;
  isDisabled: boolean;
  twoFactorEnabled: boolean;
  idProofed: boolean;
  lastSignIn: Stamp;
  createdAt: Stamp;
}

export const userPage = (db: DbOrTx, after: string | null, limit: number) =>
  queryRows<UserRow>(
    db,
    sql`select u.id, u.user_name as "userName", u.first_name as "firstName", u.last_name as "lastName", u.email, u.phone_number as "phoneNumber",
        (select string_agg(r.role, '; ' order by r.role) from user_system_roles r where r.user_id = u.id) as "systemRoles",
        (select string_agg(o.name || ' (' || m.role || ')', '; ' order by o.name) from memberships m join organizations o on o.id = m.organization_id where m.user_id = u.id) as organizations,
        u.is_disabled as "isDisabled", u.two_factor_enabled as "twoFactorEnabled", u.id_proofed as "idProofed",
        (select max(s.created_at) from sessions s where s.user_id = u.id) as "lastSignIn", u.created_at as "createdAt"
      from users u
      ${after === null ? sql`` : sql`where u.id > ${after}::uuid`}
      order by u.id limit ${limit}`,
  );

export interface ContactsUsageRow extends Record<string, unknown> {
  orgId: number;
  name: string;
  contacts: number;
  withDirectAddress: number;
  withFax: number;
  invitations: number;
  lastContactAdded: Stamp;
  lastInvitation: Stamp;
}

export const contactsUsagePage = (db: DbOrTx, after: number | null, limit: number) =>
  queryRows<ContactsUsageRow>(
    db,
    sql`select o.org_id as "orgId", o.name,
        (select count(*)::int from directory_contacts c where c.organization_id = o.id) as contacts,
        (select count(*)::int from directory_contacts c where c.organization_id = o.id and c.direct_address is not null and c.direct_address <> '') as "withDirectAddress",
        (select count(*)::int from directory_contacts c where c.organization_id = o.id and c.fax is not null and c.fax <> '') as "withFax",
        (select count(*)::int from invitations i where i.organization_id = o.id) as invitations,
        (select max(c.created_at) from directory_contacts c where c.organization_id = o.id) as "lastContactAdded",
        (select max(i.created_at) from invitations i where i.organization_id = o.id) as "lastInvitation"
      from organizations o
      ${after === null ? sql`` : sql`where o.org_id > ${after}`}
      order by o.org_id limit ${limit}`,
  );

export interface DeviceRow extends Record<string, unknown> {
  id: string;
  createdAt: Stamp;
  createdAtKey: string;
  userName: string;
  organizationName: string | null;
  ip: string;
  userAgent: string | null;
  lastSeenAt: Stamp;
  expiresAt: Stamp;
  revokedAt: Stamp;
}

// created_at as PostgreSQL's text (microseconds kept: a JavaScript Date would round them and repeat rows).
export interface TimeKey {
  createdAt: string;
  id: string;
}

const afterTime = (after: TimeKey | null, table: string, inclusive = false) =>
  after ? sql`and (${sql.raw(table)}.created_at, ${sql.raw(table)}.id) ${sql.raw(inclusive ? '>=' : '>')} (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``;

// Sessions begun in [from, to): each is a device (browser or app) a user signed in from.
export const devicePage = (db: DbOrTx, range: { from: Date; to: Date }, after: TimeKey | null, limit: number) =>
  queryRows<DeviceRow>(
    db,
    sql`select s.id, s.created_at as "createdAt", s.created_at::text as "createdAtKey", u.user_name as "userName", o.name as "organizationName", s.ip, s.user_agent as "userAgent",
        s.last_seen_at as "lastSeenAt", s.expires_at as "expiresAt", s.revoked_at as "revokedAt"
      from sessions s join users u on u.id = s.user_id left join organizations o on o.id = s.organization_id
      where s.created_at >= ${range.from.toISOString()}::timestamptz and s.created_at < ${range.to.toISOString()}::timestamptz ${afterTime(after, 's')}
      order by s.created_at, s.id limit ${limit}`,
  );

export interface EventRow extends Record<string, unknown> {
  id: string;
  createdAt: Stamp;
  createdAtKey: string;
  eventType: string;
  orgId: number;
  organizationName: string;
  messageId: string;
  direction: string;
  sourceType: string | null;
  status: string;
  userName: string | null;
}

const eventTypeFilter = (eventTypes: readonly string[]) => (eventTypes.length > 0 ? sql`and e.event_type in (${sql.join(eventTypes.map((t) => sql`${t}`), sql`, `)})` : sql``);

// The key of the first row of a page (offset rows in), read from the (created_at, id) index only.
export async function eventPageStart(db: DbOrTx, range: { from: Date; to: Date }, eventTypes: readonly string[], offset: number): Promise<TimeKey | null | 'none'> {
  if (offset === 0) return null;
  const [row] = await queryRows<TimeKey>(
    db,
    sql`select e.created_at::text as "createdAt", e.id from message_events e
      where e.created_at >= ${range.from.toISOString()}::timestamptz and e.created_at < ${range.to.toISOString()}::timestamptz ${eventTypeFilter(eventTypes)}
      order by e.created_at, e.id offset ${offset} limit 1`,
  );
  return row ?? 'none';
}

// Message events of [from, to), of the given types (none: all). No subject or patient: the report carries no PHI.
export const eventPage = (db: DbOrTx, range: { from: Date; to: Date }, eventTypes: readonly string[], after: TimeKey | null, limit: number, inclusive = false) =>
  queryRows<EventRow>(
    db,
    sql`select e.id, e.created_at as "createdAt", e.created_at::text as "createdAtKey", e.event_type as "eventType", o.org_id as "orgId", o.name as "organizationName", e.message_id as "messageId",
        m.direction, m.source_type as "sourceType", m.status, u.user_name as "userName"
      from message_events e join messages m on m.id = e.message_id join organizations o on o.id = e.organization_id left join users u on u.id = e.user_id
      where e.created_at >= ${range.from.toISOString()}::timestamptz and e.created_at < ${range.to.toISOString()}::timestamptz ${eventTypeFilter(eventTypes)} ${afterTime(after, 'e', inclusive)}
      order by e.created_at, e.id limit ${limit}`,
  );

export interface UnassignedAddressRow extends Record<string, unknown> {
  id: string;
  orgId: number;
  organizationName: string;
  type: string;
  address: string;
  status: number;
  createdAt: Stamp;
}

// An address is unassigned when no intake rule brings its messages to anyone: no rule of its organization that names
// it (or names no address) and is global or has users.
export const unassignedAddressPage = (db: DbOrTx, organizationIds: readonly string[], after: string | null, limit: number) =>
  queryRows<UnassignedAddressRow>(
    db,
    sql`select s.id, o.org_id as "orgId", o.name as "organizationName", s.type, s.full_address as address, s.status, s.created_at as "createdAt"
      from document_sources s join organizations o on o.id = s.organization_id
      where s.status <> 4 ${orgFilter(sql`s.organization_id`, organizationIds)}
        and not exists (select 1 from intake_rules r where r.organization_id = s.organization_id
          and (cardinality(r.to_addresses) = 0 or s.full_address = any(r.to_addresses))
          and (r.is_global or exists (select 1 from user_intake_rules ur where ur.intake_rule_id = r.id)))
        ${after ? sql`and s.id > ${after}::uuid` : sql``}
      order by s.id limit ${limit}`,
  );

export interface IntakeRuleRow extends Record<string, unknown> {
  id: string;
  orgId: number;
  organizationName: string;
  name: string;
  toAddresses: string[] | null;
  fromAddress: string | null;
  sourceType: string | null;
  isGlobal: boolean;
  users: string | null;
  createdAt: Stamp;
}

export const intakeRulePage = (db: DbOrTx, organizationIds: readonly string[], after: string | null, limit: number) =>
  queryRows<IntakeRuleRow>(
    db,
    sql`select r.id, o.org_id as "orgId", o.name as "organizationName", r.name, r.to_addresses as "toAddresses", r.from_address as "fromAddress",
        r.source_type as "sourceType", r.is_global as "isGlobal",
        (select string_agg(u.user_name, '; ' order by u.user_name) from user_intake_rules ur join users u on u.id = ur.user_id where ur.intake_rule_id = r.id) as users,
        r.created_at as "createdAt"
      from intake_rules r join organizations o on o.id = r.organization_id
      where true ${orgFilter(sql`r.organization_id`, organizationIds)} ${after ? sql`and r.id > ${after}::uuid` : sql``}
      order by r.id limit ${limit}`,
  );

export interface DownloadProfileRow extends Record<string, unknown> {
  orgId: number;
  name: string;
  settings: Record<string, unknown> | null;
}

// An organization's download profile: how its users' documents are printed or exported (organization settings).
export const downloadProfilePage = (db: DbOrTx, organizationIds: readonly string[], after: number | null, limit: number) =>
  queryRows<DownloadProfileRow>(
    db,
    sql`select o.org_id as "orgId", o.name, o.settings from organizations o
      where true ${orgFilter(sql`o.id`, organizationIds)} ${after === null ? sql`` : sql`and o.org_id > ${after}`}
      order by o.org_id limit ${limit}`,
  );
