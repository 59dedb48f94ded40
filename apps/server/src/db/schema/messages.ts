import { sql, type SQL } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { blobs } from './blobs.ts';
import { documentSources } from './document-sources.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

// Release types (end-user §3): system ones have no organization.
export const releaseTypes = pgTable('release_types', {
  id: uuid().primaryKey().defaultRandom(),
  organizationId: uuid().references(() => organizations.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  sendType: text({ enum: ['Direct', 'Fax', 'Any'] }).notNull().default('Any'),
  originAddressId: uuid().references(() => documentSources.id, { onDelete: 'set null' }),
  destinationAddress: text(),
  classificationCode: text(),
  trackFaxResponses: boolean().notNull().default(false),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const documentTypes = pgTable('document_types', {
  id: uuid().primaryKey().defaultRandom(),
  organizationId: uuid().references(() => organizations.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  // Where the type comes from: 'System', or an integration's name.
  source: text().notNull().default('System'),
  // LOINC code used when a document of this type becomes a CDA.
  loincCode: text(),
});

// Tracked referrals: a conversation groups a sent message and the responses it receives.
export const conversations = pgTable('conversations', {
  id: uuid().primaryKey().defaultRandom(),
  organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  type: text().notNull().default('Referral'),
  conversationStatus: text({ enum: ['Draft', 'Open', 'Accepted', 'Declined', 'Completed'] }).notNull().default('Draft'),
  responseType: text(),
  responseAction: text(),
  respondedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export interface FaxProperties {
  includeCoverPage: boolean;
  includeMessageBody: boolean;
  includeAttachmentDescriptions: boolean;
  faxPageCount: number | null;
}

// The Message of end-user §3. Outbound rows are Release (drafts and sent), inbound rows are Intake.
export const messages = pgTable(
  'messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    direction: text({ enum: ['Outbound', 'Inbound'] }).notNull(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    subject: text().notNull().default(''),
    fromAddress: text(),
    fromDocumentSourceId: uuid().references(() => documentSources.id, { onDelete: 'set null' }),
    // Semicolon-separated, as the spec's clients send and read it.
    toAddress: text().notNull().default(''),
    body: text().notNull().default(''),
    comments: text(),
    messageDate: timestamp({ withTimezone: true }),
    systemReceivedDate: timestamp({ withTimezone: true }),
    createdDate: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedDate: timestamp({ withTimezone: true }).notNull().defaultNow(),
    isDraft: boolean().notNull().default(true),
    isProcessed: boolean().notNull().default(false),
    isUrgent: boolean().notNull().default(false),
    origin: text(),
    status: text().notNull().default('Draft'),
    processedType: text(),
    sourceType: text({ enum: ['Direct', 'Fax', 'Upload', 'DeliverySummary', 'Triage'] }),
    patientName: text(),
    conversationId: uuid().references(() => conversations.id, { onDelete: 'set null' }),
    classificationCode: text(),
    reasonForDisclosure: text(),
    // The message this one forwards, replies to, copies, or (inbound) was delivered from.
    originalObjectId: uuid(),
    releaseTypeId: uuid().references(() => releaseTypes.id, { onDelete: 'set null' }),
    conversion: text({ enum: ['Pdf', 'Cda'] }),
    attachments2PDF: boolean().notNull().default(false),
    attachments2CDA: boolean().notNull().default(false),
    isReadyForDeliverySummary: boolean().notNull().default(false),
    properties: jsonb().$type<FaxProperties>(),
    trackFaxResponses: boolean().notNull().default(false),
    deletedAt: timestamp({ withTimezone: true }),
    // Inbound copies only: what made this copy (sent message and recipient, or a workflow), so a
    // delivery retried after a crash finds its copy instead of making a second one.
    deliveryKey: text(),
    // Intake: the user a message is assigned to (triage), whether anyone opened it, and when a
    // failed message was acknowledged.
    assignedUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    isRead: boolean().notNull().default(false),
    failedAcknowledgedAt: timestamp({ withTimezone: true }),
    // Intake's search: subject, addresses, fax numbers also as bare digits, and patient name, lower-case, one a
    // line. Words are matched anywhere in it (any order); a trigram index serves it where pg_trgm exists (migration 0008).
    searchText: text()
      .notNull()
      .generatedAlwaysAs(
        (): SQL =>
          sql`lower(${messages.subject} || chr(10) || coalesce(${messages.fromAddress}, '') || chr(10) || ${messages.toAddress} || chr(10) || coalesce(${messages.patientName}, '') || case when ${messages.fromAddress} ~ '^[0-9 ().+-]+$' then chr(10) || regexp_replace(${messages.fromAddress}, '[^0-9]', '', 'g') else '' end || case when ${messages.toAddress} ~ '^[0-9 ().+;-]+$' then chr(10) || regexp_replace(${messages.toAddress}, '[^0-9;]', '', 'g') else '' end)`,
      ),
    // The recipients of toAddress, lower-case: Intake's visibility and rules compare them on every row of a list.
    recipients: text()
      .array()
      .notNull()
      .generatedAlwaysAs((): SQL => sql`string_to_array(lower(${messages.toAddress}), ';')`),
  },
  (t) => [
    index('messages_org_list_idx').on(t.organizationId, t.direction, t.isDraft, t.updatedDate),
    unique('messages_delivery_key_unique').on(t.organizationId, t.deliveryKey),
    // Intake's list pages in index order (received or updated date, then id), whatever the filters.
    index('messages_intake_by_received_idx')
      .on(t.organizationId, t.systemReceivedDate, t.id)
      .where(sql`${t.direction} = 'Inbound' and ${t.deletedAt} is null`),
    index('messages_intake_by_updated_idx')
      .on(t.organizationId, t.updatedDate, t.id)
      .where(sql`${t.direction} = 'Inbound' and ${t.deletedAt} is null`),
    // A sparse list of one source type (Fax, Upload...) is looked up through it (intake/queries.ts findMatches).
    index('messages_intake_source_idx')
      .on(t.organizationId, t.sourceType, t.systemReceivedDate)
      .where(sql`${t.direction} = 'Inbound' and ${t.deletedAt} is null`),
    // Intake's "assigned to me" count and a User's assigned messages.
    index('messages_intake_assigned_idx')
      .on(t.organizationId, t.assignedUserId, t.systemReceivedDate)
      .where(sql`${t.direction} = 'Inbound' and ${t.deletedAt} is null`),
    // Intake's failed count: failures are rare, so without it the count reads the whole window.
    index('messages_intake_failed_idx')
      .on(t.organizationId, t.systemReceivedDate)
      .where(sql`${t.direction} = 'Inbound' and ${t.status} = 'Failed' and ${t.failedAcknowledgedAt} is null`),
    index('messages_original_idx').on(t.originalObjectId),
    // The message browser's default order, CreatedDate desc then the key (migration 0030).
    index('messages_created_idx').on(t.createdDate.desc().nullsLast(), t.id),
    // The inbound copies of a sent message (delivery key <message id>:<recipient>) and the delivery summaries, found
    // from their workflows' side (the message browser's WorkflowStatus filter, migration 0030).
    index('messages_inbound_link_idx')
      .on(sql`split_part(${t.deliveryKey}, ':', 1)`)
      .where(sql`${t.direction} = 'Inbound' and ${t.deliveryKey} is not null`),
  ],
);

export interface PatientIdentifier {
  root: string;
  id: string;
}

// The Patient of end-user §3; one per message (an attachment may carry its own in its meta).
export const patients = pgTable('patients', {
  id: uuid().primaryKey().defaultRandom(),
  messageId: uuid().notNull().unique().references(() => messages.id, { onDelete: 'cascade' }),
  organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  patientId: text(),
  patientIds: jsonb().$type<PatientIdentifier[]>().notNull().default([]),
  firstName: text(),
  middleName: text(),
  lastName: text(),
  birthDate: date(),
  gender: text({ enum: ['M', 'F', 'UN'] }),
  streetAddress1: text(),
  streetAddress2: text(),
  city: text(),
  state: text(),
  postalCode: text(),
  country: text(),
  telephone: text(),
  visitId: text(),
  visitDate: date(),
  integrationMeta: jsonb().$type<Record<string, string | null>>(),
});

export interface AttachmentMeta {
  documentType: string | null;
  documentDate: string | null;
  documentDateType: 'today' | 'message' | 'selected' | null;
  confidentiality: 'Normal' | 'Restricted' | 'Very Restricted' | null;
  documentDescription: string | null;
  patient: Record<string, unknown> | null;
}

export const attachments = pgTable(
  'attachments',
  {
    id: uuid().primaryKey().defaultRandom(),
    messageId: uuid().notNull().references(() => messages.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    position: integer().notNull().default(0),
    fileName: text().notNull(),
    mimeType: text().notNull(),
    sizeInBytes: integer().notNull(),
    // The file as uploaded (kept for restore), the current version, and the PDF rendition for preview.
    originalBlobId: uuid().notNull().references(() => blobs.id),
    currentBlobId: uuid().notNull().references(() => blobs.id),
    previewBlobId: uuid().references(() => blobs.id),
    previewStatus: text({ enum: ['Processing', 'Available', 'Failed', 'NotApplicable'] }).notNull().default('Processing'),
    transformStatus: text({ enum: ['None', 'Pending', 'Failed'] }).notNull().default('None'),
    isSelected: boolean().notNull().default(true),
    isRead: boolean().notNull().default(false),
    uploadProcessId: text(),
    meta: jsonb().$type<AttachmentMeta>(),
    integrationMeta: jsonb().$type<Record<string, unknown>>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('attachments_message_idx').on(t.messageId)],
);

// One row per recipient of a sent message: what the sender sees move Pending → Delivered.
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    messageId: uuid().notNull().references(() => messages.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    recipient: text().notNull(),
    channel: text({ enum: ['Direct', 'Fax'] }).notNull(),
    status: text({ enum: ['Pending', 'Delivered', 'Failed'] }).notNull().default('Pending'),
    reason: text(),
    // The inbound copy in the receiving organization, when delivered on this installation.
    deliveredMessageId: uuid(),
    // Direct over SMTP: the Message-ID sent to this recipient (MDNs name it), and when its MDN is overdue.
    directMessageId: text(),
    notificationDueAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    unique('deliveries_recipient_unique').on(t.messageId, t.recipient),
    index('deliveries_direct_message_idx').on(t.directMessageId),
    index('deliveries_notification_due_idx').on(t.notificationDueAt),
    // The messaging dashboard's "Direct recipients without an MDN" alert (migration 0025).
    index('deliveries_no_notification_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} = 'Failed' and ${t.reason} = 'No delivery notification received'`),
  ],
);

// A recipient's timeline (issue 12 §4): queued → sent → processed → dispatched, or failed with the reason.
export const deliveryEvents = pgTable(
  'delivery_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    deliveryId: uuid().notNull().references(() => deliveries.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    stage: text({ enum: ['Queued', 'Sent', 'Processed', 'Dispatched', 'Failed'] }).notNull(),
    detail: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('delivery_events_delivery_idx').on(t.deliveryId, t.createdAt), unique('delivery_events_stage_unique').on(t.deliveryId, t.stage)],
);

// What happened to a message and who did it (GET /api/messages/events, the activity modal).
export const messageEvents = pgTable(
  'message_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    messageId: uuid().notNull().references(() => messages.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    eventType: text().notNull(),
    details: jsonb().$type<Record<string, unknown>>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('message_events_message_idx').on(t.messageId, t.createdAt), index('message_events_org_idx').on(t.organizationId, t.createdAt), index('message_events_created_idx').on(t.createdAt, t.id)],
);

// Direct addresses a user sent to before (recipient autocomplete; the manage-cache modal).
export const addressCache = pgTable(
  'address_cache',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
    address: text().notNull(),
    useCount: integer().notNull().default(1),
    lastUsedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('address_cache_user_address_unique').on(t.userId, t.address)],
);
