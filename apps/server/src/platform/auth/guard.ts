import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import type { Database } from '../../db/client.ts';
import { sessions } from '../../db/schema/auth.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { AppError, unauthorized } from '../errors.ts';
import { verifyAccessToken } from './tokens.ts';

export interface AuthContext {
  userId: string;
  userName: string;
  sessionId: string;
  // The session's current organization; null for system administrators without one.
  organizationId: string | null;
  roles: Role[];
}

declare module 'fastify' {
  interface FastifyRequest {
    authContext: AuthContext | null;
  }
}

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

// Looks the session up on every request, so logout, a disabled user or a changed role apply at once.
export async function loadSession(db: Database, sessionId: string, userId: string, now: Date): Promise<AuthContext | null> {
  const [row] = await db
    .select({
      userName: users.userName,
      userDisabled: users.isDisabled,
      organizationId: sessions.organizationId,
      orgEnabled: organizations.isEnabled,
      orgRole: memberships.role,
      systemRoles: sql<string[]>`array(select r.role from user_system_roles r where r.user_id = ${users.id} order by r.role)`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(organizations, eq(organizations.id, sessions.organizationId))
    .leftJoin(memberships, and(eq(memberships.userId, sessions.userId), eq(memberships.organizationId, sessions.organizationId)))
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.userId, userId),
        sql`${sessions.revokedAt} is null`,
        sql`${sessions.expiresAt} > ${now.toISOString()}`,
      ),
    );
  if (!row || row.userDisabled) return null;
  const roles = [...(row.systemRoles as Role[])];
  if (row.orgRole && row.orgEnabled) roles.push(row.orgRole);
  if (roles.length === 0) return null;
  return { userId, userName: row.userName, sessionId, organizationId: row.organizationId, roles };
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  if (request.routeOptions.config.docsCookie) {
    const cookie = request.headers.cookie?.split(';').map((c) => c.trim().split('='));
    return cookie?.find(([k]) => k === DOCS_COOKIE)?.[1];
  }
  return undefined;
}

export function registerGuard(app: FastifyInstance, deps: { db: Database; signingKey: Uint8Array; now: () => Date }): void {
  app.decorateRequest('authContext', null);
  app.addHook('onRequest', async (request) => {
    const roles = request.routeOptions.config.roles;
    if (!roles || roles === 'public') return;
    const token = bearerToken(request);
    if (!token) throw new AppError(401, messages.tokenRevokedOrExpired);
    const now = deps.now();
    const claims = await verifyAccessToken(deps.signingKey, token, now);
    const context = claims && (await loadSession(deps.db, claims.sessionId, claims.userId, now));
    if (!context) throw new AppError(401, messages.tokenRevokedOrExpired);
    request.authContext = context;
    if (roles !== 'authenticated' && !context.roles.some((r) => roles.includes(r))) {
      throw new AppError(403, messages.notAuthorized);
    }
  });
}
