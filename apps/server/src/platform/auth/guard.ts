import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isSystemAdmin, type Role } from '@clinicrelay/contracts/roles.ts';
import { SESSION_ACTIVITY_HEADER } from '@clinicrelay/contracts/constants.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import type { Database } from '../../db/client.ts';
import { sessions } from '../../db/schema/auth.ts';
import { eulaAcceptances, eulas } from '../../db/schema/onboarding.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { AppError, unauthorized } from '../errors.ts';
import type { OAuthScope } from '@clinicrelay/contracts/oauth.ts';
import { oauthMessages } from '@clinicrelay/contracts/oauth.ts';
import type { OAuthCaller } from '../oauth/server.ts';
import { verifyAccessToken } from './tokens.ts';

export interface AuthContext {
  userId: string;
  userName: string;
  sessionId: string;
  // The session's current organization; null for system administrators without one.
  organizationId: string | null;
  roles: Role[];
  // The current organization is cancelled and past any grace period: only flagged routes answer.
  organizationCancelled: boolean;
  // Issue 14 §6: an administrator who must enrol in two-factor sign-in first (REQUIRE_ADMIN_TWO_FACTOR): only
  // routes flagged twoFactorEnrolment answer.
  twoFactorEnrolmentRequired?: boolean;
  // Issue 26: a new version of the terms is active and this user has not accepted it: only routes flagged
  // termsAcceptance answer (the terms, the profile, sign-out).
  termsAcceptanceRequired?: boolean;
  // Issue 29: the call comes from a client application with an OAuth access token (audit rows name it).
  oauth?: { clientId: string; applicationName: string; scopes: OAuthScope[] };
}

declare module 'fastify' {
  interface FastifyRequest {
    authContext: AuthContext | null;
  }
  interface FastifyContextConfig {
    // Reachable by users of a cancelled organization (profile, sign-out, organization change, subscription).
    cancelledOrganization?: boolean;
    // A POST that only reads (a search, a list with a filter body): it leaves the session cache as it is.
    readOnly?: boolean;
    // A write that changes no session, user, role or organization (a draft save): it leaves the session cache as it is.
    keepsSessions?: boolean;
    // Reachable by an administrator who has not enrolled in two-factor sign-in yet (enrolment, profile, sign-out).
    twoFactorEnrolment?: boolean;
    // Reachable by a user who has not accepted the current terms yet (the terms calls, profile, sign-out, enrolment).
    termsAcceptance?: boolean;
    // Without a bearer token the route is public and its handler serves the anonymous form (POST
    // /api/users/resetpassword: the forgotten-password request); with one, the roles apply as usual.
    anonymousWithoutToken?: boolean;
    // Issue 29: the OAuth scope an access token of a client application needs here; a route without one refuses them.
    oauthScope?: OAuthScope;
  }
}

// last_seen_at is written at most once a minute, so most authenticated requests write nothing; with a short idle
// timeout at most a tenth of it, so an active user never loses more than 10 % of the timeout (issue 26).
const touchIntervalMs = (idleTimeoutMinutes: number) => Math.min(60_000, idleTimeoutMinutes * 6_000);

export const DOCS_COOKIE = 'cr_docs';

// The signed-in caller of an authenticated route (the guard has already refused anonymous calls).
export function auth(request: FastifyRequest): AuthContext {
  if (!request.authContext) throw unauthorized();
  return request.authContext;
}

// The caller's current organization, for organization-scoped data (DESIGN.md "Tenancy").
export function currentOrganizationId(request: FastifyRequest): string {
  const orgId = auth(request).organizationId;
  if (!orgId) throw new AppError(404, messages.notFound);
  return orgId;
}

// Who calls an organization-scoped route: the session, its current organization, and from where.
export interface OrgCaller {
  session: AuthContext;
  organizationId: string;
  ip?: string | undefined;
}

export const orgCaller = (request: FastifyRequest): OrgCaller => ({ session: auth(request), organizationId: currentOrganizationId(request), ip: request.ip });

// Who calls a back-office route: a system administrator, whatever organization the session is in.
export interface AdminCaller {
  session: AuthContext;
  ip?: string | undefined;
}
export const adminCaller = (request: FastifyRequest): AdminCaller => ({ session: auth(request), ip: request.ip });

// Every authenticated request runs it: built once per database (and prepared once per PostgreSQL connection).
const sessionLookups = new WeakMap<Database, ReturnType<typeof prepareSessionLookup>>();
const sessionLookup = (db: Database) => {
  let lookup = sessionLookups.get(db);
  if (!lookup) sessionLookups.set(db, (lookup = prepareSessionLookup(db)));
  return lookup;
};
const prepareSessionLookup = (db: Database) =>
  db
    .select({
      userName: users.userName,
      userDisabled: users.isDisabled,
      twoFactorEnabled: users.twoFactorEnabled,
      organizationId: sessions.organizationId,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      idleTimeoutMinutes: sessions.idleTimeoutMinutes,
      orgEnabled: organizations.isEnabled,
      orgCancelledAt: organizations.cancelledAt,
      orgGracePeriodEndsAt: organizations.gracePeriodEndsAt,
      orgRole: memberships.role,
      systemRoles: sql<string[]>`array(select r.role from user_system_roles r where r.user_id = ${users.id} order by r.role)`,
      // The brand's active EULA exists, the organization accepted terms before (one still onboarding is led by the
      // onboarding sequence, terms first) and this user has not accepted this version.
      termsPending: sql<boolean>`coalesce(${organizations.isAcceptedEula} and exists (select 1 from ${eulas} e where e.brand_id = ${organizations.brandId}
        and e.type = 'EULA' and e.is_active and not exists (select 1 from ${eulaAcceptances} ea where ea.eula_id = e.id and ea.user_id = ${users.id})), false)`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(organizations, eq(organizations.id, sessions.organizationId))
    .leftJoin(memberships, and(eq(memberships.userId, sessions.userId), eq(memberships.organizationId, sessions.organizationId)))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        sql`${sessions.revokedAt} is null`,
        sql`${sessions.expiresAt} > ${sql.placeholder('at')}::timestamptz`,
        sql`${sessions.lastSeenAt} > ${sql.placeholder('at')}::timestamptz - ${sessions.idleTimeoutMinutes} * interval '1 minute'`,
      ),
    )
    .prepare('load_session');

type SessionRow = Awaited<ReturnType<ReturnType<typeof prepareSessionLookup>['execute']>>[number];

// A session looked up less than SESSION_CACHE_MS ago is not looked up again, so a burst of calls (a page loading,
// a list refreshing, a search typed) costs one query. Every request that may change a session, a user, a role or
// an organization (any call but a GET, a readOnly or a keepsSessions route) empties the cache before it answers, so sign-out or a
// disabled user apply to this process's next request; another server process sees them within SESSION_CACHE_MS.
// Expiry and the idle timeout are checked against the time of each request, cached or not.
const SESSION_CACHE_MS = 2_000;
const SESSION_CACHE_MAX = 10_000;
class SessionCache {
  readonly entries = new Map<string, { row: SessionRow; storedAt: number }>();
  // A lookup that started before a clear does not store what it read.
  generation = 0;
  clear() {
    this.generation++;
    this.entries.clear();
  }
}
const sessionCaches = new WeakMap<Database, SessionCache>();
const sessionCache = (db: Database) => {
  let cache = sessionCaches.get(db);
  if (!cache) sessionCaches.set(db, (cache = new SessionCache()));
  return cache;
};

/** Forgets every cached session of this database (after a change the request hooks do not see, as in tests). */
export const clearSessionCache = (db: Database): void => sessionCache(db).clear();

async function lookUpSession(db: Database, sessionId: string, userId: string, now: Date): Promise<SessionRow | undefined> {
  const cache = sessionCache(db);
  const key = `${sessionId}/${userId}`;
  const cached = cache.entries.get(key);
  let row = cached && performance.now() - cached.storedAt < SESSION_CACHE_MS ? cached.row : undefined;
  if (!row) {
    const generation = cache.generation;
    [row] = await sessionLookup(db).execute({ sessionId, userId, at: now.toISOString() });
    if (!row) return void cache.entries.delete(key);
    if (generation === cache.generation) {
      if (cache.entries.size >= SESSION_CACHE_MAX) cache.entries.clear();
      cache.entries.set(key, { row, storedAt: performance.now() });
    }
  }
  const idleSince = now.getTime() - row.idleTimeoutMinutes * 60_000;
  return row.expiresAt > now && row.lastSeenAt.getTime() > idleSince ? row : undefined;
}

// Looks the session up (or takes it from the session cache), so logout, a disabled user or a changed role apply at
// once. The session ends idleTimeoutMinutes after its last request or at expiresAt, whichever comes first;
// touch (a request of the user's own, or a refresh) moves its last request to now.
export async function loadSession(
  db: Database,
  sessionId: string,
  userId: string,
  now: Date,
  options: { touch?: boolean; requireAdminTwoFactor?: boolean } = {},
): Promise<AuthContext | null> {
  const row = await lookUpSession(db, sessionId, userId, now);
  if (!row || row.userDisabled) return null;
  const roles = [...(row.systemRoles as Role[])];
  if (row.orgRole && row.orgEnabled) roles.push(row.orgRole);
  if (roles.length === 0) return null;
  const touchBefore = new Date(now.getTime() - touchIntervalMs(row.idleTimeoutMinutes));
  if (options.touch && row.lastSeenAt < touchBefore) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, sessionId), sql`${sessions.lastSeenAt} < ${touchBefore.toISOString()}::timestamptz`));
    row.lastSeenAt = new Date(now);
  }
  // The same rule as the profile's orgIsCancelled: cancelled, and no grace period running.
  const inGracePeriod = !!row.orgGracePeriodEndsAt && row.orgGracePeriodEndsAt > now;
  const organizationCancelled = !!row.orgCancelledAt && !inGracePeriod && !isSystemAdmin(roles);
  const twoFactorEnrolmentRequired = !!options.requireAdminTwoFactor && !row.twoFactorEnabled && (isSystemAdmin(roles) || roles.includes('Administrator'));
  const termsAcceptanceRequired = row.termsPending && !isSystemAdmin(roles);
  return { userId, userName: row.userName, sessionId, organizationId: row.organizationId, roles, organizationCancelled, twoFactorEnrolmentRequired, termsAcceptanceRequired };
}

// A request the user made, as opposed to a list refreshing itself in an unattended tab.
export const isUserActivity = (request: FastifyRequest): boolean => request.headers[SESSION_ACTIVITY_HEADER] !== 'background';

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  if (request.routeOptions.config.docsCookie) {
    const cookie = request.headers.cookie?.split(';').map((c) => c.trim().split('='));
    return cookie?.find(([k]) => k === DOCS_COOKIE)?.[1];
  }
  return undefined;
}

// Issue 29: client applications' access tokens (platform/oauth), accepted beside the sessions' tokens.
export interface OAuthTokens {
  verify(token: string): Promise<OAuthCaller | null>;
  // False when the client has used up its calls of the current window.
  allow(clientId: string): boolean;
}

const oauthContext = (c: OAuthCaller): AuthContext => ({
  userId: c.userId,
  userName: c.userName,
  sessionId: `oauth:${c.tokenId}`,
  organizationId: c.organizationId,
  roles: c.roles,
  organizationCancelled: c.organizationCancelled,
  oauth: { clientId: c.clientId, applicationName: c.applicationName, scopes: c.scopes },
});

export function registerGuard(
  app: FastifyInstance,
  deps: { db: Database; signingKey: Uint8Array; now: () => Date; requireAdminTwoFactor?: boolean; oauth?: OAuthTokens },
): void {
  app.decorateRequest('authContext', null);
  app.addHook('onSend', async (request) => {
    const config = request.routeOptions.config;
    if (request.method !== 'GET' && request.method !== 'HEAD' && !config?.readOnly && !config?.keepsSessions) clearSessionCache(deps.db);
  });
  app.addHook('onRequest', async (request, reply) => {
    const roles = request.routeOptions.config.roles;
    if (!roles || roles === 'public') return;
    const token = bearerToken(request);
    if (!token && request.routeOptions.config.anonymousWithoutToken) return;
    if (!token) throw new AppError(401, messages.tokenRevokedOrExpired);
    const now = deps.now();
    const claims = verifyAccessToken(deps.signingKey, token, now);
    let context = claims && (await loadSession(deps.db, claims.sessionId, claims.userId, now, { touch: isUserActivity(request), requireAdminTwoFactor: deps.requireAdminTwoFactor }));
    const oauthCaller = !claims && deps.oauth ? await deps.oauth.verify(token) : null;
    if (oauthCaller) context = oauthContext(oauthCaller);
    if (!context) throw new AppError(401, messages.tokenRevokedOrExpired);
    request.authContext = context;
    if (oauthCaller) {
      // RFC 6750 §3.1: a route that declares no scope, or one the token lacks, answers insufficient_scope.
      const scope = request.routeOptions.config.oauthScope;
      if (!scope || !oauthCaller.scopes.includes(scope)) {
        return reply
          .code(403)
          .header('www-authenticate', `Bearer error="insufficient_scope"${scope ? `, scope="${scope}"` : ''}`)
          .send({ error: 'insufficient_scope', error_description: oauthMessages.insufficientScope, message: oauthMessages.insufficientScope });
      }
      if (!deps.oauth!.allow(oauthCaller.clientId)) throw new AppError(429, messages.tooManyRequests);
    }
    if (roles !== 'authenticated' && !context.roles.some((r) => roles.includes(r))) {
      throw new AppError(403, messages.notAuthorized);
    }
    if (context.organizationCancelled && !request.routeOptions.config.cancelledOrganization) {
      throw new AppError(403, messages.organizationCancelled);
    }
    if (context.twoFactorEnrolmentRequired && !request.routeOptions.config.twoFactorEnrolment) {
      throw new AppError(403, messages.twoFactorEnrolmentRequired);
    }
    if (context.termsAcceptanceRequired && !request.routeOptions.config.termsAcceptance) {
      throw new AppError(403, messages.termsAcceptanceRequired);
    }
  });
}
