import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

const fullName = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;

// People who can be reached: enabled users of the organizations, matched on their name, user name or email.
export function findContactPage(db: DbOrTx, search: string, page: PageRequest) {
  const pattern = containsPattern(search);
  const where = and(eq(users.isDisabled, false), or(ilike(fullName, pattern), ilike(users.userName, pattern), ilike(users.email, pattern)));
  const from = () => db.select({ id: users.id, name: fullName, userName: users.userName, email: users.email, organizationId: organizations.id, organizationName: organizations.name, role: memberships.role }).from(memberships);
  return findPage(
    page,
    ({ offset, limit }) =>
      from()
        .innerJoin(users, eq(users.id, memberships.userId))
        .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
        .where(where)
        .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.userName), asc(organizations.name), asc(organizations.id))
        .offset(offset)
        .limit(limit),
    async () => {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(where);
      return row?.n ?? 0;
    },
  );
}
