import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { documentSourceStatusName } from '@clinicrelay/contracts/document-sources.ts';
import {
  USER_EVENTS_DAYS,
  userDetailMessages as text,
  type OrgUserDetail,
  type UserApplication,
  type userEventsQuery,
  type UserRequest,
  type userRequestsQuery,
} from '@clinicrelay/contracts/users.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { auditedBy, writeAudit } from '../../platform/audit.ts';
import { clearSessionCache, type OrgCaller } from '../../platform/auth/guard.ts';
import { notFound } from '../../platform/errors.ts';
import { revokeSessionsOf } from '../account/password-links.ts';
import type { MailAddress } from '../../platform/mail/settings.ts';
import { removeSecondFactors } from '../two-factor/service.ts';
import { messageEventTypes } from '../audit/service.ts';
import { REACTIVATION_REQUESTED } from '../subscriptions/service.ts';
import { toView } from './members.ts';
import * as q from './queries.ts';

// Issue 13 §2: a user's detail for their Administrator (Security, Activity, Requests); the user reads their own
// activity and requests too. Another organization's user, or another user for a User, answers 404.

export interface UserDetailDeps {
  db: Database;
  now: () => Date;
  mailFrom: MailAddress;
}

const DAY_MS = 86_400_000;
const isAdministrator = (caller: OrgCaller) => caller.session.roles.includes('Administrator');

async function memberOrNotFound(db: DbOrTx, caller: OrgCaller, userId: string) {
  if (!isAdministrator(caller) && userId !== caller.session.userId) throw notFound();
  const row = await q.findMember(db, caller.organizationId, userId);
  if (!row) throw notFound();
  return row;
}

const audit = (db: DbOrTx, caller: OrgCaller, eventType: string, userId: string, details: Record<string, unknown>, at: Date) =>
  writeAudit(db, { eventType, ...auditedBy(caller), correlationId: userId, details: { userId, ...details } }, at);

// ---- Security: authenticators and applications ----

// A client's id: the first 64 bits of the SHA-256 of its user agent (an absent one is a client of its own).
const appIdOf = (userAgent: string | null) => createHash('sha256').update(userAgent ?? '').digest('hex').slice(0, 16);

// A readable name for a user agent: "Chrome on Windows"; an API client by its first product token ("curl").
export function applicationName(userAgent: string | null): string {
  if (!userAgent) return 'Unknown application';
  const browser = [
    [/Edg(e|A|iOS)?\//, 'Edge'],
    [/OPR\/|Opera/, 'Opera'],
    [/Firefox\/|FxiOS\//, 'Firefox'],
    [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
    [/Safari\//, 'Safari'],
  ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] as string | undefined;
  const system = [
    [/Windows/, 'Windows'],
    [/iPhone|iPad|iPod/, 'iOS'],
    [/Android/, 'Android'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'],
    [/Linux/, 'Linux'],
  ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] as string | undefined;
  if (browser) return system ? `${browser} on ${system}` : browser;
  const product = /^[A-Za-z][\w.-]*/.exec(userAgent)?.[0];
  return product ? product.slice(0, 60) : 'Unknown application';
}

async function applicationsOf(db: DbOrTx, caller: OrgCaller, userId: string, now: Date) {
  const sessions = await q.findLiveSessions(db, caller.organizationId, userId, now);
  const byApp = new Map<string, { app: UserApplication; sessionIds: string[] }>();
  // Newest use first: the first session of a client gives its address.
  for (const s of sessions) {
    const id = appIdOf(s.userAgent);
    const entry = byApp.get(id);
    if (!entry) {
      const at = s.createdAt.toISOString();
      byApp.set(id, {
        app: { id, name: applicationName(s.userAgent), userAgent: s.userAgent, ipAddress: s.ip, sessions: 1, signedInOn: at, lastUsedOn: s.lastSeenAt.toISOString() },
        sessionIds: [s.id],
      });
      continue;
    }
    entry.app.sessions++;
    entry.sessionIds.push(s.id);
    if (s.createdAt.toISOString() < entry.app.signedInOn) entry.app.signedInOn = s.createdAt.toISOString();
  }
  return [...byApp.values()];
}

// GET /api/users/{id}: the list row, whether two-factor sign-in is set up, and where the user is signed in.
export async function getMemberDetail(deps: UserDetailDeps, caller: OrgCaller, userId: string): Promise<OrgUserDetail> {
  const row = await memberOrNotFound(deps.db, caller, userId);
  const applications = await applicationsOf(deps.db, caller, userId, deps.now());
  return { ...toView(row), twoFactorEnabled: row.twoFactorEnabled, tokenAuthEnabled: row.tokenAuthEnabled, applications: applications.map((a) => a.app) };
}

// DELETE /api/users/{id}/authenticators: two-factor sign-in goes (secret, method, recovery codes) and the user is
// told by mail; they enrol again from their security settings, or at their next sign-in when they must (issue 14). Allowed for a user of several organizations too, like a password reset: it is how a locked-out user
// (a lost phone) gets back in.
export async function removeAuthenticators(deps: UserDetailDeps, caller: OrgCaller, userId: string) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const member = await memberOrNotFound(tx, caller, userId);
    await removeSecondFactors(deps, tx, member, now, { administratorId: caller.session.userId, organizationId: caller.organizationId });
    await audit(tx, caller, 'UserAuthenticatorsRemoved', userId, { twoFactorWasEnabled: member.twoFactorEnabled }, now);
  });
  clearSessionCache(deps.db);
  return { message: text.authenticatorsRemoved };
}

// DELETE /api/users/{id}/applications/{appId}: ends the client's sessions in this organization at once and burns
// their refresh tokens, as disabling the user does (revokeSessionsOf).
export async function removeApplication(deps: UserDetailDeps, caller: OrgCaller, userId: string, appId: string) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await memberOrNotFound(tx, caller, userId);
    const app = (await applicationsOf(tx, caller, userId, now)).find((a) => a.app.id === appId);
    if (!app) throw notFound();
    const sessionsRevoked = await revokeSessionsOf(tx, userId, 'application-removed', now, app.sessionIds);
    await audit(tx, caller, 'UserApplicationRemoved', userId, { application: app.app.name, sessionsRevoked }, now);
  });
  clearSessionCache(deps.db);
  return { message: text.applicationRemoved };
}

// ---- Activity ----

// Names for the types the message Activity does not name; the rest read as words ("UserUpdated" → "User updated").
const EVENT_NAMES: Record<string, string> = {
  ...Object.fromEntries(messageEventTypes.map((t) => [t.eventType, t.name])),
  Login: 'Signed in',
  Logout: 'Signed out',
  InvitationSent: 'Invitation Sent',
  ReactivationRequested: 'Reactivation Requested',
  DocumentSourceCreated: 'Address Requested',
  DocumentSourceFaxNumberOrdered: 'Fax Number Ordered',
};
export const eventTypeName = (eventType: string) =>
  EVENT_NAMES[eventType] ?? eventType.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').replace(/ [A-Z](?=[a-z])/g, (w) => w.toLowerCase());

// One row per list page served: listed only when asked for by type, or a user's activity would be nothing else.
const HIDDEN_BY_DEFAULT = ['MessageListViewed'];
const listOf = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

// GET /api/users/{id}/events: the type, time and address of each action, never its details (they may name a patient
// or a subject; the message Activity shows admins no more).
export async function userEvents(deps: UserDetailDeps, caller: OrgCaller, userId: string, query: z.output<typeof userEventsQuery>) {
  await memberOrNotFound(deps.db, caller, userId);
  const from = query.start ? new Date(query.start) : new Date(deps.now().getTime() - USER_EVENTS_DAYS * DAY_MS);
  const page = await q.findUserEventsPage(
    deps.db,
    caller.organizationId,
    userId,
    { eventTypes: listOf(query.eventTypes), from, excludeTypes: HIDDEN_BY_DEFAULT },
    { offset: (query.pageStart - 1) * query.pageSize, limit: query.pageSize },
  );
  return {
    totalCount: page.totalCount,
    items: page.items.map((r) => ({ id: r.id, eventType: r.eventType, name: eventTypeName(r.eventType), createdOn: r.createdAt.toISOString(), ipAddress: r.ip })),
  };
}

// GET /api/users/{id}/events/type: the types the user's events have (a filter option never matches nothing).
export async function userEventTypes(deps: UserDetailDeps, caller: OrgCaller, userId: string) {
  await memberOrNotFound(deps.db, caller, userId);
  const types = await q.findUserEventTypes(deps.db, caller.organizationId, userId, HIDDEN_BY_DEFAULT);
  return types.map((eventType) => ({ eventType, name: eventTypeName(eventType) }));
}

// ---- Requests ----

const ADDRESS_REQUESTS = ['DocumentSourceCreated', 'DocumentSourceFaxNumberOrdered'];
const MAIL_STATES: Record<string, string> = { Queued: 'Sending', Sent: 'Sent', Failed: 'Failed' };

// GET /api/users/{id}/requests.
export async function userRequests(deps: UserDetailDeps, caller: OrgCaller, userId: string, query: z.output<typeof userRequestsQuery>) {
  await memberOrNotFound(deps.db, caller, userId);
  const [page, organization] = await Promise.all([
    q.findUserRequestsPage(deps.db, caller.organizationId, userId, ADDRESS_REQUESTS, REACTIVATION_REQUESTED, {
      offset: (query.pageStart - 1) * query.pageSize,
      limit: query.pageSize,
    }),
    q.findOrganizationCancellation(deps.db, caller.organizationId),
  ]);
  const cancelledAt = organization?.cancelledAt ?? null;
  const items = page.items.map((r): UserRequest => {
    const requestedOn = new Date(r.requested_at);
    if (r.kind === 'Invitation') return { id: r.id, type: 'Invitation', description: `Invitation to ${r.name ?? ''}`.trim(), status: MAIL_STATES[r.state ?? ''] ?? 'Sent', requestedOn: requestedOn.toISOString() };
    if (r.kind === 'Address') {
      const fax = r.address_type === 'Fax';
      return {
        id: r.id,
        type: fax ? 'FaxNumber' : 'DirectAddress',
        description: `${fax ? 'Fax number' : 'Direct address'} ${displayAddress(r.name)}`.trim(),
        // The address as it is now; gone altogether reads as Deleted.
        status: r.state === null ? 'Deleted' : documentSourceStatusName(Number(r.state)),
        requestedOn: requestedOn.toISOString(),
      };
    }
    const pending = cancelledAt !== null && requestedOn >= cancelledAt;
    return { id: r.id, type: 'Reactivation', description: 'Reactivation of the organization', status: pending ? 'Requested' : 'Completed', requestedOn: requestedOn.toISOString() };
  });
  return { items, totalCount: page.totalCount };
}
