import type { DirectoryDownloadMode, DirectoryDownloadType } from '@clinicrelay/contracts/directory-downloads.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import type { WorkflowContext, WorkflowHandler } from '../../platform/workflows/context.ts';
import { errorText } from '../../platform/workflows/context.ts';
import { headerLine, rowLine } from './file.ts';
import * as q from './queries.ts';

export const DIRECTORY_DOWNLOAD_WORKFLOW = 'directory-download';
// Rows per part: one part (a few MB of CSV) is all a worker holds, whatever the directory's size.
export const DIRECTORY_DOWNLOAD_BATCH = 5000;

const ENTITY_TYPES: Record<DirectoryDownloadType, readonly (1 | 2)[]> = { Providers: [1], Organizations: [2], All: [1, 2] };

interface Plan extends Record<string, unknown> {
  since: string | null;
  cutoff: string;
  // Incremental asked for, but no earlier download of the type completed: the file is a full one.
  fellBackToFull: boolean;
}

interface PartResult extends Record<string, unknown> {
  rows: number;
  lastNpi: string | null;
  bytes: number;
}

const count = (n: number) => n.toLocaleString('en-US');

// A directory download (issue 29 §7): plan (cut-off, and where an incremental file starts), then one step per part of
// DIRECTORY_DOWNLOAD_BATCH rows read in NPI order after the previous part's last NPI, each encrypted into the blob
// store with its part row in one transaction, then the log message. A step done is never redone, so a restart
// resumes at the part it was writing; the file is the parts back to back (the first carries the header).
export function directoryDownloadWorkflow(deps: { blobs: BlobStore; batchSize?: number }): WorkflowHandler {
  const batchSize = deps.batchSize ?? DIRECTORY_DOWNLOAD_BATCH;
  return async (ctx) => {
    const downloadId = String(ctx.workflow.payload.downloadId);
    try {
      await run(ctx, deps.blobs, batchSize, downloadId);
    } catch (error) {
      if (ctx.workflow.attempts >= ctx.workflow.maxAttempts) {
        await q.update(ctx.db, downloadId, { status: 'Failed', completedAt: ctx.now(), logMessage: `The download failed: ${errorText(error)}` });
      }
      throw error;
    }
  };
}

async function run(ctx: WorkflowContext, blobs: BlobStore, batchSize: number, downloadId: string) {
  const download = await q.findById(ctx.db, downloadId);
  if (!download || download.status === 'Completed') return;
  const type = download.type as DirectoryDownloadType;
  const mode = download.mode as DirectoryDownloadMode;
  const startedAt = ctx.now();

  const plan = await ctx.step<Plan>('plan', 'plan', async () => {
    // The database's clock, the one the importer stamps imported_at with.
    const cutoff = await q.databaseNow(ctx.db);
    const since = mode === 'Incremental' ? await q.lastCutoff(ctx.db, type, downloadId) : null;
    await q.update(ctx.db, downloadId, { status: 'Running', since, cutoff });
    return { since: since?.toISOString() ?? null, cutoff: cutoff.toISOString(), fellBackToFull: mode === 'Incremental' && !since };
  });
  const filter: q.RowFilter = { entityTypes: ENTITY_TYPES[type], since: plan.since ? new Date(plan.since) : null, cutoff: new Date(plan.cutoff) };

  let rows = 0;
  let bytes = 0;
  let parts = 0;
  let lastNpi: string | null = null;
  for (;;) {
    const part: number = parts;
    const after: string | null = lastNpi;
    const result: PartResult = await ctx.step<PartResult>('part', String(part), async (): Promise<PartResult> => {
      const batch = await q.findRowsAfter(ctx.db, filter, after, batchSize);
      const body = Buffer.from((part === 0 ? headerLine() : '') + batch.map(rowLine).join(''), 'utf8');
      const last: string | null = batch.at(-1)?.npi ?? after;
      await ctx.db.transaction(async (tx) => {
        const blob = await blobs.put(body, { organizationId: null }, tx);
        await q.insertPart(tx, { downloadId, part, blobId: blob.id, rowCount: batch.length, lastNpi: last });
      });
      return { rows: batch.length, lastNpi: last, bytes: body.length };
    });
    parts += 1;
    rows += result.rows;
    bytes += result.bytes;
    lastNpi = result.lastNpi;
    if (result.rows < batchSize) break;
  }

  await ctx.step('finish', 'finish', async () => {
    const what = type === 'All' ? 'providers and organizations' : type.toLowerCase();
    const scope = plan.since
      ? `entries imported or deactivated from ${plan.since} to ${plan.cutoff} (since the last completed ${type} download), deactivated ones marked Active = N`
      : `every active entry imported before ${plan.cutoff}`;
    const logMessage = [
      `${mode} download of ${what} from the provider directory (NPPES).`,
      plan.fellBackToFull ? `No earlier ${type} download had completed, so this incremental download holds the full directory.` : null,
      `Read ${scope}, in NPI order, ${count(batchSize)} rows a part.`,
      `Wrote ${count(rows)} ${rows === 1 ? 'row' : 'rows'} in ${parts} ${parts === 1 ? 'part' : 'parts'}, ${count(bytes)} bytes of CSV, encrypted in the blob store.`,
      `Started ${startedAt.toISOString()}, finished ${ctx.now().toISOString()}.`,
    ]
      .filter(Boolean)
      .join('\n');
    await q.update(ctx.db, downloadId, { status: 'Completed', completedAt: ctx.now(), rowCount: rows, partCount: parts, sizeInBytes: bytes, logMessage });
    return { rows };
  });
}
