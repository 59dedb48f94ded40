import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { workflowSteps, workflows } from '../../db/schema/workflows.ts';
import { createTestDatabase } from '../../test/database.ts';
import { heldWorkflow } from '../../test/held-workflow.ts';
import { workflowContext, type WorkflowContext, type WorkflowHandler, type WorkflowLogger } from './context.ts';
import { enqueue } from './enqueue.ts';
import { claimNext, runOnce, startWorkers } from './runner.ts';

const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('durable workflows', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  const db = () => handle.db;
  const load = async (id: string) => (await db().select().from(workflows).where(eq(workflows.id, id)))[0]!;
  const stepsOf = (id: string) => db().select().from(workflowSteps).where(eq(workflowSteps.workflowId, id)).orderBy(workflowSteps.name);
  // Moves a retry's time to now, as if its backoff had passed.
  const makeDue = (id: string) => db().update(workflows).set({ runAfter: sql`now()` }).where(eq(workflows.id, id));
  const secondsUntilRetry = async (id: string) => {
    const [row] = await db()
      .select({ seconds: sql<number>`extract(epoch from ${workflows.runAfter} - now())::float` })
      .from(workflows)
      .where(eq(workflows.id, id));
    return row!.seconds;
  };

  it('enqueues inside the caller’s transaction: a rollback leaves nothing behind', async () => {
    const rollback = new Error('the message could not be saved');
    await expect(
      db().transaction(async (tx) => {
        await enqueue(tx, { type: 'send-test', correlationId: 'message-rolled-back', payload: { messageId: 'rolled-back' } });
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await db().select().from(workflows).where(eq(workflows.correlationId, 'message-rolled-back'))).toEqual([]);

    const id = await db().transaction((tx) => enqueue(tx, { type: 'send-test', correlationId: 'message-1', payload: { messageId: 'm1' } }));
    expect(await load(id)).toMatchObject({ type: 'send-test', status: 'Pending', attempts: 0, payload: { messageId: 'm1' } });
    await db().delete(workflows).where(eq(workflows.id, id));
  });

  it('retries from the failed step: completed steps are not run again', async () => {
    const runs = { A: 0, B: 0, C: 0 };
    const handler: WorkflowHandler = async ({ step }) => {
      const a = await step('A', '', async () => ({ n: ++runs.A }));
      await step('B', 'recipient-1', async () => {
        runs.B++;
      });
      await step('C', '', async () => {
        if (++runs.C === 1) throw new Error('fax line busy');
        return { sentWith: a.n };
      });
    };
    const handlers = new Map([['retry-test', handler]]);
    const id = await enqueue(db(), { type: 'retry-test', payload: {} });

    expect(await runOnce({ db: db(), handlers, logger: quiet })).toBe(1);
    expect(await load(id)).toMatchObject({ status: 'Pending', attempts: 1, lastError: 'fax line busy', lockedBy: null });
    const retryIn = await secondsUntilRetry(id);
    expect(retryIn).toBeGreaterThan(1);
    expect(retryIn).toBeLessThanOrEqual(2);
    expect((await stepsOf(id)).map((s) => [s.name, s.status, s.error])).toEqual([
      ['A', 'Completed', null],
      ['B', 'Completed', null],
      ['C', 'Failed', 'fax line busy'],
    ]);
    expect(await runOnce({ db: db(), handlers, logger: quiet })).toBe(0);

    await makeDue(id);
    expect(await runOnce({ db: db(), handlers, logger: quiet })).toBe(1);
    expect(runs).toEqual({ A: 1, B: 1, C: 2 });
    const done = await load(id);
    expect(done).toMatchObject({ status: 'Completed', attempts: 2, lockedBy: null, lockedUntil: null });
    expect(done.completedAt).toBeInstanceOf(Date);
    const steps = await stepsOf(id);
    expect(steps.map((s) => [s.name, s.status, s.attempts, s.result])).toEqual([
      ['A', 'Completed', 1, { n: 1 }],
      ['B', 'Completed', 1, null],
      ['C', 'Completed', 2, { sentWith: 1 }],
    ]);
  });

  it('takes over a workflow whose worker died mid-step once its lease expires', async () => {
    const runs = { A: 0, B: 0, C: [] as number[] };
    let dying = true;
    const handler: WorkflowHandler = async ({ step }) => {
      await step('A', '', async () => ({ n: ++runs.A }));
      await step('B', '', async () => ({ n: ++runs.B }));
      await step('C', '', async ({ attempt }) => {
        runs.C.push(attempt);
        // The first worker's process dies here: the step never finishes and nothing is written.
        if (dying) await new Promise(() => undefined);
        return { delivered: true };
      });
    };
    const handlers = new Map([['takeover-test', handler]]);
    const id = await enqueue(db(), { type: 'takeover-test', payload: {} });

    const claimed = await claimNext(db(), { workerId: 'worker-that-dies', leaseMs: 60_000, types: ['takeover-test'] });
    expect(claimed).toMatchObject({ id, status: 'Running', attempts: 1, lockedBy: 'worker-that-dies' });
    void handler(workflowContext({ db: db(), workflow: claimed!, now: () => new Date(), signal: new AbortController().signal }));
    await vi.waitFor(() => expect(runs.C).toEqual([1]));

    // While the lease runs, nobody else may touch it.
    expect(await runOnce({ db: db(), handlers, workerId: 'worker-2', logger: quiet })).toBe(0);

    dying = false;
    await db().update(workflows).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(workflows.id, id));
    expect(await runOnce({ db: db(), handlers, workerId: 'worker-2', logger: quiet })).toBe(1);

    expect(runs).toEqual({ A: 1, B: 1, C: [1, 2] });
    expect(await load(id)).toMatchObject({ status: 'Completed', attempts: 2 });
    expect((await stepsOf(id)).map((s) => [s.name, s.status, s.attempts])).toEqual([
      ['A', 'Completed', 1],
      ['B', 'Completed', 1],
      ['C', 'Completed', 2],
    ]);
  });

  it('backs off between attempts and fails for good after maxAttempts, keeping the last error', async () => {
    let calls = 0;
    const handlers = new Map<string, WorkflowHandler>([
      [
        'failing-test',
        async ({ step }) => {
          await step('send', '', async () => {
            throw new Error(`provider refused (${++calls})`);
          });
        },
      ],
    ]);
    const id = await enqueue(db(), { type: 'failing-test', payload: {}, maxAttempts: 3 });

    await runOnce({ db: db(), handlers, logger: quiet });
    expect(await load(id)).toMatchObject({ status: 'Pending', attempts: 1, lastError: 'provider refused (1)' });
    expect(await secondsUntilRetry(id)).toBeGreaterThan(1);

    await makeDue(id);
    await runOnce({ db: db(), handlers, logger: quiet });
    expect(await load(id)).toMatchObject({ status: 'Pending', attempts: 2, lastError: 'provider refused (2)' });
    const secondWait = await secondsUntilRetry(id);
    expect(secondWait).toBeGreaterThan(3);
    expect(secondWait).toBeLessThanOrEqual(4);

    await makeDue(id);
    await runOnce({ db: db(), handlers, logger: quiet });
    const failed = await load(id);
    expect(failed).toMatchObject({ status: 'Failed', attempts: 3, lastError: 'provider refused (3)', lockedBy: null });
    expect(failed.completedAt).toBeNull();
    const [step] = await stepsOf(id);
    expect(step).toMatchObject({ status: 'Failed', attempts: 3, error: 'provider refused (3)' });
    expect(step!.error).not.toMatch(/\n\s+at /);

    await makeDue(id);
    expect(await runOnce({ db: db(), handlers, logger: quiet })).toBe(0);
    expect(calls).toBe(3);
  });

  it('runs each of many workflows exactly once with two workers on the same queue', async () => {
    const ranBy = new Map<string, string[]>();
    const handler: WorkflowHandler = async ({ workflow, step }) => {
      await step('deliver', '', async () => {
        ranBy.set(workflow.id, [...(ranBy.get(workflow.id) ?? []), workflow.lockedBy!]);
        await sleep(10);
      });
    };
    const handlers = new Map([['concurrent-test', handler]]);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await enqueue(db(), { type: 'concurrent-test', payload: { i } }));

    const options = { db: db(), handlers, concurrency: 1, pollIntervalMs: 20, logger: quiet };
    const first = await startWorkers({ ...options, workerId: 'first' });
    const second = await startWorkers({ ...options, workerId: 'second' });
    try {
      await vi.waitFor(
        async () => {
          const rows = await db().select().from(workflows).where(eq(workflows.type, 'concurrent-test'));
          expect(rows.filter((r) => r.status === 'Completed')).toHaveLength(12);
        },
        { timeout: 10_000, interval: 50 },
      );
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
    expect([...ranBy.keys()].sort()).toEqual([...ids].sort());
    for (const workers of ranBy.values()) expect(workers).toHaveLength(1);
    expect(new Set([...ranBy.values()].flat().map((w) => w.split('/')[0]))).toEqual(new Set(['first', 'second']));
    const rows = await db().select().from(workflows).where(eq(workflows.type, 'concurrent-test'));
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
  });

  it('wakes on NOTIFY instead of waiting for the next poll', async () => {
    const seen: string[] = [];
    const handlers = new Map<string, WorkflowHandler>([['notify-test', async ({ workflow }) => void seen.push(workflow.id)]]);
    const workers = await startWorkers({ db: db(), handlers, pollIntervalMs: 60_000, logger: quiet });
    try {
      await sleep(50); // the loops have polled once and gone to sleep
      const id = await db().transaction((tx) => enqueue(tx, { type: 'notify-test', payload: {} }));
      await vi.waitFor(() => expect(seen).toEqual([id]), { timeout: 3_000, interval: 20 });
    } finally {
      await workers.stop();
    }
  });

  it('keeps the lease of a long-running workflow alive with heartbeats', async () => {
    const long = heldWorkflow();
    const handlers = new Map<string, WorkflowHandler>([['long-test', long.handler]]);
    const id = await enqueue(db(), { type: 'long-test', payload: {} });
    const workers = await startWorkers({ db: db(), handlers, leaseMs: 600, pollIntervalMs: 20, logger: quiet });
    try {
      await vi.waitFor(() => expect(long.runs).toBe(1));
      await sleep(1500); // two and a half leases
      expect(await runOnce({ db: db(), handlers, workerId: 'thief', logger: quiet })).toBe(0);
      long.release();
      await vi.waitFor(async () => expect((await load(id)).status).toBe('Completed'));
    } finally {
      long.release();
      await workers.stop();
    }
    expect(long.runs).toBe(1);
    expect((await load(id)).attempts).toBe(1);
  });

  it('stop() lets the running workflow finish and claims nothing more', async () => {
    const slow = heldWorkflow();
    const handlers = new Map<string, WorkflowHandler>([['stop-test', slow.handler]]);
    const first = await enqueue(db(), { type: 'stop-test', payload: {} });
    const workers = await startWorkers({ db: db(), handlers, concurrency: 1, pollIntervalMs: 20, logger: quiet });
    await vi.waitFor(() => expect(slow.runs).toBe(1));
    const second = await enqueue(db(), { type: 'stop-test', payload: {} });

    let stopped = false;
    const stopping = workers.stop().then(() => (stopped = true));
    await sleep(100);
    expect(stopped).toBe(false);
    slow.release();
    await stopping;

    expect(slow.runs).toBe(1);
    expect((await load(first)).status).toBe('Completed');
    expect((await load(second)).status).toBe('Pending');
  });

  it('stop() gives up after its timeout and aborts the handler’s signal, leaving the row to its lease', async () => {
    let signal: AbortSignal | undefined;
    const handlers = new Map<string, WorkflowHandler>([
      [
        'stuck-test',
        async (ctx: WorkflowContext) => {
          signal = ctx.signal;
          await new Promise((done) => ctx.signal.addEventListener('abort', done));
        },
      ],
    ]);
    const id = await enqueue(db(), { type: 'stuck-test', payload: {} });
    const workers = await startWorkers({ db: db(), handlers, pollIntervalMs: 20, stopTimeoutMs: 100, logger: quiet });
    await vi.waitFor(() => expect(signal).toBeDefined());
    await workers.stop();
    expect(signal!.aborted).toBe(true);
    await sleep(50);
    expect(await load(id)).toMatchObject({ status: 'Running', attempts: 1 });
  });
});
