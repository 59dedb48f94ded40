import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

// Messages per minute, direction, channel and outcome (issue 27 §1), written in the same transaction as the workflow
// step that delivered or received them: the messaging dashboard reads at most 24 × 60 rows per series, never the steps.
export const messagingRollups = pgTable(
  'messaging_rollups',
  {
    minute: timestamp({ withTimezone: true }).notNull(),
    direction: text({ enum: ['Inbound', 'Outbound'] }).notNull(),
    // Direct (S/MIME over SMTP with another HISP), Local (delivered on this installation), Fax, and any later channel.
    channel: text().notNull(),
    outcome: text({ enum: ['Success', 'Failure', 'Other'] }).notNull(),
    count: integer().notNull().default(0),
  },
  (t) => [primaryKey({ name: 'messaging_rollups_pk', columns: [t.minute, t.direction, t.channel, t.outcome] })],
);

// A worker process's last sign of life (GET /api/diagnostics/worker and the "workers not heartbeating" alert).
export const workerHeartbeats = pgTable('worker_heartbeats', {
  workerId: text().primaryKey(),
  host: text().notNull(),
  pid: integer().notNull(),
  lanes: jsonb().$type<{ name: string; concurrency: number }[]>().notNull().default([]),
  startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

// Each system alert's status and since when it has had it: the "since when" of alerts whose condition has no date of
// its own (the disk, the virus scanner), kept across processes and restarts.
export const systemAlertStates = pgTable('system_alert_states', {
  alertType: text().primaryKey(),
  status: text({ enum: ['Triggered', 'Warn', 'OK'] }).notNull(),
  since: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
