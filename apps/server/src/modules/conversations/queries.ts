import { and, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { conversations, messages } from '../../db/schema/messages.ts';

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationStatus = ConversationRow['conversationStatus'];

export async function findById(db: DbOrTx, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.organizationId, organizationId)));
  return row;
}

// Sets the outcome only while none is set: of two concurrent calls exactly one gets the row back.
export async function setOutcomeOnce(
  db: DbOrTx,
  organizationId: string,
  id: string,
  values: { conversationStatus: ConversationStatus; responseType: string; responseAction: string | null; respondedAt: Date },
) {
  const [row] = await db
    .update(conversations)
    .set(values)
    .where(and(eq(conversations.id, id), eq(conversations.organizationId, organizationId), isNull(conversations.respondedAt)))
    .returning();
  return row;
}

// The message that opened a conversation: its first sent Release message.
const openingMessage = sql`${messages.id} = (
  select m2.id from messages m2
  where m2.conversation_id = ${conversations.id} and m2.direction = 'Outbound' and m2.is_draft = false and m2.deleted_at is null
  order by m2.message_date asc nulls last, m2.created_date asc
  limit 1
)`;

export async function findTrackedPage(
  db: DbOrTx,
  filter: { organizationId: string; statuses?: ConversationStatus[] | undefined },
  page: { offset: number; limit: number },
) {
  const conditions: SQL[] = [eq(conversations.organizationId, filter.organizationId)];
  if (filter.statuses?.length) conditions.push(inArray(conversations.conversationStatus, filter.statuses));
  const where = and(...conditions);
  const base = () => db.select().from(conversations).innerJoin(messages, and(eq(messages.conversationId, conversations.id), openingMessage));
  const [items, [total]] = await Promise.all([
    base()
      .where(where)
      .orderBy(sql`${messages.messageDate} desc nulls last`, desc(conversations.createdAt), desc(conversations.id))
      .offset(page.offset)
      .limit(page.limit),
    db
      .select({ n: count() })
      .from(conversations)
      .innerJoin(messages, and(eq(messages.conversationId, conversations.id), openingMessage))
      .where(where),
  ]);
  return { items, totalCount: total?.n ?? 0 };
}
