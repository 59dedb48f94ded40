import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { messages } from '../../db/schema/messages.ts';

// The message's id when it belongs to the organization; undefined otherwise (never says which).
export async function findMessageId(db: DbOrTx, organizationId: string, messageId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.organizationId, organizationId)));
  return row?.id;
}
