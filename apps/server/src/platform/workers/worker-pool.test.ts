import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { createWorkerPool, WorkerFailure } from './worker-pool.ts';

const tasks = new URL('./pool-test-tasks.ts', import.meta.url).href;
const LAKESIDE = 'a0000000-0000-4000-8000-00000000000a';
const RIVERVIEW = 'b0000000-0000-4000-8000-00000000000b';
const HILLCREST = 'c0000000-0000-4000-8000-00000000000c';

describe('file worker pool', () => {
  const pool = createWorkerPool({ size: 1, memoryMb: 64, timeoutMs: 8_000 });
  afterAll(() => pool.close());

  it('runs a TypeScript function in a worker and hands its bytes back', async () => {
    expect(await pool.run({ module: tasks, fn: 'double', args: [new Uint8Array([1, 2, 3])], organizationId: LAKESIDE })).toEqual(new Uint8Array([2, 4, 6]));
  });

  it('keeps the status code of a refusal made in the worker', async () => {
    const refusal = await pool.run({ module: tasks, fn: 'refuse', args: ['No.'], organizationId: LAKESIDE }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ statusCode: 400, message: 'No.' });
  });

  it('ends a job that never finishes, and the next job gets a fresh worker', async () => {
    const stuck = await pool.run({ module: tasks, fn: 'spinForever', args: [], organizationId: LAKESIDE }).catch((error: unknown) => error);
    expect(stuck).toBeInstanceOf(WorkerFailure);
    expect(stuck).toMatchObject({ reason: 'timeout' });
    expect(await pool.run({ module: tasks, fn: 'double', args: [new Uint8Array([4])], organizationId: LAKESIDE })).toEqual(new Uint8Array([8]));
  });

  it('ends a job that outgrows its memory, and the next job gets a fresh worker', async () => {
    const greedy = await pool.run({ module: tasks, fn: 'fillHeap', args: [], organizationId: LAKESIDE }).catch((error: unknown) => error);
    expect(greedy).toBeInstanceOf(WorkerFailure);
    expect(greedy).toMatchObject({ reason: 'memory' });
    expect(await pool.run({ module: tasks, fn: 'double', args: [new Uint8Array([5])], organizationId: LAKESIDE })).toEqual(new Uint8Array([10]));
  });
});

describe('file worker pool: organizations take turns', () => {
  const pool = createWorkerPool({ size: 1, memoryMb: 64, timeoutMs: 30_000 });
  afterAll(() => pool.close());

  // Each job answers its label; the order they finish in is the order the single thread ran them.
  const finished: string[] = [];
  const queue = (organizationId: string | null, label: string) =>
    pool.run<string>({ module: tasks, fn: 'slow', args: [label, 150], organizationId }).then((done) => {
      finished.push(done);
      return done;
    });

  it("runs another organization's job right after the current one, however many one organization queued", async () => {
    finished.length = 0;
    const lakeside = ['L1', 'L2', 'L3', 'L4'].map((label) => queue(LAKESIDE, label));
    const riverview = ['R1', 'R2'].map((label) => queue(RIVERVIEW, label));
    await Promise.all([...lakeside, ...riverview]);
    expect(finished).toEqual(['L1', 'R1', 'L2', 'R2', 'L3', 'L4']);
  });

  it('serves an organization arriving during a backlog before the organization served last', async () => {
    finished.length = 0;
    const lakeside = ['L1', 'L2', 'L3', 'L4'].map((label) => queue(LAKESIDE, label));
    // The system's own work takes a turn like an organization's.
    const system = queue(null, 'S1');
    // Queued once L2 holds the thread: Hillcrest has waited for nobody, Lakeside was served last.
    const hillcrest = system.then(() => queue(HILLCREST, 'H1'));
    await Promise.all([...lakeside, hillcrest, system]);
    expect(finished).toEqual(['L1', 'S1', 'L2', 'H1', 'L3', 'L4']);
  });

  it('refuses the jobs still waiting when the pool closes', async () => {
    const running = queue(LAKESIDE, 'L1');
    const waiting = [queue(RIVERVIEW, 'R1'), queue(LAKESIDE, 'L2')].map((job) => job.catch((error: unknown) => error));
    await pool.close();
    for (const refused of await Promise.all(waiting)) expect(refused).toBeInstanceOf(WorkerFailure);
    await running.catch(() => undefined);
  });
});

