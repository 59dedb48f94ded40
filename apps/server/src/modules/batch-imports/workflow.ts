import type { WorkflowHandler } from '../../platform/workflows/context.ts';
import * as q from './queries.ts';
import { importRow, type BatchImportDeps, type ImportCaller, type ImportSettings } from './service.ts';

// Rows per step: a step is one row of workflow_steps in the workflow browser, so a 1,000-row file shows 20 of them;
// each row records its own outcome on its item, so a step resumed after a crash skips the rows it finished.
export const ROWS_PER_STEP = 50;

export interface BatchImportWorkflowDeps extends BatchImportDeps {
  // Tests: called before each row (a crash or a stop mid-import is simulated here).
  beforeRow?: (rowNumber: number) => Promise<void>;
}

/** The import of one file (payload { batchId, caller }): its rows in file order, a step per ROWS_PER_STEP rows. */
export function batchImportWorkflow(deps: BatchImportWorkflowDeps): WorkflowHandler {
  return async (ctx) => {
    const { batchId, caller } = ctx.workflow.payload as { batchId: string; caller: ImportCaller };
    const batch = await q.findBatch(deps.db, batchId);
    // The file was removed meanwhile: nothing left to do.
    if (!batch) return;
    const settings = batch.metadata as unknown as ImportSettings;
    await q.setBatchStatus(deps.db, batchId, 'Running');
    const jobFunctionId = await q.primaryContactJobFunction(deps.db);
    const rowNumbers = await q.itemRowNumbers(deps.db, batchId);
    for (let i = 0; i < rowNumbers.length; i += ROWS_PER_STEP) {
      const chunk = rowNumbers.slice(i, i + ROWS_PER_STEP);
      await ctx.step('import-rows', `${chunk[0]}-${chunk[chunk.length - 1]}`, async () => {
        for (const item of await q.findItems(deps.db, batchId, chunk)) {
          // A stopping worker ends between rows: the next one resumes at this row.
          ctx.signal.throwIfAborted();
          await deps.beforeRow?.(item.rowNumber);
          await importRow(deps, caller, settings, item, jobFunctionId);
        }
        return { rows: chunk.length };
      });
    }
    const problems = await q.countProblems(deps.db, batchId);
    await q.setBatchStatus(deps.db, batchId, problems > 0 ? 'CompletedWithErrors' : 'Completed', ctx.now());
  };
}
