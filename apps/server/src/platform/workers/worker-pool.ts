import { Worker } from 'node:worker_threads';
import { AppError } from '../errors.ts';

// Untrusted files (images, PDFs) are decoded in worker threads, never on the API's event loop: a file
// that takes too long or too much memory ends its worker, and the caller gets a WorkerFailure.

export interface WorkerPoolOptions {
  // Threads kept for file work; jobs beyond them wait their organization's turn.
  size: number;
  // Memory a job may use: the thread's JS heap (resourceLimits), and the process's resident memory
  // growth while the job runs (decoded pixels live in ArrayBuffers, outside the heap).
  memoryMb: number;
  // A job running longer than this is ended with its thread.
  timeoutMs: number;
}

export type WorkerFailureReason = 'memory' | 'timeout' | 'crash';

export class WorkerFailure extends Error {
  constructor(readonly reason: WorkerFailureReason) {
    super(reason === 'memory' ? 'The file needed more memory than allowed.' : reason === 'timeout' ? 'The file took too long to process.' : 'The file worker stopped.');
    this.name = 'WorkerFailure';
  }
}

export interface WorkerTask {
  // file: URL of a module (TypeScript is fine) and the exported function the worker calls.
  module: string;
  fn: string;
  args: unknown[];
  // Buffers of the arguments the caller no longer needs: moved to the worker instead of copied.
  transfer?: ArrayBuffer[];
  // Whose work this is: waiting jobs are taken in turn across organizations (null: the system's own work,
  // a turn of its own), so one organization's backlog never holds back another's next job.
  organizationId: string | null;
}

export interface WorkerPool {
  run<T>(task: WorkerTask): Promise<T>;
  close(): Promise<void>;
}

interface Job extends WorkerTask {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Reply {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: { name: string; message: string; statusCode?: number };
}

const entry = new URL('./worker-entry.mjs', import.meta.url);
const MB = 1024 * 1024;
const WATCH_INTERVAL_MS = 50;

function revive(error: NonNullable<Reply['error']>): Error {
  if (error.statusCode !== undefined) return new AppError(error.statusCode, error.message);
  return Object.assign(new Error(error.message), { name: error.name });
}

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const idle: Worker[] = [];
  const busy = new Set<Worker>();
  // Waiting jobs per organization (first come first served within one), and the turn each was last served.
  const waiting = new Map<string, Job[]>();
  const lastServed = new Map<string, number>();
  let turn = 0;
  let nextId = 1;
  let closed = false;

  // The next job of the organization served longest ago (never served first; ties: waiting longest).
  const takeNext = (): Job | undefined => {
    let chosen: string | undefined;
    let oldest = Infinity;
    for (const key of waiting.keys()) {
      const served = lastServed.get(key) ?? -1;
      if (served < oldest) [chosen, oldest] = [key, served];
    }
    if (chosen === undefined) return undefined;
    const lane = waiting.get(chosen)!;
    const job = lane.shift()!;
    if (lane.length === 0) waiting.delete(chosen);
    lastServed.set(chosen, ++turn);
    return job;
  };

  const spawn = () =>
    new Worker(entry, {
      // Flags of the parent (its own --import tsx, test runner flags) are not wanted: the entry registers tsx.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, options.memoryMb / 8)) },
    });

  const dispatch = () => {
    while (!closed && waiting.size > 0 && busy.size < options.size) {
      const job = takeNext()!;
      const worker = idle.pop() ?? spawn();
      busy.add(worker);
      // Only a thread with work keeps the process alive.
      worker.ref();
      runOn(worker, job);
    }
  };

  const runOn = (worker: Worker, job: Job) => {
    const id = nextId++;
    const baseline = process.memoryUsage.rss();
    let settled = false;
    const finish = (outcome: { value: unknown } | { error: Error }, reusable: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      busy.delete(worker);
      if (reusable && !closed) {
        worker.unref();
        idle.push(worker);
      } else void worker.terminate();
      if ('error' in outcome) job.reject(outcome.error);
      else job.resolve(outcome.value);
      dispatch();
    };
    const onMessage = (reply: Reply) => {
      if (reply.id !== id) return;
      finish(reply.ok ? { value: reply.result } : { error: revive(reply.error!) }, true);
    };
    const onError = (error: Error & { code?: string }) =>
      finish({ error: new WorkerFailure(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crash') }, false);
    const onExit = () => finish({ error: new WorkerFailure('crash') }, false);
    const timer = setTimeout(() => finish({ error: new WorkerFailure('timeout') }, false), options.timeoutMs);
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - baseline > options.memoryMb * MB) finish({ error: new WorkerFailure('memory') }, false);
    }, WATCH_INTERVAL_MS);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ id, module: job.module, fn: job.fn, args: job.args }, job.transfer ?? []);
  };

  return {
    run<T>(task: WorkerTask) {
      if (closed) return Promise.reject(new WorkerFailure('crash'));
      return new Promise<T>((resolve, reject) => {
        const key = task.organizationId ?? '';
        const lane = waiting.get(key);
        const job = { ...task, resolve, reject };
        if (lane) lane.push(job);
        else waiting.set(key, [job]);
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const job of [...waiting.values()].flat()) job.reject(new WorkerFailure('crash'));
      waiting.clear();
      await Promise.all([...idle.splice(0), ...busy].map((worker) => worker.terminate()));
    },
  };
}

const shared = new Map<string, WorkerPool>();

// One pool per process for given limits, shared by the API (upload checks, page changes) and the
// workflows (renditions, extraction), so file work never uses more threads than configured.
export function sharedWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const key = JSON.stringify([options.size, options.memoryMb, options.timeoutMs]);
  let pool = shared.get(key);
  if (!pool) {
    pool = createWorkerPool(options);
    shared.set(key, pool);
  }
  return pool;
}
