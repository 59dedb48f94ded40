import { lt, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.ts';
import { messagingRollups } from '../../db/schema/messaging-rollups.ts';

export type MessagingDirection = 'Inbound' | 'Outbound';
export type MessagingOutcome = 'Success' | 'Failure' | 'Other';

// One message counted on the messaging dashboard: which way, over which channel, and how it ended.
export interface MessagingTally {
  direction: MessagingDirection;
  channel: string;
  outcome: MessagingOutcome;
}

// What a step counts once it is recorded: from its result when it completed, or from its error when it failed on the
// workflow's last try (earlier failures are retried and counted when they end). Returns nothing for steps that are not
// messages (an MDN, a seal). Declared by the area that runs the step, so platform/ knows no channel.
export type StepTally = (outcome: { result: Record<string, unknown> | undefined } | { error: unknown }) => MessagingTally[];

// Adds the tallies to their minute's rows, in the caller's transaction (the one recording the step).
export async function recordTallies(tx: DbOrTx, tallies: readonly MessagingTally[]): Promise<void> {
  // One row per key: an insert may not update the same row twice.
  const counts = new Map<string, MessagingTally & { count: number }>();
  for (const t of tallies) {
    const key = `${t.direction}\n${t.channel}\n${t.outcome}`;
    const seen = counts.get(key);
    if (seen) seen.count++;
    else counts.set(key, { ...t, count: 1 });
  }
  if (counts.size === 0) return;
  // Rows locked in one order by every writer: two steps' transactions never wait for each other in a cycle.
  const rows = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  await tx
    .insert(messagingRollups)
    .values(rows.map((t) => ({ minute: sql`date_trunc('minute', now())`, direction: t.direction, channel: t.channel, outcome: t.outcome, count: t.count })))
    .onConflictDoUpdate({
      target: [messagingRollups.minute, messagingRollups.direction, messagingRollups.channel, messagingRollups.outcome],
      set: { count: sql`${messagingRollups.count} + excluded.count` },
    });
}

// The dashboard reads at most 168 hours back; older minutes go after MESSAGING_ROLLUP_RETENTION_DAYS (31 by default).
export async function sweepRollups(db: Database, cutoff: Date): Promise<number> {
  const removed = await db.delete(messagingRollups).where(lt(messagingRollups.minute, cutoff)).returning({ minute: messagingRollups.minute });
  return removed.length;
}
