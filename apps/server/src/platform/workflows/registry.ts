import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { WorkflowHandlers } from './context.ts';

export interface WorkflowDeps {
  config: Config;
  db: Database;
  now: () => Date;
}

// Every workflow type the workers run, keyed by the `type` given to enqueue(). Handlers get their
// dependencies (transports, blobs, mail) here rather than importing them; areas add their entries.
export function workflowHandlers(_deps: WorkflowDeps): WorkflowHandlers {
  return new Map();
}
