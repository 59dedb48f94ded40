import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { workflowSteps, workflows } from '../../db/schema/workflows.ts';
import { safeErrorMessage } from '../errors.ts';
import { workflowStepsTotal } from '../metrics/metrics.ts';

export type Workflow = typeof workflows.$inferSelect;

// What a step may return: stored as jsonb and handed back as stored when the step is replayed.
export type StepResult = Record<string, unknown> | void;

export interface StepInfo {
  // 1 on the first try; more means an earlier try failed or its worker died mid-step, so an outside
  // call may already have happened (check with the provider before repeating it).
  attempt: number;
}

export interface WorkflowContext {
  workflow: Workflow;
  db: Database;
  now: () => Date;
  // Aborted when this worker lost the lease or is stopping and gave up waiting: stop calling out.
  signal: AbortSignal;
  // Runs fn at most once to completion per (workflow, name, key); a replay returns the stored result.
  step: <T extends StepResult>(name: string, key: string, fn: (info: StepInfo) => Promise<T>) => Promise<T>;
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
    async step<T extends StepResult>(name: string, key: string, fn: (info: StepInfo) => Promise<T>): Promise<T> {
      signal.throwIfAborted();
      const where = and(eq(workflowSteps.workflowId, workflow.id), eq(workflowSteps.name, name), eq(workflowSteps.key, key));
      const [done] = await db
        .select({ result: workflowSteps.result })
        .from(workflowSteps)
        .where(and(where, eq(workflowSteps.status, 'Completed')));
      if (done) return (done.result ?? undefined) as T;

      const [started] = await db
        .insert(workflowSteps)
        .values({ workflowId: workflow.id, name, key, status: 'Running', attempts: 1, startedAt: sql`now()` })
        .onConflictDoUpdate({
          target: [workflowSteps.workflowId, workflowSteps.name, workflowSteps.key],
          set: { status: 'Running', attempts: sql`${workflowSteps.attempts} + 1`, error: null, startedAt: sql`now()` },
        })
        .returning({ attempts: workflowSteps.attempts });

      let value: T;
      try {
        // No transaction is open here: fn may call out to the network for as long as it needs.
        value = await fn({ attempt: started!.attempts });
      } catch (error) {
        await db.update(workflowSteps).set({ status: 'Failed', error: errorText(error) }).where(where);
        workflowStepsTotal.inc({ type: workflow.type, step: name, status: 'Failed' });
        throw error;
      }
      // The first run hands back what a replay would read, so a non-JSON result shows up at once.
      const stored = value === undefined ? null : (JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
      // Recorded even if the lease was lost meanwhile: the outside effect happened, a new run must not repeat it.
      await db.update(workflowSteps).set({ status: 'Completed', result: stored, completedAt: sql`now()` }).where(where);
      workflowStepsTotal.inc({ type: workflow.type, step: name, status: 'Completed' });
      return (stored ?? undefined) as T;
    },
  };
}
