import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { workflowSteps, workflows } from '../../db/schema/workflows.ts';
import { createTestDatabase } from '../../test/database.ts';
import { workflowContext, type WorkflowHandler, type WorkflowLogger } from './context.ts';
import { enqueue } from './enqueue.ts';
import { retryWorkflowStep } from './retry.ts';
import { claimNext, runOnce } from './runner.ts';

const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

// An operator's Retry (back-office-b §4): on PostgreSQL (TEST_DATABASE_URL) the concurrent calls below race on separate
// connections; on PGlite they interleave on one.
describe('retrying a workflow step', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());
  const db = () => handle.db;
  const load = async (id: string) => (await db().select().from(workflows).where(eq(workflows.id, id)))[0]!;
  const stepsOf = async (id: string) =>
    (await db().select().from(workflowSteps).where(eq(workflowSteps.workflowId, id)).orderBy(workflowSteps.name)).map((s) => [s.name, s.status, s.attempts]);

  // A recipient refused for good until `reachable`; prepare must never run twice.
  const recipient = () => {
    const state = { reachable: false, prepared: 0, delivered: 0, retriedSeen: [] as boolean[], dying: false };
    const handler: WorkflowHandler = async ({ step }) => {
      await step('prepare', '', async () => ({ n: ++state.prepared }));
      await step('deliver', 'r1@other.example.com', async ({ retried }) => {
        state.retriedSeen.push(retried);
        // The worker's process dies here: the step never finishes and nothing is written.
        if (state.dying) await new Promise(() => undefined);
        if (!state.reachable) return { failed: 'The recipient’s server refused the message.' };
        return { delivered: ++state.delivered };
      });
    };
    return { state, handler };
  };

  it('a refused recipient leaves the workflow Failed; two operators pressing Retry together make it run exactly once more', async () => {
    const { state, handler } = recipient();
    const handlers = new Map([['retry-race', handler]]);
    const id = await enqueue(db(), { type: 'retry-race', payload: {} });
    expect(await runOnce({ db: db(), handlers, logger: quiet })).toBe(1);
    expect(await load(id)).toMatchObject({ status: 'Failed', lastError: 'deliver: The recipient’s server refused the message.', lockedBy: null });
    expect(await stepsOf(id)).toEqual([
      ['deliver', 'Failed', 1],
      ['prepare', 'Completed', 1],
    ]);
    // A settled failure is not repeated by a plain replay of the workflow.
    expect(await runOnce({ db: db(), handlers, logger: quiet })).toBe(0);

    state.reachable = true;
    const request = { workflowId: id, types: ['retry-race'], step: 'deliver' };
    const outcomes = await Promise.all([retryWorkflowStep(db(), request), retryWorkflowStep(db(), request)]);
    expect(outcomes.sort()).toEqual(['AlreadyRetrying', 'Retried']);
    expect(await stepsOf(id)).toEqual([
      ['deliver', 'Retry', 1],
      ['prepare', 'Completed', 1],
    ]);
    expect(await load(id)).toMatchObject({ status: 'Pending', lastError: null });

    // Two workers look at once: one of them runs it.
    const ran = await Promise.all([
      runOnce({ db: db(), handlers, workerId: 'worker-a', logger: quiet }),
      runOnce({ db: db(), handlers, workerId: 'worker-b', logger: quiet }),
    ]);
    expect(ran[0] + ran[1]).toBe(1);
    expect(state).toMatchObject({ prepared: 1, delivered: 1, retriedSeen: [false, true] });
    expect(await stepsOf(id)).toEqual([
      ['deliver', 'Completed', 2],
      ['prepare', 'Completed', 1],
    ]);
    expect(await load(id)).toMatchObject({ status: 'Completed', lastError: null });

    // Nothing is left to retry, and a later press changes nothing.
    expect(await retryWorkflowStep(db(), request)).toBe('NothingToRetry');
    expect(await retryWorkflowStep(db(), { ...request, step: 'prepare' })).toBe('NothingToRetry');
    expect(await retryWorkflowStep(db(), { ...request, types: ['another-type'] })).toBe('NotFound');
    expect(await runOnce({ db: db(), handlers, logger: quiet })).toBe(0);
    expect(state.delivered).toBe(1);
  });

  it('a retry that fails again leaves the workflow Failed at once, not retried for hours', async () => {
    const { state, handler } = recipient();
    const handlers = new Map([['retry-again', handler]]);
    let throwing = false;
    const flaky: WorkflowHandler = async (ctx) => {
      if (throwing) await ctx.step('deliver', 'r1@other.example.com', () => Promise.reject(new Error('connection reset')));
      return handler(ctx);
    };
    const id = await enqueue(db(), { type: 'retry-again', payload: {} });
    await runOnce({ db: db(), handlers, logger: quiet });
    throwing = true;
    expect(await retryWorkflowStep(db(), { workflowId: id, types: ['retry-again'], step: 'deliver' })).toBe('Retried');
    expect(await runOnce({ db: db(), handlers: new Map([['retry-again', flaky]]), logger: quiet })).toBe(1);
    expect(await load(id)).toMatchObject({ status: 'Failed', lastError: 'connection reset' });
    expect(await stepsOf(id)).toEqual([
      ['deliver', 'Failed', 2],
      ['prepare', 'Completed', 1],
    ]);
    expect(state.delivered).toBe(0);
  });

  it('a worker that dies during the retried step: refused while its lease lasts, then another worker runs the step once', async () => {
    const { state, handler } = recipient();
    const handlers = new Map([['retry-death', handler]]);
    const id = await enqueue(db(), { type: 'retry-death', payload: {} });
    await runOnce({ db: db(), handlers, logger: quiet });
    expect(await load(id)).toMatchObject({ status: 'Failed' });

    state.reachable = true;
    state.dying = true;
    const request = { workflowId: id, types: ['retry-death'], step: 'deliver' };
    expect(await retryWorkflowStep(db(), request)).toBe('Retried');

    // The first worker claims it (the runner's lease), starts the step and dies without a word.
    const claimed = await claimNext(db(), { workerId: 'worker-that-dies', leaseMs: 60_000, types: ['retry-death'] });
    expect(claimed).toMatchObject({ id, status: 'Running', lockedBy: 'worker-that-dies' });
    void handler(workflowContext({ db: db(), workflow: claimed!, now: () => new Date(), signal: new AbortController().signal }));
    await vi.waitFor(async () => expect(await stepsOf(id)).toContainEqual(['deliver', 'Running', 2]));

    // While the lease lasts: another Retry is refused, and no other worker takes it.
    expect(await retryWorkflowStep(db(), request)).toBe('Running');
    expect(await runOnce({ db: db(), handlers, workerId: 'worker-2', logger: quiet })).toBe(0);

    // The lease runs out (its worker stopped renewing it): the next worker takes the workflow over.
    state.dying = false;
    await db().update(workflows).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(workflows.id, id));
    expect(await runOnce({ db: db(), handlers, workerId: 'worker-2', logger: quiet })).toBe(1);
    // The takeover still knows the step was retried (it may reopen what the first failure closed).
    expect(state).toMatchObject({ prepared: 1, delivered: 1, retriedSeen: [false, true, true] });
    expect(await stepsOf(id)).toEqual([
      ['deliver', 'Completed', 3],
      ['prepare', 'Completed', 1],
    ]);
    expect(await load(id)).toMatchObject({ status: 'Completed', lockedBy: null });
    expect(await runOnce({ db: db(), handlers, workerId: 'worker-3', logger: quiet })).toBe(0);
    expect(state.delivered).toBe(1);
  });

  it('a worker that died (lease expired) can be retried by an operator without waiting for the takeover', async () => {
    const { state, handler } = recipient();
    const handlers = new Map([['retry-expired', handler]]);
    const id = await enqueue(db(), { type: 'retry-expired', payload: {} });
    state.dying = true;
    const claimed = await claimNext(db(), { workerId: 'worker-that-dies', leaseMs: 60_000, types: ['retry-expired'] });
    void handler(workflowContext({ db: db(), workflow: claimed!, now: () => new Date(), signal: new AbortController().signal }));
    await vi.waitFor(async () => expect(await stepsOf(id)).toContainEqual(['deliver', 'Running', 1]));
    await db().update(workflows).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(workflows.id, id));

    state.dying = false;
    state.reachable = true;
    expect(await retryWorkflowStep(db(), { workflowId: id, types: ['retry-expired'], step: 'deliver' })).toBe('Retried');
    expect(await runOnce({ db: db(), handlers, logger: quiet })).toBe(1);
    expect(state.delivered).toBe(1);
    expect(await load(id)).toMatchObject({ status: 'Completed' });
  });
});
