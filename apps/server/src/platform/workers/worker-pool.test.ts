import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { createWorkerPool, WorkerFailure } from './worker-pool.ts';

const tasks = new URL('./pool-test-tasks.ts', import.meta.url).href;

describe('file worker pool', () => {
  const pool = createWorkerPool({ size: 1, memoryMb: 64, timeoutMs: 8_000 });
  afterAll(() => pool.close());

  it('runs a TypeScript function in a worker and hands its bytes back', async () => {
    expect(await pool.run({ module: tasks, fn: 'double', args: [new Uint8Array([1, 2, 3])] })).toEqual(new Uint8Array([2, 4, 6]));
  });

  it('keeps the status code of a refusal made in the worker', async () => {
    const refusal = await pool.run({ module: tasks, fn: 'refuse', args: ['No.'] }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ statusCode: 400, message: 'No.' });
  });

  it('ends a job that never finishes, and the next job gets a fresh worker', async () => {
    const stuck = await pool.run({ module: tasks, fn: 'spinForever', args: [] }).catch((error: unknown) => error);
    expect(stuck).toBeInstanceOf(WorkerFailure);
    expect(stuck).toMatchObject({ reason: 'timeout' });
    expect(await pool.run({ module: tasks, fn: 'double', args: [new Uint8Array([4])] })).toEqual(new Uint8Array([8]));
  });

  it('ends a job that outgrows its memory, and the next job gets a fresh worker', async () => {
    const greedy = await pool.run({ module: tasks, fn: 'fillHeap', args: [] }).catch((error: unknown) => error);
    expect(greedy).toBeInstanceOf(WorkerFailure);
    expect(greedy).toMatchObject({ reason: 'memory' });
    expect(await pool.run({ module: tasks, fn: 'double', args: [new Uint8Array([5])] })).toEqual(new Uint8Array([10]));
  });
});
