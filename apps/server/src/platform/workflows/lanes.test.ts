import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { workflows } from '../../db/schema/workflows.ts';
import { testConfig } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { heldWorkflow } from '../../test/held-workflow.ts';
import { WorkflowDeferred, type WorkflowHandler, type WorkflowLogger } from './context.ts';
import { enqueue } from './enqueue.ts';
import { workflowHandlers, workflowLanes } from './registry.ts';
import { claimNext, runOnce, startWorkers } from './runner.ts';

const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

// Issue 26: every kind of background work has its own queue and concurrency limit, and a heavy sender cannot starve
// the others (DESIGN.md).
describe('workflow lanes and per-organization fairness', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());
  const db = () => handle.db;
  const load = async (id: string) => (await db().select().from(workflows).where(eq(workflows.id, id)))[0]!;

  it('runs a lane’s work while every loop of another lane is stuck', async () => {
    const slow = heldWorkflow();
    const handlers = new Map<string, WorkflowHandler>([
      ['lane-slow', slow.handler],
      ['lane-fast', async () => undefined],
    ]);
    for (let i = 0; i < 5; i++) await enqueue(db(), { type: 'lane-slow', payload: { i } });
    const workers = await startWorkers({
      db: db(),
      handlers,
      lanes: [
        { name: 'slow', types: ['lane-slow'], concurrency: 2 },
        { name: 'fast', types: ['lane-fast'], concurrency: 1 },
      ],
      pollIntervalMs: 20,
      logger: quiet,
    });
    try {
      await vi.waitFor(() => expect(slow.runs).toBe(2));
      const fast = await enqueue(db(), { type: 'lane-fast', payload: {} });
      await vi.waitFor(async () => expect((await load(fast)).status).toBe('Completed'), { timeout: 5_000, interval: 20 });
      // The slow lane keeps to its own limit: two at a time, the rest wait.
      expect(slow.runs).toBe(2);
      const rows = await db().select().from(workflows).where(eq(workflows.type, 'lane-slow'));
      expect(rows.filter((w) => w.status === 'Running')).toHaveLength(2);
      expect(rows.filter((w) => w.status === 'Pending')).toHaveLength(3);
    } finally {
      slow.release();
      await workers.stop();
    }
  });

  it('refuses to start with a workflow type that belongs to no lane', async () => {
    const handlers = new Map<string, WorkflowHandler>([['lane-orphan', async () => undefined]]);
    await expect(startWorkers({ db: db(), handlers, lanes: [{ name: 'other', types: ['lane-other'], concurrency: 1 }], logger: quiet })).rejects.toThrow(
      'Workflow types without a lane: lane-orphan.',
    );
  });

  it('gives every registered workflow type a lane, and WORKER_CONCURRENCY=0 none in the API process only', () => {
    const config = testConfig();
    const types = [...workflowHandlers({ config, db: db(), now: () => new Date() }).keys()].sort();
    const lanes = workflowLanes(config);
    expect(lanes.flatMap((lane) => lane.types).sort()).toEqual(types);
    expect(Object.fromEntries(lanes.map((lane) => [lane.name, lane.concurrency]))).toEqual({ delivery: 2, webhooks: 2, files: 1, mail: 1, background: 1 });

    const apiOnly = testConfig({ WORKER_CONCURRENCY: '0', WORKER_CONCURRENCY_WEBHOOKS: '4' });
    expect(workflowLanes(apiOnly).every((lane) => lane.concurrency === 0)).toBe(true);
    expect(Object.fromEntries(workflowLanes(apiOnly, { workerProcess: true }).map((lane) => [lane.name, lane.concurrency]))).toEqual({ delivery: 1, webhooks: 4, files: 1, mail: 1, background: 1 });
  });

  it('claims for the organization with the fewest running workflows of the lane first, then the oldest due', async () => {
    const heavy = randomUUID();
    const light = randomUUID();
    const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000);
    const heavyIds: string[] = [];
    for (let i = 0; i < 4; i++) heavyIds.push(await enqueue(db(), { type: 'fair-test', organizationId: heavy, payload: {}, runAfter: at(60 - i) }));
    const lightId = await enqueue(db(), { type: 'fair-test', organizationId: light, payload: {}, runAfter: at(1) });
    const claim = () => claimNext(db(), { workerId: 'fair', leaseMs: 60_000, types: ['fair-test'] });

    // Nobody runs anything: the oldest due goes first.
    expect((await claim())?.id).toBe(heavyIds[0]);
    // The heavy sender has one running: the light one's newer workflow goes before the heavy one's older ones.
    expect((await claim())?.id).toBe(lightId);
    expect((await claim())?.id).toBe(heavyIds[1]);
    await db().delete(workflows).where(inArray(workflows.id, [...heavyIds, lightId]));
  });

  it('puts a deferred workflow back for later without spending a try', async () => {
    const until = new Date(Date.now() + 60_000);
    const handlers = new Map<string, WorkflowHandler>([
      [
        'defer-test',
        async () => {
          throw new WorkflowDeferred(until);
        },
      ],
    ]);
    const id = await enqueue(db(), { type: 'defer-test', payload: {}, maxAttempts: 1 });
    expect(await runOnce({ db: db(), handlers, logger: quiet })).toBe(1);
    const row = await load(id);
    expect(row).toMatchObject({ status: 'Pending', attempts: 0, lastError: null, lockedBy: null });
    expect(row.runAfter.getTime()).toBe(until.getTime());
    // Deferred again and again, it never fails for want of tries.
    for (let i = 0; i < 3; i++) {
      await db().update(workflows).set({ runAfter: sql`now()` }).where(eq(workflows.id, id));
      await runOnce({ db: db(), handlers, logger: quiet });
    }
    expect(await load(id)).toMatchObject({ status: 'Pending', attempts: 0 });
  });
});
