import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { RESELLER_TYPE_AFFILIATE, RESELLER_TYPE_LICENSING, organizationInput, organizationMessages } from '@clinicrelay/contracts/organizations.ts';
import { adminUserCreate, adminUserMessages } from '@clinicrelay/contracts/admin-users.ts';
import {
  batchImportMessages as text,
  MAX_IMPORT_ROWS,
  type batchImportMetadata,
  type batchStatusQuery,
  type BatchStatusItem,
  type ImportRowValues,
} from '@clinicrelay/contracts/batch-imports.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { enqueue } from '../../platform/workflows/enqueue.ts';
import { WorkerFailure, type WorkerPool } from '../../platform/workers/worker-pool.ts';
import { createUser, addUserOrganization, type AdminUsersDeps } from '../admin-users/service.ts';
import * as orgQueries from '../organizations/queries.ts';
import { createOrganization, type OrganizationsDeps } from '../organizations/service.ts';
import type { ImportFileKind, ParsedImportFile } from './parse-file.ts';
import * as q from './queries.ts';

export const BATCH_IMPORT_WORKFLOW = 'batch-organization-import';

export interface BatchImportUploadDeps {
  db: Database;
  now: () => Date;
  // The file workers: a spreadsheet is unzipped and parsed there, never on the API's thread.
  files: WorkerPool;
}

// What the rows are imported with: the organization and admin-user services and their dependencies.
export interface BatchImportDeps {
  db: Database;
  organizations: OrganizationsDeps;
  adminUsers: AdminUsersDeps;
}

type Metadata = z.output<typeof batchImportMetadata>;
// The metadata as the rows use it: the spec's one resellerId placed by its type.
export interface ImportSettings {
  hispProviderId: number;
  brandId: string;
  planId: string | null;
  affiliateResellerId: string | null;
  licensingResellerId: string | null;
  organizationSpecialtyId: number;
  organizationTypeId: number;
}

// The administrator who uploaded the file: the rows are created in their name (audit, createdBy).
export interface ImportCaller {
  userId: string;
  userName: string;
  ip: string | null;
}

const parseModule = new URL('./parse-file.ts', import.meta.url).href;
const field = (name: string, message: string) => badRequest(message, { [name]: [message] });

export const fileKindOf = (fileName: string): ImportFileKind | null => (/\.csv$/i.test(fileName) ? 'csv' : /\.xlsx$/i.test(fileName) ? 'xlsx' : null);

// The form's choices exist (as the organization form checks them), so a wrong choice is one message, not one per row.
async function settingsOf(db: DbOrTx, metadata: Metadata): Promise<ImportSettings> {
  const problems: Record<string, string[]> = {};
  const refuse = (name: string, message: string = organizationMessages.chooseFromList) => (problems[name] ??= []).push(message);
  if (!(await orgQueries.brandExists(db, metadata.brandId))) refuse('brandId');
  if (!(await orgQueries.typeExists(db, metadata.type))) refuse('type');
  if (!(await orgQueries.specialtyExists(db, metadata.specialty))) refuse('specialty');
  if (!(await orgQueries.hispExists(db, metadata.hispProviderId))) refuse('hispProviderId');
  // §3: a null plan is the Free plan.
  const planId = metadata.planId ?? (await orgQueries.findFreePlan(db))?.id ?? null;
  if (metadata.planId && !(await orgQueries.findPlan(db, metadata.planId))) refuse('planId');
  let affiliateResellerId = metadata.affiliateResellerId;
  let licensingResellerId = metadata.licensingResellerId;
  const checkReseller = async (name: string, id: string | null, type: number | null, wrongType: string) => {
    if (!id) return null;
    const reseller = await orgQueries.findReseller(db, id);
    if (!reseller) refuse(name);
    else if (type !== null && reseller.type !== type) refuse(name, wrongType);
    return reseller ?? null;
  };
  await checkReseller('affiliateResellerId', affiliateResellerId, RESELLER_TYPE_AFFILIATE, organizationMessages.notAnAffiliate);
  await checkReseller('licensingResellerId', licensingResellerId, RESELLER_TYPE_LICENSING, organizationMessages.notALicenser);
  const reseller = await checkReseller('resellerId', metadata.resellerId, null, '');
  if (reseller?.type === RESELLER_TYPE_LICENSING) licensingResellerId ??= reseller.id;
  else if (reseller) affiliateResellerId ??= reseller.id;
  const texts = Object.values(problems).flat();
  if (texts.length > 0) throw badRequest(texts.length === 1 ? texts[0]! : 'There are invalid fields on this page.', problems);
  return { hispProviderId: metadata.hispProviderId, brandId: metadata.brandId, planId, affiliateResellerId, licensingResellerId, organizationSpecialtyId: metadata.specialty, organizationTypeId: metadata.type };
}

async function parseInWorker(files: WorkerPool, bytes: Buffer, kind: ImportFileKind) {
  const parsed = await files.run<ParsedImportFile>({ module: parseModule, fn: 'parseImportFile', args: [new Uint8Array(bytes), kind, MAX_IMPORT_ROWS], organizationId: null }).catch((error: unknown) => {
    // Out of memory or time in its worker (a zip bomb, a crafted sheet): the file is refused, the API goes on.
    if (error instanceof WorkerFailure) throw field('file', text.unreadable);
    throw error;
  });
  if ('rows' in parsed) return parsed.rows;
  const message =
    parsed.refusal === 'missingColumns' ? text.missingColumns(parsed.columns) : parsed.refusal === 'tooManyRows' ? text.tooManyRows(MAX_IMPORT_ROWS) : parsed.refusal === 'noRows' ? text.noRows : text.unreadable;
  throw field('file', message);
}

/** POST /api/admin/import/organization: the file is read and checked, its rows stored, and the import workflow queued. */
export async function importOrganizations(deps: BatchImportUploadDeps, caller: AdminCaller, metadata: Metadata, file: { fileName: string; bytes: Buffer }) {
  const kind = fileKindOf(file.fileName);
  if (!kind) throw field('file', text.fileType);
  const settings = await settingsOf(deps.db, metadata);
  const rows = await parseInWorker(deps.files, file.bytes, kind);
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  const importer: ImportCaller = { userId: caller.session.userId, userName: caller.session.userName, ip: caller.ip ?? null };
  const batch = await deps.db.transaction(async (tx) => {
    const row = await q.insertBatch(tx, { fileName: file.fileName, fileSha256: sha256, metadata: { ...settings }, rowCount: rows.length, createdBy: caller.session.userId, createdAt: deps.now() });
    await q.insertItems(
      tx,
      rows.map((r) => ({ batchId: row.id, rowNumber: r.rowNumber, key: `${sha256}:${r.rowNumber}`, values: r.values })),
    );
    // The workflow commits with the rows: a crash after the answer never loses the import.
    const workflowId = await enqueue(tx, { type: BATCH_IMPORT_WORKFLOW, correlationId: row.id, payload: { batchId: row.id, caller: importer } });
    await q.setBatchWorkflow(tx, row.id, workflowId);
    await writeAudit(tx, { eventType: 'OrganizationBatchImported', ...auditedByAdmin(caller), details: { batchId: row.id, fileName: file.fileName, rows: rows.length, sha256 } });
    return row;
  });
  return { id: batch.id, fileName: batch.fileName, rows: rows.length, message: text.imported };
}

/** GET /api/admin/import: every file's rows, newest file first. */
export async function listItems(deps: { db: Database }, query: z.output<typeof batchStatusQuery>) {
  const page = await q.findItemPage(deps.db, query.search || undefined, { pageNumber: query.pageNumber, pageSize: query.pageSize });
  return {
    totalCount: page.totalCount,
    items: page.items.map(
      ({ item, batch, createdBy }): BatchStatusItem => ({
        id: item.id,
        batchId: batch.id,
        batchType: batch.batchType,
        itemStatus: item.itemStatus as BatchStatusItem['itemStatus'],
        itemError: item.itemError,
        key: item.key,
        rowNumber: item.rowNumber,
        name: item.values.name || null,
        organizationId: item.organizationId,
        fileName: batch.fileName,
        batchStatus: batch.status as BatchStatusItem['batchStatus'],
        primaryContactStatus: item.primaryContactStatus as BatchStatusItem['primaryContactStatus'],
        pcsErrors: item.pcsErrors,
        createdBy,
        createDate: batch.createdAt.toISOString(),
      }),
    ),
  };
}

// ---- The rows, one at a time (called by the workflow).

const blank = (v: string | undefined) => (v ? v : null);

/** The organization form's input for a row: its columns with the import form's choices. */
export function organizationInputOf(values: ImportRowValues, settings: ImportSettings) {
  return {
    name: values.name ?? '',
    subdomain: values.subdomain ?? '',
    brandId: settings.brandId,
    organizationTypeId: settings.organizationTypeId,
    organizationSpecialtyId: settings.organizationSpecialtyId,
    planId: settings.planId,
    affiliateResellerId: settings.affiliateResellerId,
    licensingResellerId: settings.licensingResellerId,
    tierCode: blank(values.tierCode),
    organizationNpi: blank(values.organizationNpi),
    organizationEmr: blank(values.organizationEmr),
    hispProviderId: settings.hispProviderId,
    address: { street: values.street ?? '', unit: blank(values.unit), city: values.city ?? '', state: values.state ?? '', zip: values.zip ?? '', country: values.country || 'US' },
    primaryPhone: values.primaryPhone ?? '',
    primaryFax: blank(values.primaryFax),
    primaryContactFirstName: values.primaryContactFirstName ?? '',
    primaryContactLastName: values.primaryContactLastName ?? '',
    primaryContactEmail: values.primaryContactEmail ?? '',
    primaryContactTitle: blank(values.primaryContactTitle),
    primaryContactNpi: blank(values.primaryContactNpi),
    // Imported organizations start Not Activated: an operator activates each once it is provisioned (activationWarning).
    isActivated: false,
  };
}

// The contact's phone, checked as the organization's phone is (mask, no toll-free number).
const contactPhone = organizationInput.shape.primaryPhone;

// A field that may be empty or a number (the fax) fails as a union: its message is the number's, not zod's "Invalid input".
function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_union') return issue.message;
  const last = issue.errors[issue.errors.length - 1]?.[0];
  return last ? messageOf(last) : issue.message;
}

/** Every message of the row, as the organization form shows them, each with the row number. */
export function rowProblems(rowNumber: number, values: ImportRowValues, settings: ImportSettings): { input?: z.output<typeof organizationInput>; phone?: string; problems: string[] } {
  const problems: string[] = [];
  const parsed = organizationInput.safeParse(organizationInputOf(values, settings));
  if (!parsed.success) problems.push(...parsed.error.issues.map(messageOf));
  let phone: string | undefined;
  if (values.primaryContactPhone) {
    const checked = contactPhone.safeParse(values.primaryContactPhone);
    if (checked.success) phone = checked.data;
    else problems.push(...checked.error.issues.map((issue) => `Contact phone: ${messageOf(issue)}`));
  }
  return { ...(parsed.success ? { input: parsed.data } : {}), ...(phone ? { phone } : {}), problems: [...new Set(problems)].map((p) => text.row(rowNumber, p)) };
}

// A refusal of the services (subdomain taken, a user name in use) as the row's text; anything else is no verdict
// on the row (the database is down): it is thrown, and the workflow tries the row again.
function refusalOf(rowNumber: number, error: unknown): string | null {
  if (!(error instanceof AppError) || error.statusCode >= 500) return null;
  const texts = error.extra.modelState ? [...new Set(Object.values(error.extra.modelState).flat())] : [error.message];
  return texts.map((t) => text.row(rowNumber, t)).join('\n');
}

const adminCallerOf = (caller: ImportCaller): AdminCaller => ({
  session: { userId: caller.userId, userName: caller.userName, sessionId: '', organizationId: null, roles: ['SysAdmin'], organizationCancelled: false },
  ip: caller.ip ?? undefined,
});

/**
 * One row: its organization, then its primary contact as Administrator. Each creation records itself on the item in
 * the creating transaction, so a row interrupted anywhere (a crash, a restart) is resumed where it stopped and never
 * creates anything twice.
 */
export async function importRow(deps: BatchImportDeps, importer: ImportCaller, settings: ImportSettings, item: q.ItemRow, jobFunctionId: number | undefined) {
  const caller = adminCallerOf(importer);
  const values = item.values as ImportRowValues;
  const checked = rowProblems(item.rowNumber, values, settings);
  let { organizationId } = item;
  if (item.itemStatus === 'Pending') {
    // The same row of the same file was imported before: nothing is created twice.
    if (await q.createdForKey(deps.db, item.key)) {
      await q.updateItem(deps.db, item.id, { itemStatus: 'Skipped', itemError: text.row(item.rowNumber, text.alreadyImported), primaryContactStatus: 'NotStarted' });
      return;
    }
    if (!checked.input) {
      await q.updateItem(deps.db, item.id, { itemStatus: 'Failed', itemError: checked.problems.join('\n'), primaryContactStatus: 'NotStarted' });
      return;
    }
    try {
      await createOrganization(deps.organizations, caller, checked.input, {
        within: async (tx, id) => {
          await q.updateItem(tx, item.id, { itemStatus: 'Created', organizationId: id, itemError: null });
          organizationId = id;
        },
      });
    } catch (error) {
      const refusal = refusalOf(item.rowNumber, error);
      if (refusal === null) throw error;
      await q.updateItem(deps.db, item.id, { itemStatus: 'Failed', itemError: refusal, primaryContactStatus: 'NotStarted' });
      return;
    }
  } else if (item.itemStatus !== 'Created') return;
  if (item.primaryContactStatus !== 'Pending' || !checked.input || !organizationId) return;
  await importPrimaryContact(deps, caller, item, checked.input, checked.phone, organizationId, jobFunctionId);
}

async function importPrimaryContact(
  deps: BatchImportDeps,
  caller: AdminCaller,
  item: q.ItemRow,
  input: z.output<typeof organizationInput>,
  phone: string | undefined,
  organizationId: string,
  jobFunctionId: number | undefined,
) {
  const userName = input.primaryContactEmail.toLowerCase();
  const record = (status: 'Created' | 'Added') => async (tx: DbOrTx, userId: string) => {
    if (phone) await q.setUserPhone(tx, userId, phone);
    await q.updateItem(tx, item.id, { primaryContactStatus: status, userId, pcsErrors: null });
  };
  try {
    const existing = await q.findUserIdByUserName(deps.db, userName);
    if (existing) {
      // A person already on the platform (one manager of several clinics): made Administrator of this one too.
      await addUserOrganization(deps.adminUsers, caller, { userId: existing, organizationId, role: 'Administrator', jobFunctionId: jobFunctionId ?? 0 }, { within: (tx) => record('Added')(tx, existing) });
      return;
    }
    const body = adminUserCreate.parse({
      userDetails: {
        userName,
        firstName: input.primaryContactFirstName,
        lastName: input.primaryContactLastName,
        email: input.primaryContactEmail,
        roleName: 'Administrator',
        primaryJobFunction: { id: jobFunctionId ?? 0 },
      },
      organizationId,
      // The account-creation mail through the outbox, as the user form's 'Send account creation email' does.
      emailCreatePassword: true,
    });
    await createUser(deps.adminUsers, caller, body, { within: record('Created') });
  } catch (error) {
    const refusal = isZodError(error) ? text.row(item.rowNumber, adminUserMessages.userNameInvalid) : refusalOf(item.rowNumber, error);
    if (refusal === null) throw error;
    await q.updateItem(deps.db, item.id, { primaryContactStatus: 'Failed', pcsErrors: refusal });
  }
}

const isZodError = (error: unknown) => error instanceof Error && error.name === 'ZodError';
