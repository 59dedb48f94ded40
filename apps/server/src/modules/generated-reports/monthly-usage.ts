import type { Database } from '../../db/client.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { generatedReportRuns } from '../../db/schema/reports.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { brandNameOf } from '../../platform/brand.ts';
import { csvFile } from '../../platform/csv.ts';
import type { WorkflowHandler } from '../../platform/workflows/context.ts';
import { enqueue } from '../../platform/workflows/enqueue.ts';
import * as q from './queries.ts';

export const MONTHLY_USAGE_WORKFLOW = 'monthly-usage-report';
export const MONTHLY_USAGE_KIND = 'MonthlyUsage';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The UTC month before `now`, as YYYY-MM. */
export function previousMonth(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export const monthRange = (period: string) => {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(year, month - 1, 1)), to: new Date(Date.UTC(year, month, 1)) };
};

const monthName = (period: string) => `${MONTHS[Number(period.slice(5, 7)) - 1]} ${period.slice(0, 4)}`;

// The schedule's tick: once the month has ended, its usage reports are started once (the run row is the guard, in
// the workflow's transaction, so a second process or a restart starts nothing). Returns whether it started them.
export async function startDueMonthlyUsage(db: Database, now: Date): Promise<boolean> {
  const period = previousMonth(now);
  return db.transaction(async (tx) => {
    const [run] = await tx.insert(generatedReportRuns).values({ kind: MONTHLY_USAGE_KIND, period, createdAt: now }).onConflictDoNothing().returning({ period: generatedReportRuns.period });
    if (!run) return false;
    await enqueue(tx, { type: MONTHLY_USAGE_WORKFLOW, correlationId: `${MONTHLY_USAGE_KIND}:${period}`, payload: { period } });
    return true;
  });
}

// One step per organization that exists when the month's reports are made: its usage as a CSV in the blob store and a row of
// generated_reports. A step done is never redone; a step cut short finds its report row and makes no second one.
export function monthlyUsageWorkflow(deps: { blobs: BlobStore }): WorkflowHandler {
  return async (ctx) => {
    const period = String(ctx.workflow.payload.period);
    const range = monthRange(period);
    const orgs = await ctx.db
      .select({ id: organizations.id, orgId: organizations.orgId, name: organizations.name, subdomain: organizations.subdomain })
      .from(organizations)
      .orderBy(organizations.orgId);
    const brand = await brandNameOf(ctx.db, null);
    for (const org of orgs) {
      await ctx.step('organization', org.id, async () => {
        if (await q.findOne(ctx.db, MONTHLY_USAGE_KIND, org.id, period)) return;
        const usage = await q.monthlyUsage(ctx.db, org.id, range);
        const body = csvFile(
          ['Organization Id', 'Organization', 'Month', 'Measure', 'Channel', 'Value'],
          usage.map((u) => [org.orgId, org.name, period, u.measure, u.channel, u.value]),
        );
        await ctx.db.transaction(async (tx) => {
          const blob = await deps.blobs.put(Buffer.from(body, 'utf8'), { organizationId: org.id }, tx);
          await q.insert(tx, {
            kind: MONTHLY_USAGE_KIND,
            name: `Monthly usage: ${org.name}, ${monthName(period)}`,
            fileName: `${brand.replace(/[^\w-]/g, '')}_MonthlyUsage_${org.subdomain}_${period}.csv`,
            organizationId: org.id,
            period,
            blobId: blob.id,
            sizeInBytes: blob.sizeInBytes,
            createDate: ctx.now(),
          });
        });
        return { organizationId: org.id };
      });
    }
  };
}

// Every hour in every process (the run row decides who starts a month): the monthly reports of the month just ended.
export function startGeneratedReportsSchedule(opts: { db: Database; now: () => Date; logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void } }) {
  const tick = () =>
    startDueMonthlyUsage(opts.db, opts.now())
      .then((started) => started && opts.logger.info({ period: previousMonth(opts.now()) }, 'monthly usage reports started'))
      .catch((error: unknown) => opts.logger.warn({ error: (error as Error).message }, 'generated reports tick failed; will try again'));
  void tick();
  const timer = setInterval(() => void tick(), 60 * 60_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

