import type { WorkflowHandler } from '../platform/workflows/context.ts';

/** A workflow handler that counts its runs and holds each one in a step until `release()`: work that is "still running". */
export function heldWorkflow() {
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  const held = {
    runs: 0,
    release: () => release(),
    handler: (async ({ step }) => {
      held.runs++;
      await step('held', '', () => released);
    }) as WorkflowHandler,
  };
  return held;
}
