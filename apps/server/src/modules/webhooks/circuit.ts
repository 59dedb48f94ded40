import { and, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { webhookDeliveries, webhooks } from '../../db/schema/webhooks.ts';
import { workflows } from '../../db/schema/workflows.ts';
import type { WebhookRow } from './queries.ts';

// A failing receiver's circuit (issue 26): after CIRCUIT_FAILURES failed tries in a row the webhook's deliveries wait
// until the pause ends, then one of them probes; each further failure doubles the pause, a success closes it.
export const CIRCUIT_FAILURES = 5;
const FIRST_PAUSE_MS = 60_000;
const MAX_PAUSE_MS = 60 * 60_000;
// How long the probe holds the others back; a probe whose worker died frees the circuit after it.
const PROBE_WINDOW_MS = 60_000;

export const circuitPauseMs = (failures: number): number => Math.min(FIRST_PAUSE_MS * 2 ** Math.max(0, failures - CIRCUIT_FAILURES), MAX_PAUSE_MS);

// Before a try: when to come back, or null to try now (the circuit is closed, or this run won the probe).
export async function circuitWait(db: DbOrTx, hook: WebhookRow, now: Date): Promise<Date | null> {
  if (!hook.pausedUntil) return null;
  if (hook.pausedUntil > now) return hook.pausedUntil;
  // The pause is over: the one run that moves it on probes, the others wait for its outcome.
  const [won] = await db
    .update(webhooks)
    .set({ pausedUntil: new Date(now.getTime() + PROBE_WINDOW_MS) })
    .where(and(eq(webhooks.id, hook.id), isNotNull(webhooks.pausedUntil), lte(webhooks.pausedUntil, now)))
    .returning({ id: webhooks.id });
  if (won) return null;
  const [current] = await db.select({ pausedUntil: webhooks.pausedUntil }).from(webhooks).where(eq(webhooks.id, hook.id));
  return current?.pausedUntil && current.pausedUntil > now ? current.pausedUntil : null;
}

// A try answered 2xx: the circuit closes, and deliveries that waited for it go now rather than at their next time.
export async function closeCircuit(tx: DbOrTx, hook: WebhookRow, workflowType: string): Promise<void> {
  if (hook.consecutiveFailures === 0 && !hook.pausedUntil) return;
  await tx.update(webhooks).set({ consecutiveFailures: 0, failingSince: null, pausedUntil: null }).where(eq(webhooks.id, hook.id));
  const waiting = tx
    .select({ id: sql<string>`${webhookDeliveries.id}::text` })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, hook.id), eq(webhookDeliveries.status, 'Pending')));
  await tx
    .update(workflows)
    .set({ runAfter: sql`now()` })
    .where(and(eq(workflows.type, workflowType), eq(workflows.status, 'Pending'), inArray(workflows.correlationId, waiting)));
}

// A try failed: counted; the CIRCUIT_FAILURES-th in a row (and every one after) pauses the webhook. Returns the pause.
export async function countFailure(tx: DbOrTx, hook: WebhookRow, now: Date): Promise<Date | null> {
  const [row] = await tx
    .update(webhooks)
    .set({ consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`, failingSince: sql`coalesce(${webhooks.failingSince}, ${now})` })
    .where(eq(webhooks.id, hook.id))
    .returning({ failures: webhooks.consecutiveFailures });
  if (!row || row.failures < CIRCUIT_FAILURES) return null;
  const pausedUntil = new Date(now.getTime() + circuitPauseMs(row.failures));
  await tx.update(webhooks).set({ pausedUntil }).where(eq(webhooks.id, hook.id));
  return pausedUntil;
}

// Saving a webhook that is (re-)enabled or points elsewhere starts it afresh.
export const resetCircuit = { consecutiveFailures: 0, failingSince: null, pausedUntil: null } as const;
