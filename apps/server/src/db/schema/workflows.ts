import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

// Durable work (DESIGN.md): a workflow is claimed by one worker at a time through a lease
// (lockedUntil); a worker that dies loses its lease and another takes the workflow over.
export const workflows = pgTable(
  'workflows',
  {
    id: uuid().primaryKey().defaultRandom(),
    type: text().notNull(),
    status: text({ enum: ['Pending', 'Running', 'Completed', 'Failed'] }).notNull().default('Pending'),
    organizationId: uuid(),
    // What the workflow is about (a message id for sending), for the back office and lookups.
    correlationId: text(),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(5),
    runAfter: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedBy: text(),
    lockedUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('workflows_claim_idx').on(t.status, t.runAfter),
    index('workflows_correlation_idx').on(t.correlationId),
    // The messaging dashboard's "failed workflows in the last hour" alert reads only the recent failures (migration 0025);
    // the failed workflows' types and correlation ids are read from it alone (migration 0030).
    index('workflows_failed_updated_idx')
      .on(t.updatedAt, t.type, t.correlationId)
      .where(sql`${t.status} = 'Failed'`),
    // The workflows grid pages newest first, whatever its filters, and its failed workflows without the others (migration 0030).
    index('workflows_created_idx').on(t.createdAt, t.id),
    index('workflows_failed_created_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'Failed'`),
  ],
);

// One row per unit of work inside a workflow (a recipient of a message); a step recorded Completed is
// never run again, which is what makes a retried workflow deliver exactly once.
export const workflowSteps = pgTable(
  'workflow_steps',
  {
    id: uuid().primaryKey().defaultRandom(),
    workflowId: uuid().notNull().references(() => workflows.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    key: text().notNull().default(''),
    // Retry (back-office-b §4): an operator asked for this step to run again; the next run of the workflow does it.
    status: text({ enum: ['Pending', 'Running', 'Completed', 'Failed', 'Retry'] }).notNull().default('Pending'),
    attempts: integer().notNull().default(0),
    result: jsonb().$type<Record<string, unknown>>(),
    error: text(),
    startedAt: timestamp({ withTimezone: true }),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [unique('workflow_steps_unique').on(t.workflowId, t.name, t.key)],
);
