import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { workflowSteps, workflows } from '../../db/schema/workflows.ts';
import { errorText, workflowContext, WorkflowDeferred, type Workflow, type WorkflowHandlers, type WorkflowLogger } from './context.ts';
import { WORKFLOWS_CHANNEL } from './enqueue.ts';
import { startHeartbeat } from './heartbeat.ts';
import { listenForNotifications } from './listen.ts';
import { workflowLogContext } from './log-context.ts';

export interface RunnerOptions {
  db: Database;
  handlers: WorkflowHandlers;
  logger: WorkflowLogger;
  // Unique per process (default host:pid:random); each concurrent slot appends /n.
  workerId?: string;
  // How long a claim lasts without a heartbeat before another worker may take the workflow over.
  leaseMs?: number;
  // The clock handlers see; lease and retry times use the database's now() so processes agree.
  now?: () => Date;
}

// A queue of its own for some workflow types, with its own worker loops: work of one lane never waits behind another's.
export interface WorkflowLane {
  name: string;
  types: readonly string[];
  concurrency: number;
}

export interface StartWorkersOptions extends RunnerOptions {
  // Without lanes: one lane of every handler's type with `concurrency` loops (default 2).
  lanes?: readonly WorkflowLane[];
  concurrency?: number;
  pollIntervalMs?: number;
  // How long stop() waits for running workflows before leaving them to their leases.
  stopTimeoutMs?: number;
}

export interface Workers {
  stop(): Promise<void>;
}

type Resolved = Required<RunnerOptions>;

const MAX_BACKOFF_SECONDS = 300;

// Seconds before a failed workflow is tried again: 2, 4, 8, … capped at 5 minutes.
export const backoffSeconds = (attempts: number): number => Math.min(2 ** attempts, MAX_BACKOFF_SECONDS);

const nowPlus = (ms: number) => sql`now() + make_interval(secs => ${ms / 1000})`;

function resolve(opts: RunnerOptions): Resolved {
  return {
    ...opts,
    workerId: opts.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    leaseMs: opts.leaseMs ?? 60_000,
    now: opts.now ?? (() => new Date()),
  };
}

// Claims the next due workflow of the given types: a Pending one whose time has come, or a Running one whose lease
// expired (its worker died). SKIP LOCKED lets concurrent workers each take a different row. Fairness: the organization
// with the fewest workflows of these types running goes first, then the oldest due; a heavy sender cannot starve the rest.
export async function claimNext(
  db: Database,
  opts: { workerId: string; leaseMs: number; types: readonly string[] },
): Promise<Workflow | undefined> {
  if (opts.types.length === 0) return undefined;
  const types = sql.join(
    opts.types.map((type) => sql`${type}`),
    sql`, `,
  );
  const due = sql`select w.id from workflows w
    left join (
      select organization_id, count(*) as running from workflows
      where status = 'Running' and locked_until >= now() and type in (${types})
      group by organization_id
    ) busy on busy.organization_id is not distinct from w.organization_id
    where w.type in (${types})
      and ((w.status = 'Pending' and w.run_after <= now()) or (w.status = 'Running' and w.locked_until < now()))
    order by coalesce(busy.running, 0), w.run_after
    limit 1
    for update of w skip locked`;
  const [claimed] = await db
    .update(workflows)
    .set({
      status: 'Running',
      lockedBy: opts.workerId,
      lockedUntil: nowPlus(opts.leaseMs),
      attempts: sql`${workflows.attempts} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(workflows.id, sql`(${due})`))
    .returning();
  return claimed;
}

// Extends the lease every third of its length; aborts the run when another worker has taken it.
function keepLease(o: Resolved, workflow: Workflow, controller: AbortController): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => void beat(), o.leaseMs / 3);
  };
  const beat = async () => {
    if (controller.signal.aborted) return;
    try {
      const renewed = await o.db
        .update(workflows)
        .set({ lockedUntil: nowPlus(o.leaseMs), updatedAt: sql`now()` })
        .where(and(eq(workflows.id, workflow.id), eq(workflows.lockedBy, o.workerId), eq(workflows.status, 'Running')))
        .returning({ id: workflows.id });
      if (timer === undefined || controller.signal.aborted) return;
      if (renewed.length === 0) {
        o.logger.warn({ workflowId: workflow.id, workerId: o.workerId }, 'workflow lease lost to another worker');
        controller.abort(new Error('The workflow lease was lost.'));
        return;
      }
    } catch (error) {
      o.logger.warn({ workflowId: workflow.id, error: errorText(error) }, 'could not extend workflow lease');
    }
    if (timer !== undefined) schedule();
  };
  schedule();
  return {
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

// Runs one claimed workflow and records the outcome, unless the run was abandoned (lease lost or the
// worker gave up on stop): then the row belongs to whoever holds the lease next.
async function runClaimed(o: Resolved, workflow: Workflow, running: Set<AbortController>): Promise<void> {
  const controller = new AbortController();
  running.add(controller);
  const lease = keepLease(o, workflow, controller);
  const about = { workflowId: workflow.id, type: workflow.type, attempt: workflow.attempts, workerId: o.workerId };
  let outcome: { ok: true } | { ok: false; error: unknown };
  try {
    const handler = o.handlers.get(workflow.type);
    if (!handler) throw new Error(`No handler for workflow type ${workflow.type}.`);
    // Every log line written during the run carries the workflow's id (loggerOptions' mixin).
    await workflowLogContext.run({ workflowId: workflow.id, workflowType: workflow.type }, () => handler(workflowContext({ db: o.db, workflow, now: o.now, signal: controller.signal })));
    outcome = { ok: true };
  } catch (error) {
    outcome = { ok: false, error };
  } finally {
    lease.stop();
    running.delete(controller);
  }
  if (controller.signal.aborted) {
    o.logger.warn(about, 'workflow run abandoned');
    return;
  }
  const stillMine = and(eq(workflows.id, workflow.id), eq(workflows.lockedBy, o.workerId), eq(workflows.status, 'Running'));
  const released = { lockedBy: null, lockedUntil: null, updatedAt: sql`now()` };
  if (outcome.ok) {
    // A step settled as failed (a recipient refused for good) leaves the workflow Failed, for an operator to retry.
    const [failedStep] = await o.db
      .select({ name: workflowSteps.name, error: workflowSteps.error })
      .from(workflowSteps)
      .where(and(eq(workflowSteps.workflowId, workflow.id), eq(workflowSteps.status, 'Failed'), sql`${workflowSteps.result} ->> 'failed' is not null`))
      .limit(1);
    if (failedStep) {
      const lastError = `${failedStep.name}: ${failedStep.error ?? 'failed'}`.slice(0, 2000);
      await o.db.update(workflows).set({ ...released, status: 'Failed', lastError, completedAt: sql`now()` }).where(stillMine);
      o.logger.warn({ ...about, error: lastError }, 'workflow finished with a failed step');
      return;
    }
    await o.db.update(workflows).set({ ...released, status: 'Completed', completedAt: sql`now()` }).where(stillMine);
    o.logger.info(about, 'workflow completed');
    return;
  }
  if (outcome.error instanceof WorkflowDeferred) {
    await o.db.update(workflows).set({ ...released, status: 'Pending', runAfter: outcome.error.until, attempts: sql`${workflows.attempts} - 1` }).where(stillMine);
    o.logger.info({ ...about, until: outcome.error.until.toISOString() }, 'workflow deferred');
    return;
  }
  const lastError = errorText(outcome.error);
  if (workflow.attempts >= workflow.maxAttempts) {
    await o.db.update(workflows).set({ ...released, status: 'Failed', lastError }).where(stillMine);
    o.logger.error({ ...about, error: lastError }, 'workflow failed');
    return;
  }
  const retryAfter = nowPlus(backoffSeconds(workflow.attempts) * 1000);
  await o.db.update(workflows).set({ ...released, status: 'Pending', lastError, runAfter: retryAfter }).where(stillMine);
  o.logger.warn({ ...about, error: lastError }, 'workflow will be retried');
}

// Claims and runs due workflows one after another until none is due; returns how many ran. For tests
// and scripts: no timers, no notifications.
export async function runOnce(opts: RunnerOptions): Promise<number> {
  const o = resolve(opts);
  const types = [...o.handlers.keys()];
  let ran = 0;
  for (;;) {
    const workflow = await claimNext(o.db, { workerId: o.workerId, leaseMs: o.leaseMs, types });
    if (!workflow) return ran;
    await runClaimed(o, workflow, new Set());
    ran++;
  }
}

// Sleeps until a timeout or a wake-up; a wake-up that came while the sleeper was busy claiming
// (generation moved on) is not lost.
function createWakeup() {
  let generation = 0;
  const sleepers = new Set<() => void>();
  return {
    generation: () => generation,
    wake: () => {
      generation++;
      for (const wakeSleeper of sleepers) wakeSleeper();
    },
    sleep: (ms: number, seenGeneration: number) =>
      new Promise<void>((done) => {
        if (generation !== seenGeneration) return done();
        const timer = setTimeout(finish, ms);
        function finish() {
          clearTimeout(timer);
          sleepers.delete(finish);
          done();
        }
        sleepers.add(finish);
      }),
  };
}

// Each lane's `concurrency` loops, each claiming one workflow of its lane at a time; they wake on NOTIFY workflows
// (enqueue sends it) and otherwise poll.
export async function startWorkers(opts: StartWorkersOptions): Promise<Workers> {
  const o = resolve(opts);
  const { pollIntervalMs = 500, stopTimeoutMs = 30_000 } = opts;
  const handled = [...o.handlers.keys()];
  const lanes = opts.lanes ?? [{ name: 'all', types: handled, concurrency: opts.concurrency ?? 2 }];
  // A type without a lane would never run: a registration mistake, said at start-up.
  const laneless = handled.filter((type) => !lanes.some((lane) => lane.types.includes(type)));
  if (laneless.length) throw new Error(`Workflow types without a lane: ${laneless.join(', ')}.`);
  const running = new Set<AbortController>();
  const wakeup = createWakeup();
  let stopping = false;

  // NOTIFY wakes every loop; the poll is for what no notice announces (retries falling due, a notice missed while the
  // connection was down). The first loop of a lane polls at pollIntervalMs, its siblings ten times slower: the eight
  // loops of the default lanes would otherwise make sixteen claim queries a second on an idle database.
  const loop = async (workerId: string, types: readonly string[], idlePollMs: number) => {
    while (!stopping) {
      const seen = wakeup.generation();
      let ran = false;
      try {
        const workflow = await claimNext(o.db, { workerId, leaseMs: o.leaseMs, types });
        if (workflow) {
          ran = true;
          await runClaimed({ ...o, workerId }, workflow, running);
        }
      } catch (error) {
        o.logger.error({ workerId, error: errorText(error) }, 'workflow worker error');
      }
      if (!ran && !stopping) await wakeup.sleep(idlePollMs, seen);
    }
  };

  const active = lanes.filter((lane) => lane.concurrency > 0 && lane.types.some((type) => o.handlers.has(type)));
  if (active.length === 0) {
    o.logger.info({ workerId: o.workerId }, 'no workflow workers in this process');
    return { stop: async () => undefined };
  }
  const unlisten = await listenForNotifications(o.db, WORKFLOWS_CHANNEL, wakeup.wake, o.logger);
  const heartbeat = await startHeartbeat({ db: o.db, workerId: o.workerId, lanes: active.map((lane) => ({ name: lane.name, concurrency: lane.concurrency })), logger: o.logger });
  const single = opts.lanes === undefined;
  const loops = active.flatMap((lane) => {
    const types = lane.types.filter((type) => o.handlers.has(type));
    return Array.from({ length: lane.concurrency }, (_, i) =>
      loop(single ? `${o.workerId}/${i + 1}` : `${o.workerId}/${lane.name}/${i + 1}`, types, i === 0 ? pollIntervalMs : pollIntervalMs * 10),
    );
  });
  o.logger.info({ workerId: o.workerId, lanes: active.map((lane) => ({ name: lane.name, concurrency: lane.concurrency, types: lane.types })) }, 'workflow workers started');

  let stopped: Promise<void> | undefined;
  const stop = async () => {
    stopping = true;
    wakeup.wake();
    await unlisten().catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<boolean>((done) => (timer = setTimeout(() => done(true), stopTimeoutMs)));
    const finished = Promise.all(loops).then(() => false);
    if (await Promise.race([finished, gaveUp])) {
      o.logger.warn({ workerId: o.workerId, running: running.size }, 'stopped without waiting for running workflows; their leases will expire');
      for (const controller of running) controller.abort(new Error('The worker stopped.'));
    }
    clearTimeout(timer);
    await heartbeat.stop();
  };
  return { stop: () => (stopped ??= stop()) };
}
