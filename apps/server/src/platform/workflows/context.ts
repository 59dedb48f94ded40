import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import { workflowSteps, workflows } from '../../db/schema/workflows.ts';
import { safeErrorMessage } from '../errors.ts';
import { recordTallies, type MessagingTally, type StepTally } from './rollups.ts';
import { workflowStepsTotal } from '../metrics/metrics.ts';

export type Workflow = typeof workflows.$inferSelect;

// What a step may return: stored as jsonb and handed back as stored when the step is replayed. A result with a
// `failed` text settles the step as Failed (a recipient refused for good): a replay hands it back like a completed
// one, the workflow ends Failed, and only an operator's retry (status Retry) runs it again.
export type StepResult = Record<string, unknown> | void;

const failureOf = (stored: Record<string, unknown> | null): string | null =>
  stored && typeof stored.failed === 'string' ? stored.failed.slice(0, 2000) : null;

export interface StepInfo {
  // 1 on the first try; more means an earlier try failed or its worker died mid-step, so an outside
  // call may already have happened (check with the provider before repeating it).
  attempt: number;
  // An operator asked for this step to run again (it was marked Retry): state an earlier run settled as failed
  // (a recipient marked Failed) may be reopened.
  retried: boolean;
}

export interface WorkflowContext {
  workflow: Workflow;
  db: Database;
  now: () => Date;
  // Aborted when this worker lost the lease or is stopping and gave up waiting: stop calling out.
  signal: AbortSignal;
  // Runs fn at most once to completion per (workflow, name, key); a replay returns the stored result. A step that is a
  // message delivered or received names its dashboard tally, recorded in the transaction that records the step.
  step: <T extends StepResult>(name: string, key: string, fn: (info: StepInfo) => Promise<T>, tally?: StepTally) => Promise<T>;
}

// Thrown by a handler whose work cannot start before `until` (a paused webhook): the workflow goes back to Pending
// for then, and the run does not count as a try.
export class WorkflowDeferred extends Error {
  constructor(readonly until: Date) {
    super(`Deferred until ${until.toISOString()}.`);
  }
}

export type WorkflowHandler = (ctx: WorkflowContext) => Promise<void>;
export type WorkflowHandlers = ReadonlyMap<string, WorkflowHandler>;

// pino's shape (app.log fits); entries carry ids and error texts, never payloads (they may hold PHI).
export interface WorkflowLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

// The text stored and logged for a failure: the message only, never a stack (it may name files and data),
// and for a failed query its code only (the driver's message lists the query's parameters).
export function errorText(error: unknown): string {
  return safeErrorMessage(error).slice(0, 2000);
}

export function workflowContext(opts: { db: Database; workflow: Workflow; now: () => Date; signal: AbortSignal }): WorkflowContext {
  const { db, workflow, signal } = opts;
  return {
    workflow,
    db,
    now: opts.now,
    signal,
    async step<T extends StepResult>(name: string, key: string, fn: (info: StepInfo) => Promise<T>, tally?: StepTally): Promise<T> {
      signal.throwIfAborted();
      const where = and(eq(workflowSteps.workflowId, workflow.id), eq(workflowSteps.name, name), eq(workflowSteps.key, key));
      // The step's outcome, with its dashboard tallies in the same transaction. Should the tallies fail, the outcome is
      // recorded without them: a missed count is never worth running a delivered step again.
      const record = async (outcome: PgUpdateSetSource<typeof workflowSteps>, tallies: MessagingTally[]) => {
        if (tallies.length > 0) {
          try {
            await db.transaction(async (tx) => {
              await tx.update(workflowSteps).set(outcome).where(where);
              await recordTallies(tx, tallies);
            });
            return;
          } catch {
            // Recorded below without the tallies.
          }
        }
        await db.update(workflowSteps).set(outcome).where(where);
      };
      const [existing] = await db
        .select({ status: workflowSteps.status, result: workflowSteps.result })
        .from(workflowSteps)
        .where(where);
      const settled = existing && (existing.status === 'Completed' || (existing.status === 'Failed' && failureOf(existing.result) !== null));
      if (settled) return (existing.result ?? undefined) as T;

      const [started] = await db
        .insert(workflowSteps)
        .values({ workflowId: workflow.id, name, key, status: 'Running', attempts: 1, startedAt: sql`now()` })
        .onConflictDoUpdate({
          target: [workflowSteps.workflowId, workflowSteps.name, workflowSteps.key],
          // While it runs, a retried step keeps that it was retried: a worker that takes it over after a crash still knows.
          set: {
            status: 'Running',
            attempts: sql`${workflowSteps.attempts} + 1`,
            error: null,
            result: sql`case when ${workflowSteps.status} = 'Retry' or (${workflowSteps.status} = 'Running' and coalesce((${workflowSteps.result} ->> 'retried')::boolean, false)) then '{"retried": true}'::jsonb else null end`,
            startedAt: sql`now()`,
            completedAt: null,
          },
        })
        .returning({ attempts: workflowSteps.attempts, result: workflowSteps.result });

      let value: T;
      try {
        // No transaction is open here: fn may call out to the network for as long as it needs.
        value = await fn({ attempt: started!.attempts, retried: started!.result?.retried === true });
      } catch (error) {
        // Counted once, when the workflow's last try fails; earlier failures are tried again.
        await record({ status: 'Failed', error: errorText(error) }, tally && workflow.attempts >= workflow.maxAttempts ? tally({ error }) : []);
        workflowStepsTotal.inc({ type: workflow.type, step: name, status: 'Failed' });
        throw error;
      }
      // The first run hands back what a replay would read, so a non-JSON result shows up at once.
      const stored = value === undefined ? null : (JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
      // Recorded even if the lease was lost meanwhile: the outside effect happened, a new run must not repeat it.
      const failed = failureOf(stored);
      await record(
        { status: failed === null ? 'Completed' : 'Failed', result: stored, error: failed, completedAt: sql`now()` },
        tally ? tally({ result: stored ?? undefined }) : [],
      );
      workflowStepsTotal.inc({ type: workflow.type, step: name, status: failed === null ? 'Completed' : 'Failed' });
      return (stored ?? undefined) as T;
    },
  };
}
