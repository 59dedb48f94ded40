import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { documentSources } from './document-sources.ts';
import { attachments, messages } from './messages.ts';
import { organizations } from './organizations.ts';
import { users } from './users.ts';

// Which of an organization's Direct addresses and fax numbers a user may send from (end-user §7
// GET/PUT /api/users/{id}/documentsources, issue 13 §2); a global source is every user's without a row here. What a
// user receives is the intake rules' (below).
export const userDocumentSources = pgTable(
  'user_document_sources',
  {
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    documentSourceId: uuid().notNull().references(() => documentSources.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.documentSourceId] }), index('user_document_sources_org_idx').on(t.organizationId)],
);

// An organization's intake rules (end-user §3 filter rule, issue 13 §4): messages to any of the organization's
// addresses or numbers in toAddresses (none: any), from an outside address, of a source type; the rule brings them to
// its users (user_intake_rules), or to every user of the organization when isGlobal.
export const intakeRules = pgTable(
  'intake_rules',
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    toAddresses: text().array().notNull().default(sql`'{}'::text[]`),
    fromAddress: text(),
    sourceType: text({ enum: ['Direct', 'Fax', 'Upload', 'DeliverySummary', 'Triage'] }),
    isGlobal: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('intake_rules_org_idx').on(t.organizationId)],
);

// The rules a user receives by (PUT /api/users/{id}/intakerules).
export const userIntakeRules = pgTable(
  'user_intake_rules',
  {
    userId: uuid().notNull().references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    intakeRuleId: uuid().notNull().references(() => intakeRules.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.intakeRuleId] })],
);

export interface ExtractedPatient {
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  birthDate: string | null;
  gender: 'M' | 'F' | 'UN' | null;
}

export interface ExtractionHits {
  first: boolean;
  middle: boolean;
  last: boolean;
  dob: boolean;
  gender: boolean;
}

// One patient extraction run on an attachment (feature PatientExtractionAPI) and its measures, which
// the back office's sift metrics sum per organization.
export const patientExtractions = pgTable(
  'patient_extractions',
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid().notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    messageId: uuid().notNull().references(() => messages.id, { onDelete: 'cascade' }),
    attachmentId: uuid().notNull().references(() => attachments.id, { onDelete: 'cascade' }),
    status: text({ enum: ['Processing', 'Completed', 'Failed'] }).notNull().default('Processing'),
    patient: jsonb().$type<ExtractedPatient>(),
    elapsedMs: integer(),
    noText: boolean().notNull().default(false),
    error: boolean().notNull().default(false),
    noMatch: boolean().notNull().default(false),
    conflicts: boolean().notNull().default(false),
    perfectMatch: boolean().notNull().default(false),
    confidenceIsVeryHigh: boolean().notNull().default(false),
    // The page names more than one person who could be the patient: the user is asked to check the details.
    severalPeople: boolean().notNull().default(false),
    hits: jsonb().$type<ExtractionHits>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('patient_extractions_attachment_idx').on(t.attachmentId, t.createdAt), index('patient_extractions_org_idx').on(t.organizationId, t.createdAt)],
);
