import { AsyncLocalStorage } from 'node:async_hooks';

// Issue 27 §5: every log line written while a workflow runs carries its id and type, whichever logger writes it (the
// pino mixin in app.ts's loggerOptions reads this store).
export interface WorkflowLogFields {
  workflowId: string;
  workflowType: string;
}
export const workflowLogContext = new AsyncLocalStorage<WorkflowLogFields>();

export const workflowLogFields = (): WorkflowLogFields | Record<string, never> => workflowLogContext.getStore() ?? {};
