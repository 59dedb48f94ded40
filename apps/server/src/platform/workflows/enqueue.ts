import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { workflows } from '../../db/schema/workflows.ts';

// The NOTIFY channel workers LISTEN on; the payload is unused, a notification only means "look now".
export const WORKFLOWS_CHANNEL = 'workflows';

export interface EnqueueInput {
  type: string;
  organizationId?: string | null;
  correlationId?: string | null;
  payload: Record<string, unknown>;
  runAfter?: Date;
  maxAttempts?: number;
}

// Inserts a workflow in the caller's transaction, so the work commits (or rolls back) with the data
// it is about. NOTIFY inside a transaction is delivered at commit, so workers never wake for nothing.
export async function enqueue(tx: DbOrTx, input: EnqueueInput): Promise<string> {
  const [row] = await tx
    .insert(workflows)
    .values({
      type: input.type,
      organizationId: input.organizationId ?? null,
      correlationId: input.correlationId ?? null,
      payload: input.payload,
      ...(input.runAfter ? { runAfter: input.runAfter } : {}),
      ...(input.maxAttempts ? { maxAttempts: input.maxAttempts } : {}),
    })
    .returning({ id: workflows.id });
  await tx.execute(sql.raw(`notify ${WORKFLOWS_CHANNEL}`));
  return row!.id;
}
