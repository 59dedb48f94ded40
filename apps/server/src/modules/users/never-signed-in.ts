import { and, asc, count, eq, notExists, sql } from 'drizzle-orm';
import { NEVER_SIGNED_IN_LIMIT, neverSignedInUsers } from '@clinicrelay/contracts/dashboard.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { loginAttempts, sessions } from '../../db/schema/auth.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { orgCaller, type OrgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import type { UsersDeps } from './service.ts';

// Kept beside routes.ts rather than in it: the dashboard's one call, so the users list work and this do not collide.
const ADMINS: readonly Role[] = ['Administrator'];

// Signed in once: a session was ever opened, or a password sign-in succeeded (sessions may since be gone).
const neverSignedIn = (db: DbOrTx) =>
  and(
    notExists(db.select({ one: sql`1` }).from(sessions).where(eq(sessions.userId, users.id))),
    notExists(db.select({ one: sql`1` }).from(loginAttempts).where(and(eq(loginAttempts.userId, users.id), eq(loginAttempts.succeeded, true)))),
  )!;

export async function findNeverSignedIn(db: DbOrTx, organizationId: string, limit: number) {
  const where = and(eq(memberships.organizationId, organizationId), eq(users.isDisabled, false), neverSignedIn(db));
  const items = await db
    .select({ id: users.id, userName: users.userName, firstName: users.firstName, lastName: users.lastName, createdAt: users.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where)
    .orderBy(asc(users.createdAt), asc(users.userName))
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(where);
  return { items, totalCount: total?.n ?? 0 };
}

// Enabled members of the caller's organization who have never signed in, oldest account first.
export async function neverSignedInMembers(deps: UsersDeps, caller: OrgCaller): Promise<z.infer<typeof neverSignedInUsers>> {
  const page = await findNeverSignedIn(deps.db, caller.organizationId, NEVER_SIGNED_IN_LIMIT);
  return {
    totalCount: page.totalCount,
    items: page.items.map((u) => ({ id: u.id, userName: u.userName, fullName: `${u.firstName} ${u.lastName}`.trim(), createdOn: u.createdAt.toISOString() })),
  };
}

export function neverSignedInRoutes(app: App, deps: UsersDeps) {
  // A static segment: find-my-way matches it before /api/users/:id.
  app.route({
    method: 'GET',
    url: '/api/users/neversignedin',
    config: { roles: ADMINS },
    schema: { tags: ['users'], response: { 200: neverSignedInUsers } },
    handler: (request) => neverSignedInMembers(deps, orgCaller(request)),
  });
}
