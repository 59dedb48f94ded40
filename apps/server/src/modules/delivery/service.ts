import { eq } from 'drizzle-orm';
import {
  activationMessages,
  parseRecipient,
  sendModelStateKeys as keys,
  recipientCheckTexts,
  sendNotices,
  type RecipientCheck,
  type RecipientAddress,
  type RecipientNotice,
  type SendResult,
} from '@clinicrelay/contracts/delivery.ts';
import { isTelephoneNumber } from '@clinicrelay/contracts/addresses.ts';
import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
import { subscriptionMessages } from '@clinicrelay/contracts/subscriptions.ts';
import { isNonPatientOrigin, isValidIsoDate, nonPhiFaxMessages, releaseMessages, splitAddresses } from '@clinicrelay/contracts/messages.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { auditedBy, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { enqueue } from '../../platform/workflows/enqueue.ts';
import type { DirectDeps } from '../../transports/direct/direct-deps.ts';
import { lookupRecipient } from '../../transports/direct/recipients.ts';
import * as messagesQ from '../messages/queries.ts';
import { isFeatureEnabled } from '../feature-toggles/cache.ts';
import { assertPlanIncludesSending, isHostedDirectAddress, isPlanRestricted } from '../subscriptions/plan-guard.ts';
import * as q from './queries.ts';

export interface DeliveryDeps {
  db: Database;
  now: () => Date;
  // config.faxProvider: with the sandbox, no fax leaves this installation.
  faxProvider?: 'sandbox';
  // For the recipient check: certificate discovery and trust (transports/direct).
  direct?: DirectDeps;
}

export type Caller = OrgCaller;

// send: a new message; forward and reply: a draft made from another message (originalObjectId).
export type SendKind = 'send' | 'forward' | 'reply';

export const SEND_WORKFLOW = 'send-message';

type Draft = NonNullable<Awaited<ReturnType<typeof messagesQ.findById>>>;
type ModelState = Record<string, string[]>;

const TRACKED_REFERRALS_FEATURE = 'AutomatedCarePlans';

function problemList() {
  const problems: ModelState = {};
  const attachmentProblems: ModelState = {};
  return {
    add: (key: string, text: string) => (problems[key] ??= []).push(text),
    addForAttachment: (key: string, text: string) => (attachmentProblems[key] ??= []).push(text),
    // end-user §5 lists "An attachment's information is invalid." first under the heading, once.
    throwIfAny: () => {
      const hasAttachmentProblems = Object.keys(attachmentProblems).length > 0;
      const all: ModelState = hasAttachmentProblems ? { [keys.attachments]: [releaseMessages.attachmentInvalid], ...problems, ...attachmentProblems } : problems;
      if (Object.keys(all).length) throw badRequest(releaseMessages.fixErrorsHeading, all);
    },
  };
}

// end-user §5 "Non-PHI fax": fax numbers only, a subject, one of the organization's fax numbers as
// From and a file; no patient, release type or document rules.
async function validateNonPhiFax(db: DbOrTx, caller: Caller, draft: Draft) {
  const { add, throwIfAny } = problemList();
  const recipients = new Map<string, RecipientAddress>();
  const typed = splitAddresses(draft.toAddress);
  if (typed.length === 0) add(keys.to, nonPhiFaxMessages.toRequired);
  for (const address of typed) {
    const parsed = parseRecipient(address);
    if (parsed?.channel === 'Fax') recipients.set(parsed.address, parsed);
    else add(keys.invalidTo(address), releaseMessages.addressInvalid);
  }
  if (!draft.subject.trim()) add(keys.subject, nonPhiFaxMessages.subjectRequired);

  const from = draft.fromAddress ? parseRecipient(draft.fromAddress) : null;
  const source =
    from?.channel === 'Fax' ? (await messagesQ.findDocumentSources(db, caller.organizationId, messagesQ.senderOf(caller))).find((s) => s.type === 'Fax' && s.fullAddress === from.address) : undefined;
  if (!source) add(keys.from, nonPhiFaxMessages.fromRequired);
  else if (!source.canSend) add(keys.from, releaseMessages.fromNotPermitted);
  const fromSourceId = source?.canSend ? source.id : null;

  const selected = (await messagesQ.findAttachments(db, [draft.id])).filter((a) => a.isSelected);
  if (selected.length === 0) add(keys.attachments, nonPhiFaxMessages.attachmentMissing);

  throwIfAny();
  return { recipients: [...recipients.values()], fromSourceId };
}

// end-user §5 "Release send" and "Patient and document rules on save", every problem at once. Reads
// through the send's transaction, which holds the draft's row lock, so what it checks is what is sent.
async function validate(db: DbOrTx, caller: Caller, draft: Draft, kind: SendKind, now: Date) {
  if (isNonPatientOrigin(draft.origin)) return validateNonPhiFax(db, caller, draft);
  const { add, addForAttachment, throwIfAny } = problemList();
  const today = now.toISOString().slice(0, 10);

  const recipients = new Map<string, RecipientAddress>();
  const typed = splitAddresses(draft.toAddress);
  if (typed.length === 0) add(keys.to, releaseMessages.toRequired);
  for (const address of typed) {
    const parsed = parseRecipient(address);
    if (parsed) recipients.set(parsed.address, parsed);
    else add(keys.invalidTo(address), releaseMessages.addressInvalid);
  }
  // end-user §5/§6: a plan-restricted organization sends only to fax or phone numbers or to addresses hosted here.
  if (await isPlanRestricted(db, caller.organizationId)) {
    for (const r of recipients.values()) {
      if (r.channel === 'Direct' && !(await isHostedDirectAddress(db, r.address))) add(keys.invalidTo(r.address), subscriptionMessages.planRestrictedRecipient);
    }
  }

  // The From must be one of the organization's own document sources (Direct address or fax number).
  let fromSourceId: string | null = null;
  if (!draft.fromAddress) add(keys.from, releaseMessages.fromRequired);
  else {
    const sources = await messagesQ.findDocumentSources(db, caller.organizationId, messagesQ.senderOf(caller));
    const from = parseRecipient(draft.fromAddress)?.address ?? draft.fromAddress.toLowerCase();
    const source = sources.find((s) => s.fullAddress === from);
    if (!source) add(keys.from, releaseMessages.addressInvalid);
    else if (!source.canSend) add(keys.from, releaseMessages.fromNotPermitted);
    else fromSourceId = source.id;
  }

  if (kind !== 'reply' && !draft.releaseTypeId) add(keys.releaseType, releaseMessages.releaseTypeRequired);

  // Patient rules apply to new and forwarded releases; a reply answers about the original's patient.
  const patient = await messagesQ.findPatient(db, draft.id);
  if (kind !== 'reply') {
    if (!patient) add(keys.patient, releaseMessages.patientDetailsRequired);
    else {
      if (!patient.firstName) add(keys.patientField('firstName'), releaseMessages.patientFirstNameRequired);
      if (!patient.lastName) add(keys.patientField('lastName'), releaseMessages.patientLastNameRequired);
      if (!patient.birthDate) add(keys.patientField('birthDate'), releaseMessages.patientBirthDateRequired);
      else if (patient.birthDate > today) add(keys.patientField('birthDate'), releaseMessages.patientBirthDateFuture);
      if (!patient.gender) add(keys.patientField('gender'), releaseMessages.patientGenderRequired);
      // The telephone rule of end-user §5 "Field rules" (as Intake's patient save checks it).
      if (patient.telephone && !isTelephoneNumber(patient.telephone)) add(keys.patientField('telephone'), releaseMessages.patientTelephoneInvalid);
    }
  }

  const selected = (await messagesQ.findAttachments(db, [draft.id])).filter((a) => a.isSelected);
  for (const a of selected) {
    if (draft.conversion === 'Cda' && !a.meta?.documentType) addForAttachment(keys.attachmentField(a.id, 'documentType'), releaseMessages.documentTypeRequired(a.fileName));
    const date = a.meta?.documentDate;
    if (!date) addForAttachment(keys.attachmentField(a.id, 'documentDate'), releaseMessages.documentDateRequired(a.fileName));
    else if (!isValidIsoDate(date) || date > today) addForAttachment(keys.attachmentField(a.id, 'documentDate'), releaseMessages.documentDateFuture);
    if (kind !== 'reply' && !a.meta?.confidentiality) addForAttachment(keys.attachmentField(a.id, 'confidentiality'), releaseMessages.confidentialityRequired(a.fileName));
  }

  throwIfAny();
  return { recipients: [...recipients.values()], fromSourceId };
}

// end-user §6: Track Fax Responses applies when AutomatedCarePlans is on and a recipient is a fax number.
async function tracksFaxResponses(db: DbOrTx, caller: Caller, draft: Draft, recipients: RecipientAddress[]) {
  if (!draft.trackFaxResponses || !recipients.some((r) => r.channel === 'Fax')) return false;
  return isFeatureEnabled(db, caller.organizationId, TRACKED_REFERRALS_FEATURE);
}

export interface SendCommit {
  organizationId: string;
  userId: string;
  ip: string | null;
  messageId: string;
  kind: SendKind;
  recipients: RecipientAddress[];
  fromSourceId: string | null;
  // A tracked referral: a conversation is opened for the fax responses to join.
  tracked: boolean;
  // The sent time: messageDate, and when the deliveries, event and audit entry are recorded.
  now: Date;
}

// The commit of a send, in the caller's transaction: the draft turns into the sent message (Pending),
// one delivery per recipient, the Sent event, the address cache, the send workflow and the audit entry.
// Throws 409 when the message is no longer a draft. sendMessage uses it after validating; the demo
// seed uses it to send its demo messages the same way.
export async function commitSend(tx: DbOrTx, s: SendCommit): Promise<void> {
  const conversationId = s.tracked ? (await q.insertConversation(tx, { organizationId: s.organizationId, type: 'Referral', conversationStatus: 'Draft', createdAt: s.now })).id : null;
  const sent = await q.markSent(tx, s.messageId, {
    trackFaxResponses: s.tracked,
    ...(conversationId ? { conversationId } : {}),
    status: 'Pending',
    messageDate: s.now,
    updatedDate: s.now,
    fromDocumentSourceId: s.fromSourceId,
    isReadyForDeliverySummary: false,
  });
  // Another request sent it between the caller's read and now.
  if (!sent) throw new AppError(409, releaseMessages.notADraft);
  await q.insertDeliveries(
    tx,
    s.recipients.map((r) => ({ messageId: s.messageId, organizationId: s.organizationId, recipient: r.address, channel: r.channel, createdAt: s.now, updatedAt: s.now })),
  );
  await messagesQ.insertEvent(tx, {
    messageId: s.messageId,
    organizationId: s.organizationId,
    userId: s.userId,
    eventType: 'Sent',
    details: { kind: s.kind, recipients: s.recipients.length },
    createdAt: s.now,
  });
  await q.touchCachedAddresses(tx, s.userId, s.recipients.filter((r) => r.channel === 'Direct').map((r) => r.address), s.now);
  await enqueue(tx, { type: SEND_WORKFLOW, organizationId: s.organizationId, correlationId: s.messageId, payload: { messageId: s.messageId } });
  await writeAudit(
    tx,
    { eventType: 'MessageSent', userId: s.userId, organizationId: s.organizationId, ip: s.ip, correlationId: s.messageId, details: { kind: s.kind } },
    s.now,
  );
}

// What the send answer says about recipients that will not really be reached: with the sandbox, every fax number.
// (Direct addresses outside this installation are sent over Direct since issue 12; waiting stays for old clients.)
function recipientNotices(deps: DeliveryDeps, recipients: RecipientAddress[]) {
  const waiting: RecipientNotice[] = [];
  const simulated: RecipientNotice[] = [];
  for (const r of recipients) {
    if (r.channel === 'Fax' && (deps.faxProvider ?? 'sandbox') === 'sandbox') simulated.push({ recipient: r.address, channel: r.channel, reason: sendNotices.sandboxFax });
  }
  return { waiting, simulated };
}

// back-office-a §4: activation enables Release; the web's /release/new guard alone left the API open (issue 26).
async function assertOrganizationActivated(db: DbOrTx, organizationId: string) {
  const [org] = await db.select({ isActivated: organizations.isActivated }).from(organizations).where(eq(organizations.id, organizationId));
  if (!org?.isActivated) throw new AppError(403, activationMessages.sendNotActivated);
}

// POST /api/messages/{id}/send, /forward, /reply: one transaction locks the draft's row, validates
// what it holds and commits the sent message, one delivery per recipient and the send workflow; a
// concurrent save waits for the lock and then finds no draft (409). Answers before anything is delivered.
// A refused send (400) of a draft that only this send's save made (draftSave.beforeSend, no file) discards
// the draft in the same transaction and says so (draftDiscarded): nobody saved it, so nothing is left.
export async function sendMessage(deps: DeliveryDeps, caller: Caller, id: string, kind: SendKind): Promise<SendResult> {
  const now = deps.now();
  await assertOrganizationActivated(deps.db, caller.organizationId);
  // end-user §6: the Stay Connected plan includes no release, forward or reply.
  await assertPlanIncludesSending(deps.db, caller.organizationId);
  const outcome = await deps.db.transaction(async (tx) => {
    const draft = await messagesQ.findByIdForUpdate(tx, caller.organizationId, id);
    if (!draft || draft.direction !== 'Outbound') throw notFound();
    if (!draft.isDraft) throw new AppError(409, releaseMessages.notADraft);
    // Forward and reply send a draft made from another message.
    if (kind !== 'send' && !draft.originalObjectId) throw notFound();
    try {
      // Intake: a message opened from Triage cannot be replied to.
      if (kind === 'reply' && (await messagesQ.findById(tx, caller.organizationId, draft.originalObjectId!))?.sourceType === 'Triage') {
        throw badRequest(intakeMessages.replyFromTriage);
      }
      const { recipients, fromSourceId } = await validate(tx, caller, draft, kind, now);
      const tracked = await tracksFaxResponses(tx, caller, draft, recipients);
      await commitSend(tx, { organizationId: caller.organizationId, userId: caller.session.userId, ip: caller.ip ?? null, messageId: id, kind, recipients, fromSourceId, tracked, now });
      return { kind: 'sent' as const, recipients };
    } catch (error) {
      if (!(error instanceof AppError && error.statusCode === 400) || !(await messagesQ.isUnkeptDraft(tx, id))) throw error;
      await messagesQ.remove(tx, id);
      await writeAudit(tx, { eventType: 'DraftDiscarded', ...auditedBy(caller), correlationId: id, details: { reason: 'SendRefused' } }, now);
      return { kind: 'refused' as const, error };
    }
  });
  if (outcome.kind === 'refused') throw new AppError(400, outcome.error.message, { ...outcome.error.extra, draftDiscarded: true });
  const { waiting, simulated } = recipientNotices(deps, outcome.recipients);
  const message = waiting.length ? sendNotices.sentWithWaiting(waiting.length, outcome.recipients.length) : releaseMessages.sendSuccess;
  return { message, id, waiting, simulated };
}

// Lookups run a few at a time: each may wait on DNS and LDAP timeouts.
const CHECK_CONCURRENCY = 4;

/**
 * POST /api/messages/recipients/check: per To address, what sending to it would meet (issue 12 §4), judged with the
 * outgoing anchors of the caller's organization's Direct domains. Without the Direct transport every Direct address
 * outside this installation is reported as having no certificate.
 */
export async function checkRecipients(deps: DeliveryDeps, caller: Caller, addresses: string[]): Promise<{ recipients: RecipientCheck[] }> {
  const domains = await q.findOrganizationDirectDomains(deps.db, caller.organizationId);
  const unique = [...new Set(addresses.map((a) => a.trim()).filter(Boolean))];
  const results = new Map<string, RecipientCheck>();
  for (let i = 0; i < unique.length; i += CHECK_CONCURRENCY) {
    await Promise.all(
      unique.slice(i, i + CHECK_CONCURRENCY).map(async (address) => {
        const found = deps.direct ? await lookupRecipient(deps.direct, domains, address) : { status: 'NoCertificate' as const, text: recipientCheckTexts.NoCertificate };
        results.set(address, { address, status: found.status, text: found.text, deliverable: ['Hosted', 'Trusted', 'Fax'].includes(found.status) });
      }),
    );
  }
  return { recipients: unique.map((a) => results.get(a)!) };
}
