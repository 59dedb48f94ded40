import { boolean, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';

// An organization's webhooks (issue 13 §6): where to POST which events, and how to authenticate.
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text().notNull(),
    events: jsonb().$type<string[]>().notNull(),
    authenticationType: text({ enum: ['HmacSha256', 'Bearer', 'Basic'] }).notNull(),
    // The HMAC secret, the bearer token or the Basic password: sent or used on each delivery, never returned by the API.
    secret: text().notNull(),
    userName: text(),
    isEnabled: boolean().notNull().default(true),
    disabledReason: text(),
    lastDeliveryStatus: text({ enum: ['Pending', 'Delivered', 'Failed', 'Skipped'] }),
    lastDeliveryAt: timestamp({ withTimezone: true }),
    // The circuit (issue 26): failed tries in a row, since when, and until when deliveries wait (then one probe).
    consecutiveFailures: integer().notNull().default(0),
    failingSince: timestamp({ withTimezone: true }),
    pausedUntil: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_organization_idx').on(t.organizationId)],
);

// One row per (webhook, event): the event id and body are made once when the event happens, so every retry (or a
// run repeated after a worker died) sends the same id and body and the receiver can deduplicate.
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    webhookId: uuid()
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull(),
    eventId: uuid().notNull(),
    eventType: text().notNull(),
    // ids and the event type only, never PHI.
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text({ enum: ['Pending', 'Delivered', 'Failed', 'Skipped'] }).notNull().default('Pending'),
    attempts: integer().notNull().default(0),
    occurredAt: timestamp({ withTimezone: true }).notNull(),
    nextAttemptAt: timestamp({ withTimezone: true }),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [unique('webhook_deliveries_event_unique').on(t.webhookId, t.eventId)],
);

// Each try of a delivery: what the receiver answered (or why nothing came back) and when.
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid().primaryKey().defaultRandom(),
    deliveryId: uuid()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    webhookId: uuid()
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    attempt: integer().notNull(),
    attemptedAt: timestamp({ withTimezone: true }).notNull(),
    statusCode: integer(),
    error: text(),
    durationMs: integer().notNull(),
  },
  (t) => [index('webhook_attempts_webhook_idx').on(t.webhookId, t.attemptedAt), unique('webhook_attempts_try_unique').on(t.deliveryId, t.attempt)],
);
