import type { z } from 'zod';
import { attachmentMessages } from '@clinicrelay/contracts/attachments.ts';
import {
  identityMessages,
  type IdentityDecision,
  type IdentityProofingResult,
  type IdentityProofingStatus,
  type identityRequest,
  type QuizAnswers,
} from '@clinicrelay/contracts/identity-proofing.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import type { Scanner } from '../../platform/antivirus/scanner.ts';
import { auditedBy, writeAudit } from '../../platform/audit.ts';
import type { OrgCaller } from '../../platform/auth/guard.ts';
import type { BlobStore } from '../../platform/blobs/blob-store.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { inspectUpload } from '../../platform/files/file-jobs.ts';
import { detectFileType } from '../../platform/files/file-types.ts';
import type { WorkerPool } from '../../platform/workers/worker-pool.ts';
import * as adminUsersQ from '../admin-users/queries.ts';
import { notifyOperators, type OperatorNoticeDeps } from '../organizations/operator-notices.ts';
import type { IdentityProofingProvider, ProviderStep } from './provider.ts';
import * as q from './queries.ts';

export interface IdentityProofingDeps extends OperatorNoticeDeps {
  db: Database;
  now: () => Date;
  provider: IdentityProofingProvider;
  blobs: BlobStore;
  scanner: Scanner;
  // Threads that parse and decode files, off the API's event loop (as attachments do).
  files: WorkerPool;
}

export interface UploadedDocument {
  fileName: string;
  bytes: Uint8Array;
}

type Identity = z.output<typeof identityRequest>;

// users.idProofStatus as the back office's ID Proofing modal shows it.
const STATUS_OF: Record<IdentityDecision, 'Passed' | 'Failed' | 'Review'> = { Y: 'Passed', N: 'Failed', R: 'Review' };
const DECISION_OF = { Passed: 'Y', Failed: 'N', Review: 'R' } as const;
export const DOCUMENT_SUBMITTED_STATUS = 'Document submitted';

const audit = (db: DbOrTx, caller: OrgCaller, eventType: string, details: Record<string, unknown>, at: Date) =>
  writeAudit(db, { eventType, ...auditedBy(caller), correlationId: caller.session.userId, details }, at);

async function unproofedOrganization(db: DbOrTx, organizationId: string) {
  const org = await q.findOrganizationState(db, organizationId);
  if (!org) throw notFound();
  if (org.isIdProofed) throw badRequest(identityMessages.alreadyProofed);
  return org;
}

const result = (provider: IdentityProofingProvider, step: ProviderStep): IdentityProofingResult =>
  step.kind === 'quiz'
    ? { provider: provider.name, quizId: step.quizId, questions: step.questions, decision: null }
    : { provider: provider.name, quizId: null, questions: [], decision: step.decision };

// A decision is the user's (users.idProofStatus, idProofed) and the organization's (isIdProofed, the attempt date that
// end-user §4 rule 5 reads); Y puts the organization in the back office's activation queue (awaitingActivation).
// A pass that completes onboarding (terms already accepted) mails the system administrators.
async function applyDecision(tx: DbOrTx, deps: IdentityProofingDeps, caller: OrgCaller, decision: IdentityDecision, now: Date) {
  await adminUsersQ.updateUser(tx, caller.session.userId, { idProofStatus: STATUS_OF[decision], idProofed: decision === 'Y', modifiedBy: caller.session.userId, modifiedAt: now });
  await adminUsersQ.setOrganizationsIdProofed(tx, [caller.organizationId], decision === 'Y', now);
  const org = decision === 'Y' ? await q.findOrganizationState(tx, caller.organizationId) : undefined;
  if (org?.isAcceptedEula && !org.isActivated) await notifyOperators(tx, deps, caller.organizationId, 'awaitingActivation');
}

// POST /api/identityproofing/identity: the identity goes to the provider and is not kept (no SSN, no date of birth).
export async function submitIdentity(deps: IdentityProofingDeps, caller: OrgCaller, identity: Identity): Promise<IdentityProofingResult> {
  await unproofedOrganization(deps.db, caller.organizationId);
  // The provider's call happens outside any transaction (it is a network call with a real vendor).
  const step = await deps.provider.start({
    firstName: identity.firstName,
    lastName: identity.lastName,
    dateOfBirth: identity.dateOfBirth,
    ssn: identity.ssn || null,
    phoneNumber: identity.phoneNumber || null,
    currentAddress: { ...identity.currentAddress, addressUnit: identity.currentAddress.addressUnit || null },
    formerAddress: identity.formerAddress ? { ...identity.formerAddress, addressUnit: identity.formerAddress.addressUnit || null } : null,
  });
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const attempt = await q.insertAttempt(tx, {
      userId: caller.session.userId,
      organizationId: caller.organizationId,
      provider: deps.provider.name,
      reference: step.reference,
      status: step.kind === 'quiz' ? 'Questions' : STATUS_OF[step.decision],
      quizId: step.kind === 'quiz' ? step.quizId : null,
      providerState: step.state,
      questionRounds: step.kind === 'quiz' ? 1 : 0,
      createdAt: now,
      decidedAt: step.kind === 'decision' ? now : null,
    });
    await audit(tx, caller, 'IdentityProofingStarted', { attemptId: attempt.id, provider: deps.provider.name, reference: step.reference }, now);
    if (step.kind === 'decision') {
      await applyDecision(tx, deps, caller, step.decision, now);
      await audit(tx, caller, 'IdentityProofingDecided', { attemptId: attempt.id, decision: step.decision }, now);
    }
  });
  return result(deps.provider, step);
}

// POST /api/identityproofing/answers: the open quiz of the caller's attempt; another quiz or the decision.
export async function answerQuiz(deps: IdentityProofingDeps, caller: OrgCaller, body: QuizAnswers): Promise<IdentityProofingResult> {
  const attempt = await q.findAttemptByQuiz(deps.db, body.quizId, caller.session.userId, caller.organizationId);
  if (!attempt) throw notFound();
  if (attempt.status !== 'Questions') throw badRequest(identityMessages.quizExpired);
  const expected = Object.keys(attempt.providerState.expected ?? {});
  if (!expected.every((id) => body.answers.some((a) => a.questionId === id))) throw badRequest(identityMessages.answersRequired, { answers: [identityMessages.answersRequired] });
  const step = await deps.provider.answer(attempt.providerState, body.answers);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    // Answered once: a second post of the same quiz (double click, replay) finds it closed.
    const locked = await q.findAttemptByQuiz(tx, body.quizId, caller.session.userId, caller.organizationId);
    if (locked?.status !== 'Questions') throw badRequest(identityMessages.quizExpired);
    const round = attempt.questionRounds;
    if (step.kind === 'quiz') {
      await q.updateAttempt(tx, attempt.id, { quizId: step.quizId, providerState: step.state, questionRounds: round + 1 });
      await audit(tx, caller, 'IdentityProofingAnswered', { attemptId: attempt.id, round, next: 'Questions' }, now);
      return;
    }
    // The quizId stays: a replay of the last quiz is told it is closed.
    await q.updateAttempt(tx, attempt.id, { status: STATUS_OF[step.decision], providerState: step.state, decidedAt: now });
    await applyDecision(tx, deps, caller, step.decision, now);
    await audit(tx, caller, 'IdentityProofingAnswered', { attemptId: attempt.id, round, next: 'Decision' }, now);
    await audit(tx, caller, 'IdentityProofingDecided', { attemptId: attempt.id, decision: step.decision }, now);
  });
  return result(deps.provider, step);
}

// GET /api/identityproofing: the provider's name and the caller's latest decision (R stays "under review" when the
// dialogs reopen: end-user §4 rule 5 shows N only for an attempt that did not end under review).
export async function status(deps: IdentityProofingDeps, caller: OrgCaller): Promise<IdentityProofingStatus> {
  const [attempt, user] = await Promise.all([
    q.findLatestAttempt(deps.db, caller.session.userId, caller.organizationId),
    q.findUserDocument(deps.db, caller.session.userId),
  ]);
  const decision = attempt && attempt.status !== 'Questions' ? DECISION_OF[attempt.status] : null;
  return { provider: deps.provider.name, decision, documentSubmitted: Boolean(user?.idProofBlobId) };
}

// An infected upload leaves an audit row (the signature's name, never the file's name or bytes) and nothing else.
async function refuseInfected(deps: IdentityProofingDeps, caller: OrgCaller, signature: string, sizeInBytes: number): Promise<never> {
  await audit(deps.db, caller, 'UploadRefusedInfected', { signature, sizeInBytes, purpose: 'IdentityDocument' }, deps.now());
  throw badRequest(attachmentMessages.infected(signature));
}

// POST /api/identityproofing/document: the manual ID after a failed check. Scanned, checked by content (images and
// PDF only) and stored encrypted in the blob store as attachments are; the back office's ID Proofing modal shows it.
export async function submitDocument(deps: IdentityProofingDeps, caller: OrgCaller, read: () => Promise<UploadedDocument>) {
  await unproofedOrganization(deps.db, caller.organizationId);
  const file = await read();
  const verdict = await deps.scanner.scan(file.bytes);
  if (!verdict.clean) await refuseInfected(deps, caller, verdict.signature, file.bytes.length);
  const detected = detectFileType(file.bytes, file.fileName);
  if (!detected.ok || (detected.kind !== 'image' && detected.kind !== 'pdf')) throw badRequest(identityMessages.documentType, { file: [identityMessages.documentType] });
  await inspectUpload(deps.files, file.bytes, detected, caller.organizationId);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const stored = await deps.blobs.put(file.bytes, { organizationId: caller.organizationId }, tx);
    // The replaced document's blob is left to the blob sweep (no row points to it any more).
    await adminUsersQ.updateUser(tx, caller.session.userId, {
      idProofBlobId: stored.id,
      idProofFileName: file.fileName,
      idProofStatus: DOCUMENT_SUBMITTED_STATUS,
      modifiedBy: caller.session.userId,
      modifiedAt: now,
    });
    await audit(tx, caller, 'IdentityDocumentSubmitted', { blobId: stored.id, mimeType: detected.mimeType, sizeInBytes: file.bytes.length }, now);
    await notifyOperators(tx, deps, caller.organizationId, 'awaitingReview');
  });
  return { message: identityMessages.documentSubmitted };
}
