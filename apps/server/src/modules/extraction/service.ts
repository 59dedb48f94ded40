import type { z } from 'zod';
import { extractionSeveralPeople, type extractionStatus } from '@clinicrelay/contracts/intake.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { writeAudit } from '../../platform/audit.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import * as attachmentsQ from '../attachments/queries.ts';
import { messageVisibleTo, viewerOf } from '../intake/queries.ts';
import * as messagesQ from '../messages/queries.ts';
import type { Caller } from '../messages/service.ts';
import { isFeatureEnabled } from '../feature-toggles/cache.ts';
import * as q from './queries.ts';
import { enqueueExtraction, pdfBlobIdOf } from './workflow.ts';

export type { Caller };

export const PATIENT_EXTRACTION_FEATURE = 'PatientExtractionAPI';

// Not in the spec. A feature that is off is answered 404, like a call that does not exist for the
// organization (a 403 would send the web client to /unauthorized), with a text that says why.
export const extractionMessages = {
  notEnabled: 'Patient extraction is not enabled for your organization.',
  noPdf: 'This attachment has no PDF to read the patient from.',
  pdfNotReady: 'The PDF of this attachment is still being prepared. Please try again shortly.',
} as const;

export interface ExtractionDeps {
  db: Database;
  now: () => Date;
}

type ExtractionStatus = z.infer<typeof extractionStatus>;

async function requireFeature(db: DbOrTx, caller: Caller) {
  if (!(await isFeatureEnabled(db, caller.organizationId, PATIENT_EXTRACTION_FEATURE))) throw new AppError(404, extractionMessages.notEnabled);
}

// The attachment of a message the caller may see (Intake visibility); anything else does not exist.
async function attachmentOf(db: DbOrTx, caller: Caller, messageId: string, attachmentId: string) {
  const message = await messagesQ.findById(db, caller.organizationId, messageId, messageVisibleTo(viewerOf(caller)));
  const row = message && (await attachmentsQ.findById(db, caller.organizationId, messageId, attachmentId));
  if (!row) throw notFound();
  return row;
}

// The patient as extracted, never merged: filling only the empty fields is the client's (end-user §4).
const statusOf = (run: q.ExtractionRow): ExtractionStatus => ({
  status: run.status,
  patient: run.status === 'Completed' ? run.patient : null,
  warning: run.status === 'Completed' && run.severalPeople ? extractionSeveralPeople : null,
});

const audit = (deps: ExtractionDeps, caller: Caller, eventType: string, messageId: string, details: Record<string, unknown>, ip: string) =>
  writeAudit(
    deps.db,
    { eventType, userId: caller.session.userId, userName: caller.session.userName, organizationId: caller.organizationId, ip, correlationId: messageId, details },
    deps.now(),
  );

// PUT .../patient/extract: starts a run (or answers the one still running) and its workflow.
export async function start(deps: ExtractionDeps, caller: Caller, messageId: string, attachmentId: string, ip: string): Promise<ExtractionStatus> {
  await requireFeature(deps.db, caller);
  const attachment = await attachmentOf(deps.db, caller, messageId, attachmentId);
  if (attachment.previewStatus === 'Processing') throw new AppError(409, extractionMessages.pdfNotReady);
  if (!pdfBlobIdOf(attachment)) throw badRequest(extractionMessages.noPdf);
  const running = await q.findLatest(deps.db, caller.organizationId, attachmentId);
  const run =
    running?.status === 'Processing'
      ? running
      : await deps.db.transaction(async (tx) => {
          const created = await q.insert(tx, { organizationId: caller.organizationId, messageId, attachmentId, status: 'Processing', createdAt: deps.now() });
          await enqueueExtraction(tx, created);
          return created;
        });
  await audit(deps, caller, 'PatientExtractionStarted', messageId, { attachmentId, extractionId: run.id }, ip);
  return statusOf(run);
}

// GET .../patient: the latest run's status and the patient it read.
export async function latest(deps: ExtractionDeps, caller: Caller, messageId: string, attachmentId: string, ip: string): Promise<ExtractionStatus> {
  await requireFeature(deps.db, caller);
  await attachmentOf(deps.db, caller, messageId, attachmentId);
  const run = await q.findLatest(deps.db, caller.organizationId, attachmentId);
  if (!run) throw notFound();
  await audit(deps, caller, 'PatientExtractionViewed', messageId, { attachmentId, extractionId: run.id, status: run.status }, ip);
  return statusOf(run);
}
