import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { workflowSteps, workflows } from '../../db/schema/workflows.ts';
import { WORKFLOWS_CHANNEL } from './enqueue.ts';

// What a retry request did to one workflow (the bulk retry reports it per id).
export type RetryOutcome = 'Retried' | 'AlreadyRetrying' | 'Running' | 'NothingToRetry' | 'NotFound';

export interface RetryRequest {
  workflowId: string;
  // The workflow types the caller may retry (send or receive); another type is NotFound.
  types: readonly string[];
  // The step to run again, by name; with a key, only that unit of work (one recipient).
  step: string;
  key?: string | undefined;
}

/**
 * Marks a step that is not Completed as Retry and puts its workflow back in the queue for one more run.
 *
 * Exactly once: the workflow row is locked for the change, so two operators pressing Retry together are served one
 * after the other and the second finds the step already marked (AlreadyRetrying); a workflow a live worker holds is
 * refused (Running) rather than queued a second time; workers claim the row with SKIP LOCKED, so one worker runs it,
 * and a worker that dies mid-step loses its lease to the next one, which runs the step again (a step recorded
 * Completed is never repeated). The run is the workflow's last try: if it fails again the workflow is Failed again,
 * not retried on its own for hours.
 */
export async function retryWorkflowStep(db: Database, request: RetryRequest): Promise<RetryOutcome> {
  return db.transaction(async (tx) => {
    const [workflow] = await tx
      .select({ id: workflows.id, type: workflows.type, status: workflows.status, live: sql<boolean>`${workflows.lockedUntil} >= now()` })
      .from(workflows)
      .where(eq(workflows.id, request.workflowId))
      .for('update');
    if (!workflow || !request.types.includes(workflow.type)) return 'NotFound';
    if (workflow.status === 'Running' && workflow.live) return 'Running';

    const named = and(eq(workflowSteps.workflowId, workflow.id), eq(workflowSteps.name, request.step), ...(request.key === undefined ? [] : [eq(workflowSteps.key, request.key)]));
    const targets = await tx
      .select({ key: workflowSteps.key, status: workflowSteps.status })
      .from(workflowSteps)
      .where(and(named, ne(workflowSteps.status, 'Completed')));
    if (targets.length === 0) return 'NothingToRetry';
    if (workflow.status === 'Pending' && targets.every((t) => t.status === 'Retry')) return 'AlreadyRetrying';

    // The unit of work's other unfinished steps run again with it (the recipient's enclosing and following steps).
    const keys = [...new Set(targets.map((t) => t.key))];
    await tx
      .update(workflowSteps)
      .set({ status: 'Retry', error: null })
      .where(and(eq(workflowSteps.workflowId, workflow.id), inArray(workflowSteps.key, keys), ne(workflowSteps.status, 'Completed')));
    await tx
      .update(workflows)
      .set({
        status: 'Pending',
        runAfter: sql`now()`,
        lockedBy: null,
        lockedUntil: null,
        lastError: null,
        completedAt: null,
        attempts: sql`greatest(${workflows.maxAttempts} - 1, 0)`,
        updatedAt: sql`now()`,
      })
      .where(eq(workflows.id, workflow.id));
    await tx.execute(sql.raw(`notify ${WORKFLOWS_CHANNEL}`));
    return 'Retried';
  });
}
