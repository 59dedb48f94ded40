import { sql } from 'drizzle-orm';
import { date, index, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { messages } from './messages.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

// Issue 13 §5: a received message a user is to be told about. One row per (user, message), so a message is never
// announced twice to one user; sentAt is set in the transaction that queues the mail that counts it.
export const newMessageNotices = pgTable(
  'new_message_notices',
  {
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
    messageId: uuid().notNull().references(() => messages.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
    // The outbox mail that counted it (null when the user had turned the notice off by then).
    mailId: uuid(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.messageId] }), index('new_message_notices_pending_idx').on(t.organizationId).where(sql`${t.sentAt} is null`)],
);

// Issue 13 §5: the organization-days whose daily mails (unprocessed reminder, failed digest, unassigned notice) were
// queued; `day` is the organization's local date. A row exists once per day, so a restart never sends them again.
export const dailyNotificationRuns = pgTable(
  'daily_notification_runs',
  {
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // Set in the transaction that queues the day's mails.
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);
