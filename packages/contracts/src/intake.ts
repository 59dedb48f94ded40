import { z } from 'zod';
import { isValidIsoDate, message } from './messages.ts';
import { pageOf } from './paging.ts';
import { organizationRoles } from './roles.ts';
import { text } from './text.ts';

// Message status numbers of back-office-b §4 (0 is "Saved" for a draft). Lists and filters use them.
export const messageStatusNumbers = {
  Sent: 0,
  Received: 1,
  Pending: 2,
  Signed: 3,
  Suspended: 4,
  Deleted: 5,
  Removed: 6,
  Forwarded: 7,
  Replied: 8,
  Processed: 9,
  Uploaded: 10,
  Triaged: 11,
  Failed: 12,
} as const;
export type MessageStatusName = keyof typeof messageStatusNumbers;

export const processedTypes = ['Printed', 'StructuredExport', 'PDFExport', 'NativeExport'] as const;
export const intakeSourceTypes = ['Direct', 'Fax', 'Upload', 'DeliverySummary', 'Triage'] as const;
export const INTAKE_PAGE_SIZE = 30;
// Start of the default date range: 30 days before now, at UTC start of day (end-user §4).
export const INTAKE_DEFAULT_DAYS = 30;

// A filter rule (end-user §3): toAddress, fromAddress, sourceType. POST /api/messages carries the
// rules JSON-stringified in `rules`.
// POST /api/intake (UseOptimizedIntake) may send a rule as only its id: one of the organization's
// intake_rules; an id the organization does not have matches nothing.
export const intakeRule = z.object({
  id: text().uuid().nullish(),
  toAddress: text().trim().toLowerCase().max(256).nullish(),
  fromAddress: text().trim().toLowerCase().max(256).nullish(),
  sourceType: z.enum(intakeSourceTypes).nullish(),
});
export type IntakeRule = z.infer<typeof intakeRule>;

const optionalIsoDate = text()
  .trim()
  .max(10)
  .nullish()
  .refine((v) => !v || isValidIsoDate(v), 'Date is invalid.');

// The longest Intake search and column filter value (the web's search box uses it as its maxLength).
export const INTAKE_SEARCH_MAX_LENGTH = 200;

// A column filter of the Intake list: case-insensitive; 'equals' on toAddress matches any recipient.
export const intakeColumnFilter = z.object({
  value: text('Filter').trim().max(INTAKE_SEARCH_MAX_LENGTH),
  operator: z.enum(['equals', 'contains']),
});
export const intakeColumnFilterKeys = ['subject', 'fromAddress', 'toAddress', 'patientName'] as const;
export type IntakeColumnFilterKey = (typeof intakeColumnFilterKeys)[number];

// POST /api/messages: the Message list filter of end-user §3. Empty values mean "no filter".
export const intakeFilter = z.object({
  pageStart: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(INTAKE_PAGE_SIZE),
  orderDir: z.enum(['asc', 'desc']).default('desc'),
  orderBy: z.enum(['receiveDate', 'updatedDate']).default('receiveDate'),
  // Defaults: start 30 days before now (UTC start of day), no end.
  startDate: optionalIsoDate,
  endDate: optionalIsoDate,
  rules: text()
    .max(20_000)
    .nullish()
    .transform((v, ctx) => {
      if (!v) return [] as IntakeRule[];
      try {
        const parsed = z.array(intakeRule).max(100).safeParse(JSON.parse(v));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'Rules are invalid.' });
      return z.NEVER;
    }),
  statuses: z.array(z.number().int().min(0).max(12)).max(13).nullish(),
  isAll: z.boolean().nullish(),
  isUnassigned: z.boolean().nullish(),
  sourceTypes: z.array(z.enum(intakeSourceTypes)).max(5).nullish(),
  isAssignedToSelf: z.boolean().nullish(),
  processedTypes: z.array(z.enum(processedTypes)).max(4).nullish(),
  // Document source ids (the organization's Direct addresses and fax numbers) the message came to.
  sources: z.array(text().uuid()).max(100).nullish(),
  // Free text: subject, from, to, patient name. A longer search is refused with a sentence naming the limit
  // rather than cut short: a cut search would quietly find what the user did not type (the box caps it anyway).
  filter: text('Search').trim().max(INTAKE_SEARCH_MAX_LENGTH).nullish(),
  // Not in the spec: per-column filters of the list's Subject, From, To and Patient columns.
  columnFilters: z
    .object({
      subject: intakeColumnFilter.nullish(),
      fromAddress: intakeColumnFilter.nullish(),
      toAddress: intakeColumnFilter.nullish(),
      patientName: intakeColumnFilter.nullish(),
    })
    .strict()
    .nullish(),
});
export type IntakeFilter = z.input<typeof intakeFilter>;

export const intakeListItem = message
  .pick({
    id: true,
    subject: true,
    fromAddress: true,
    toAddress: true,
    messageDate: true,
    systemReceivedDate: true,
    updatedDate: true,
    isUrgent: true,
    isProcessed: true,
    processedType: true,
    sourceType: true,
    patientName: true,
    status: true,
  })
  .extend({
    statusNumber: z.number().int(),
    attachmentCount: z.number().int(),
    faxPageCount: z.number().int().nullable(),
    isRead: z.boolean(),
  });
export type IntakeListItem = z.infer<typeof intakeListItem>;
// Counts shown beside the list filters; above the cap a count shows as "N+" (end-user §2).
export const INTAKE_COUNT_CAP = 99;
export const formatCount = (n: number) => (n > INTAKE_COUNT_CAP ? `${INTAKE_COUNT_CAP}+` : String(n));
// Not in the spec: the pager's total is counted up to this many pages past the page's start; beyond, the list
// says so (totalCountCapped) and the web shows the total as "N+", like the filter counters (end-user §9).
export const INTAKE_TOTAL_COUNT_PAGES = 10;
export const intakeCounts = z.object({ all: z.number().int(), unassigned: z.number().int(), assignedToSelf: z.number().int(), unread: z.number().int(), failed: z.number().int() });

// counts: within the date range and what the caller may see, each capped at INTAKE_COUNT_CAP + 1.
// nothingAssigned: a User with no intake rule or assigned message; administrators names who
// can fix that (not in the spec: the empty Intake says why it is empty).
export const intakeList = z.object({
  items: z.array(intakeListItem),
  totalCount: z.number().int(),
  // true: more than totalCount messages match (totalCount is then the page's start + INTAKE_TOTAL_COUNT_PAGES pages).
  totalCountCapped: z.boolean().optional(),
  counts: intakeCounts.optional(),
  nothingAssigned: z.boolean().optional(),
  administrators: z.array(text()).optional(),
  // Not in the spec: for a User whose list is empty, the rules that bring messages to them (or, with nothing
  // assigned, the organization's rules an administrator could add them to), so the empty Intake can name them.
  ruleNames: z.array(text()).optional(),
});

// User-visible texts of Intake (end-user §8), exactly as the spec words them; the ones marked
// "not in the spec" are this product's own.
export const intakeMessages = {
  statusChanged: (status: string) => `The message has been successfully ${status}.`,
  statusChangeFailed: (status: string) => `Unable to change status to ${status}.`,
  printFailed: 'An error occurred while attempting to print. Please try again.',
  exportFailed: 'An error occured while exporting. Please contact support.',
  exportUnsupported: "Your browser doesn't support exporting. Please try another browser.",
  downloadFailed: 'Unable to download the file.',
  reportFailed: (status: number | string) => `Unable to download the report file. Status: ${status}`,
  openedBy: (fullName: string) => `${fullName} has opened this message.`,
  alreadyOpenBy: (fullName: string) => `${fullName} currently has this message open.`,
  // Not in the spec: an empty Intake that is empty because nothing is assigned says so and who can fix it.
  nothingAssigned: (administrators: string) =>
    `No intake rules are assigned to you yet, so no messages reach your Intake. Ask an administrator of your organization (${administrators}) to assign them.`,
  // Not in the spec: what the empty Intake adds, naming the rules.
  ruleCouldBring: (rules: string) => `An administrator can add you to an intake rule such as ${rules}.`,
  rulesBring: (rules: string) => `Your Intake shows the messages your intake rules bring: ${rules}.`,
  noMessages: 'There are no messages matching your criteria.',
  // Not in the spec.
  triaged: 'The message has been triaged.',
  triageTargetRequired: 'Choose an address or a user to triage the message to.',
  replyFromTriage: 'A message opened from Triage cannot be replied to.',
  // Not in the spec: assignments (PUT /api/users/{id}/documentsources and /intakerules) and triage.
  assignmentOrganization: 'Assignments can only be made in your current organization.',
  documentSourceNotInOrganization: "The address is not one of the organization's Direct addresses or fax numbers.",
  ruleAddressNotOwn: "An intake rule's To addresses must be the organization's own Direct addresses or fax numbers.",
  intakeRuleNotInOrganization: "The intake rule is not one of the organization's rules.",
  userNotInOrganization: 'The user is not a member of the organization.',
  intakeRuleDeleted: 'The intake rule has been deleted.',
} as const;

// Not in the spec: PUT /api/messages/{id}/patient on a received message of a print-only organization (end-user
// §4: Intake's patient fields are disabled in print export mode).
export const intakePatientMessages = {
  printOnly: "Your organization prints Intake documents instead of exporting them, so a received message's patient cannot be changed.",
} as const;

// PUT /api/messages/{id}/process: processed (with how) or back to unprocessed; subject optional rename.
export const processRequest = z.object({
  isProcessed: z.boolean(),
  subject: text('Subject').trim().max(255).nullish(),
  processType: z.enum(processedTypes).nullish(),
});

// PUT /api/messages/{id}/read (response not shown): the message's read state as the list shows it.
// Marking read changes the status text Received to Read, which lists and filters count as Received.
export const readResult = z.object({ id: text(), isRead: z.boolean(), status: text(), statusNumber: z.number().int() });

// Not in the spec as a call: POST /api/messages/{id}/triage moves a message to another of the
// organization's addresses (document source) or assigns it to one of its users, or both.
export const triageRequest = z
  .object({ documentSourceId: text().uuid().nullish(), userId: text().uuid().nullish() })
  .refine((v) => !!v.documentSourceId || !!v.userId, intakeMessages.triageTargetRequired);

// GET /api/messages/statistics (Administrator): the organization's Intake at a glance. Every figure
// covers the messages received over the same 30 days as perDay (today and the 29 days before, UTC).
export const intakeStatistics = z.object({
  received: z.number().int(),
  unread: z.number().int(),
  unprocessed: z.number().int(),
  urgent: z.number().int(),
  failed: z.number().int(),
  // Not in the spec (the dashboard, issue 13 §1): received messages nobody is assigned to, and messages sent.
  unassigned: z.number().int(),
  sent: z.number().int(),
  bySourceType: z.record(text(), z.number().int()),
  // Messages received (count) and sent per day over the last 30 days, oldest first (YYYY-MM-DD).
  perDay: z.array(z.object({ date: text(), count: z.number().int(), sent: z.number().int() })),
});

// GET /api/messages/eventsreport (Administrator): CSV of the organization's message events, newest
// first. start and end are dates (YYYY-MM-DD, end inclusive) or ISO instants; eventTypes comma-separated.
export const EVENTS_REPORT_PAGE_SIZE = 10_000;
const reportInstant = text()
  .trim()
  .max(40)
  .optional()
  .refine((v) => !v || (/^\d{4}-\d{2}-\d{2}$/.test(v) ? isValidIsoDate(v) : !Number.isNaN(Date.parse(v))), 'Date is invalid.');
export const eventsReportQuery = z.object({
  pageSize: z.coerce.number().int().min(1).max(EVENTS_REPORT_PAGE_SIZE).default(EVENTS_REPORT_PAGE_SIZE),
  start: reportInstant,
  end: reportInstant,
  eventTypes: text().trim().max(1000).optional(),
});
export const EVENTS_REPORT_COLUMNS = ['Date (UTC)', 'Event Type', 'User', 'Subject', 'From', 'To'] as const;

// PUT /api/failedmessages/{id}/acknowledge and POST /api/failedmessages/acknowledgeall (response not
// shown): how many failed messages were acknowledged now. A failed message is an inbound message with
// status Failed that the caller may see; acknowledged ones leave the counts' `failed`.
export const failedAcknowledged = z.object({ acknowledged: z.number().int() });

// GET /api/events (response shape not shown): the caller's notifications, the 20 newest message events
// of messages the caller may see in the current organization.
export const EVENTS_LIMIT = 20;
export const intakeEvent = z.object({ id: text(), type: text(), messageId: text(), subject: text(), createdOn: text() });
export const intakeEvents = z.array(intakeEvent);

// GET/PUT /api/users/{id}/documentsources and PUT /api/users/{id}/intakerules (end-user §7).
export const userDocumentSource = z.object({ organizationId: text().uuid(), documentSourceId: text().uuid() });
export const userDocumentSources = z.array(userDocumentSource).max(500);
export const userIntakeRule = z.object({ organizationId: text().uuid(), intakeRuleId: text().uuid() });
export const userIntakeRules = z.array(userIntakeRule).max(500);
// GET /api/users (end-user §7; Administrator): the members of the caller's current organization, e.g.
// for Triage's user picker. sort is JSON, {"col":"lastName","dir":"asc"}; page is 1-based.
export const USERS_PAGE_SIZE = 25;
export const userSortColumns = ['userName', 'firstName', 'lastName', 'role'] as const;
export const userSort = z.object({ col: z.enum(userSortColumns), dir: z.enum(['asc', 'desc']).default('asc') });
export type UserSort = z.infer<typeof userSort>;
export const usersQuery = z.object({
  search: text('Search').trim().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(USERS_PAGE_SIZE),
  sort: text()
    .max(200)
    .optional()
    .transform((v, ctx): UserSort => {
      if (!v) return { col: 'lastName', dir: 'asc' };
      try {
        const parsed = userSort.safeParse(JSON.parse(v));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: `Sort is invalid: col is one of ${userSortColumns.join(', ')}, dir asc or desc.` });
      return z.NEVER;
    }),
  // Named in the spec for the back office's network view; accepted, and an organization's members are listed.
  includeNetwork: z.enum(['true', 'false']).optional(),
});
export type UsersQuery = z.input<typeof usersQuery>;
export const organizationUser = z.object({
  id: text(),
  userName: text(),
  firstName: text(),
  lastName: text(),
  fullName: text(),
  roles: z.array(z.enum(organizationRoles)),
});
export type OrganizationUser = z.infer<typeof organizationUser>;
export const usersPage = pageOf(organizationUser);

// GET /api/users/{id}/rules and GET /api/intakerules: an intake rule of the organization (issue 13 §4): messages to any
// of toAddresses (the organization's own addresses or numbers; none: any of them), from fromAddress, of sourceType;
// for its users, or every user of the organization when isGlobal.
export const intakeRuleView = z.object({
  id: text(),
  name: text(),
  toAddresses: z.array(text()),
  fromAddress: text().nullable(),
  sourceType: z.enum(intakeSourceTypes).nullable(),
  isGlobal: z.boolean(),
});
export type IntakeRuleView = z.infer<typeof intakeRuleView>;
// Every organization starts with this rule: its default (first) Direct address to its Administrators.
export const SAMPLE_INTAKE_RULE_NAME = 'To Records (Sample)';
// Not in the spec: GET /api/intakerules (the organization's rules), POST /api/intakerules
// (Administrator) creates one, DELETE /api/intakerules/{id} (Administrator) removes it and its assignments.
export const intakeRuleCreate = z
  .object({
    name: text('Name').trim().min(1, 'Name is required.').max(100),
    toAddresses: z.array(text().trim().toLowerCase().min(1).max(256)).max(50).default([]),
    fromAddress: text().trim().toLowerCase().max(256).nullish(),
    sourceType: z.enum(intakeSourceTypes).nullish(),
    isGlobal: z.boolean().default(false),
  })
  .refine((v) => v.toAddresses.length > 0 || !!v.fromAddress || !!v.sourceType, 'A rule needs a To address, a From address or a source type.');

// The realtime hub at /api/hub (WebSocket; the access token is the first message). Client → server:
export const hubClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authenticate'), token: text().max(4000) }),
  z.object({ type: z.literal('openMessage'), messageId: text().uuid() }),
  z.object({ type: z.literal('closeMessage'), messageId: text().uuid() }),
]);
export type HubClientMessage = z.infer<typeof hubClientMessage>;
// Server → client: presence events carry the message and who; 'sync' asks lists to refresh (every 30 s).
export const hubPresence = z.object({ messageId: text(), userId: text(), fullName: text() });
export const hubServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('authenticated') }),
  hubPresence.extend({ type: z.literal('openMessage') }),
  hubPresence.extend({ type: z.literal('closeMessage') }),
  hubPresence.extend({ type: z.literal('messageAlreadyOpened') }),
  z.object({ type: z.literal('sync') }),
]);
export type HubServerMessage = z.infer<typeof hubServerMessage>;
export const HUB_SYNC_INTERVAL_MS = 30_000;

// PUT .../attachments/{attachmentId}/patient/extract starts it; GET .../patient answers { status, patient }.
export const extractedPatient = z.object({
  firstName: text().nullable(),
  middleName: text().nullable(),
  lastName: text().nullable(),
  birthDate: text().nullable(),
  gender: z.enum(['M', 'F', 'UN']).nullable(),
});
// Not in the spec: warning is set when the page names more than one person who could be the patient.
export const extractionStatus = z.object({ status: z.enum(['Processing', 'Completed', 'Failed']), patient: extractedPatient.nullable(), warning: text().nullable().default(null) });
export const extractionSeveralPeople = "This page names more than one person; check the patient's details.";
export const EXTRACTION_POLL_MS = 1_000;
export const EXTRACTION_MAX_POLLS = 10;
