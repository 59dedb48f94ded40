import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';

// The one outbox every mail of the product goes through (platform/mail): a row per mail, sent by the
// send-mail workflow over SMTP (SMTP_URL) or written as DATA_DIR/outbox/<id>.eml.
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid().references(() => organizations.id, { onDelete: 'set null' }),
    // What the mail is for: 'Invitation', later 'PasswordReset', 'AccountCreated', notifications.
    kind: text().notNull(),
    fromAddress: text().notNull(),
    fromName: text(),
    toAddress: text().notNull(),
    toName: text(),
    replyTo: text(),
    subject: text().notNull(),
    textBody: text().notNull(),
    htmlBody: text().notNull(),
    headers: jsonb().$type<Record<string, string>>(),
    status: text({ enum: ['Queued', 'Sent', 'Failed'] }).notNull().default('Queued'),
    attempts: integer().notNull().default(0),
    lastError: text(),
    // SMTP: the server's message id; file: the .eml file's name under DATA_DIR/outbox.
    deliveredTo: text(),
    workflowId: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status, t.createdAt)],
);
