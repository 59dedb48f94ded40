import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { messageReaches as reaches } from '../intake/queries.ts';
import { messages } from '../../db/schema/messages.ts';
import { memberships, users } from '../../db/schema/users.ts';

// Who a received message is for: Intake's rule (modules/intake/queries.ts messageReaches) with the user as a column,
// WITHOUT the Administrator shortcut: an Administrator is told about what their own rules and assignments bring, not
// about every message.
export const messageReaches = (userId: SQL): SQL => reaches(userId, sql`${messages.organizationId}`);

// What the member sees in Intake, for the daily counts: an Administrator every inbound message, a User what reaches them.
export const visibleInIntakeOf = (userId: SQL, role: SQL): SQL => sql`(${role} = 'Administrator' or ${messageReaches(userId)})`;

// The audience of one received message: the enabled members of its organization it reaches.
export async function audienceOf(db: DbOrTx, message: { organizationId: string; messageId: string }): Promise<string[]> {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.organizationId, message.organizationId),
        eq(users.isDisabled, false),
        sql`exists (select 1 from ${messages} where ${messages.id} = ${message.messageId} and ${messages.organizationId} = ${message.organizationId}
          and ${messageReaches(sql`${memberships.userId}`)})`,
      ),
    );
  return rows.map((r) => r.userId);
}
