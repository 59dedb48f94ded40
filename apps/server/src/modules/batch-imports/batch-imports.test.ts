import { count, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchImportMessages as text, importColumns, importTemplateCsv, MAX_IMPORT_FILE_BYTES, type BatchStatusItem, type BatchStatusPage } from '@clinicrelay/contracts/batch-imports.ts';
import { organizationMessages } from '@clinicrelay/contracts/organizations.ts';
import { subscriptionPlans, resellers } from '../../db/schema/back-office.ts';
import { batchImportItems } from '../../db/schema/batch-imports.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { seedDemoResellers } from '../../db/seed/demo-resellers.ts';
import { workflows } from '../../db/schema/workflows.ts';
import { useTestApp, type TestContext } from '../../test/app.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { batchImportDeps } from '../../platform/workflows/registry.ts';
import { runOnce, startWorkers } from '../../platform/workflows/runner.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { BATCH_IMPORT_WORKFLOW } from './service.ts';
import { batchImportWorkflow } from './workflow.ts';

const ADMIN = 'sysadmin@example.org';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

type Row = Record<string, string>;
const HEADER = importColumns.map((c) => c.header);
const row = (n: number, over: Row = {}): Row => ({
  'Organization Name': `Harbor Clinic ${n}`,
  Subdomain: `harbor${n}`,
  NPI: '',
  EMR: '',
  'Tier Code': '',
  Street: `${n} Harbor Street`,
  Unit: '',
  City: 'Portland',
  State: 'OR',
  Zip: '97201',
  Country: '',
  Phone: '(503) 555-0100',
  'Primary Fax': '',
  'Contact First Name': 'Hana',
  'Contact Last Name': 'Harbor',
  'Contact Email': `hana${n}@harbor.example.org`,
  'Contact Phone': '',
  'Contact Title': '',
  'Contact NPI': '',
  ...over,
});
const csvOf = (rows: Row[], header: readonly string[] = HEADER) =>
  [header, ...rows.map((r) => header.map((h) => r[h] ?? ''))].map((cells) => cells.map((c) => (/[",\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',')).join('\r\n') + '\r\n';

async function xlsxOf(rows: Row[]) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Organizations');
  sheet.addRow(HEADER);
  for (const r of rows) sheet.addRow(HEADER.map((h) => r[h] ?? ''));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// The import form as the screen sends it: the file and the metadata as one JSON part.
async function upload(t: TestContext, user: string, file: [string, string | Buffer] | undefined, metadata: unknown) {
  const form = new FormData();
  if (metadata !== undefined) form.append('metadata', JSON.stringify(metadata));
  if (file) form.append('file', new Blob([typeof file[1] === 'string' ? file[1] : new Uint8Array(file[1])]), file[0]);
  const request = new Response(form);
  const { accessToken } = await t.login(user);
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/import/organization',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

const META = { hispProviderId: 1, brandId: 'clinicrelay', planId: null, resellerId: null, specialty: 2, type: 1 };

function helpers(t: TestContext) {
  const db = () => t.handle.db;
  const deps = () => batchImportDeps({ config: t.config, db: db(), now: () => t.clock.now }, createBlobStore({ db: db(), dataDir: t.config.dataDir, key: t.config.blobEncryptionKey }));
  // Only the import's workflows: the mails it queues stay in the outbox to be counted.
  const runImports = (beforeRow?: (n: number) => Promise<void>) =>
    runOnce({ db: db(), handlers: new Map([[BATCH_IMPORT_WORKFLOW, batchImportWorkflow({ ...deps(), ...(beforeRow ? { beforeRow } : {}) })]]), logger: quiet });
  const importFile = async (file: [string, string | Buffer], metadata: unknown = META) => {
    const res = await upload(t, ADMIN, file, metadata);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string; rows: number; message: string }>();
  };
  const items = async (batchId: string) => {
    const res = await t.call(ADMIN, 'GET', '/api/admin/import?pageSize=100');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<BatchStatusPage>().items.filter((i) => i.batchId === batchId);
  };
  const orgsNamed = (subdomains: string[]) => db().select().from(organizations).where(inArray(organizations.subdomain, subdomains));
  const mailsTo = async (address: string) => (await db().select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.toAddress, address)))[0]!.n;
  return { db, deps, runImports, importFile, items, orgsNamed, mailsTo };
}

describe('batch organization import: who may', () => {
  const t = useTestApp();
  it.each(['admin@lakeside.example.org', 'user@lakeside.example.org', 'reporting@example.org'])('%s is refused both calls (403)', async (user) => {
    expect((await t.call(user, 'GET', '/api/admin/import')).statusCode).toBe(403);
    expect((await upload(t, user, ['a.csv', csvOf([row(1)])], META)).statusCode).toBe(403);
  });
  it('an anonymous caller is refused (401)', async () => {
    expect((await t.call(null, 'GET', '/api/admin/import')).statusCode).toBe(401);
  });
});

describe('batch organization import: the form (back-office-b §5: file, plan, HISP, brand, type, specialty required)', () => {
  const t = useTestApp();
  const modelState = (res: { json: () => unknown }) => (res.json() as { modelState?: Record<string, string[]> }).modelState ?? {};

  it('refuses a form without a file', async () => {
    const res = await upload(t, ADMIN, undefined, META);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: text.fileRequired, modelState: { file: [text.fileRequired] } });
  });
  it('refuses a file that is neither .csv nor .xlsx, before reading it', async () => {
    const res = await upload(t, ADMIN, ['clinics.xls', 'x'], META);
    expect(res.json()).toMatchObject({ message: text.fileType });
  });
  it('names every missing choice: plan, HISP, brand, type, specialty', async () => {
    const res = await upload(t, ADMIN, ['a.csv', csvOf([row(1)])], {});
    expect(res.statusCode).toBe(400);
    expect(modelState(res)).toMatchObject({
      planId: ['Plan is required.'],
      hispProviderId: [text.hispRequired],
      brandId: [text.brandRequired],
      type: [text.typeRequired],
      specialty: [text.specialtyRequired],
    });
  });
  it('refuses a choice that is not in the lists, and a reseller of the other role', async () => {
    await seedDemoResellers(t.handle.db);
    const [licenser] = await t.handle.db.select().from(resellers).where(eq(resellers.type, 1)).limit(1);
    const res = await upload(t, ADMIN, ['a.csv', csvOf([row(1)])], { ...META, brandId: 'nobrand', hispProviderId: 999, planId: 'noplan', affiliateResellerId: licenser!.id });
    expect(modelState(res)).toEqual({
      brandId: [organizationMessages.chooseFromList],
      hispProviderId: [organizationMessages.chooseFromList],
      planId: [organizationMessages.chooseFromList],
      affiliateResellerId: [organizationMessages.notAnAffiliate],
    });
  });
  it('refuses a file without the required columns, naming them', async () => {
    const res = await upload(t, ADMIN, ['a.csv', 'Organization Name,City\r\nHarbor,Portland\r\n'], META);
    expect(res.json()).toMatchObject({ message: text.missingColumns(['Subdomain', 'Street', 'State', 'Zip', 'Phone', 'Contact First Name', 'Contact Last Name', 'Contact Email']) });
  });
  it('refuses a file with a header only, and a spreadsheet that is not one', async () => {
    expect((await upload(t, ADMIN, ['a.csv', csvOf([])], META)).json()).toMatchObject({ message: text.noRows });
    expect((await upload(t, ADMIN, ['a.xlsx', 'not a zip'], META)).json()).toMatchObject({ message: text.unreadable });
  });
  it('refuses a file over 5 MB with 413', async () => {
    const res = await upload(t, ADMIN, ['big.csv', 'x'.repeat(MAX_IMPORT_FILE_BYTES + 1)], META);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ message: text.fileTooLarge });
  });
  it('the template has every column and one valid row', () => {
    const [header] = importTemplateCsv().split('\r\n');
    expect(header).toBe(HEADER.join(','));
  });
});

describe('batch organization import: rows become organizations with their primary contact as Administrator', () => {
  const t = useTestApp();
  const h = helpers(t);
  let batchId: string;
  let statuses: BatchStatusItem[];
  let planId: string;

  beforeAll(async () => {
    planId = (await t.handle.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.isFree, false)).limit(1))[0]!.id;
    const rows = [
      row(1, { 'Contact Phone': '503-555-0199', 'Primary Fax': '5035550102', NPI: '1234567893' }),
      // Every field of the organization form wrong at once.
      row(2, {
        'Organization Name': 'Ha',
        Subdomain: 'bad_sub',
        NPI: '1234567890',
        Street: 'Harbor',
        City: '',
        State: 'XX',
        Zip: '123',
        Phone: '(800) 555-0100',
        'Primary Fax': '12',
        'Contact First Name': 'H',
        'Contact Last Name': '',
        'Contact Email': 'not-an-email',
        'Contact Phone': '555',
        'Contact NPI': '12345678901',
      }),
      // The subdomain of a demo organization.
      row(3, { Subdomain: 'lakeside' }),
      // A contact already on the platform: made Administrator of the new organization too.
      row(4, { 'Contact Email': 'user@riverview.example.org' }),
      row(5, { 'Organization Name': 'Harbor "North", Annex' }),
    ];
    const accepted = await h.importFile(['Harbor clinics.csv', csvOf(rows)], { ...META, planId });
    expect(accepted).toMatchObject({ rows: 5, message: 'The file was imported successfully. Please check the status screen.' });
    batchId = accepted.id;
    expect((await h.items(batchId)).every((i) => i.itemStatus === 'Pending' && i.batchStatus === 'Pending')).toBe(true);
    await h.runImports();
    statuses = await h.items(batchId);
  });

  it('creates the valid rows with the form’s metadata, Not Activated, by the importing administrator', async () => {
    const [org] = await h.orgsNamed(['harbor1']);
    expect(org).toMatchObject({ name: 'Harbor Clinic 1', brandId: 'clinicrelay', organizationTypeId: 1, organizationSpecialtyId: 2, hispProviderId: 1, planId, isActivated: false, primaryFax: '5035550102', organizationNpi: '1234567893', primaryPhone: '5035550100', addressCountry: 'US' });
    expect((await h.orgsNamed(['harbor5']))[0]!.name).toBe('Harbor "North", Annex');
    expect(statuses.map((s) => [s.rowNumber, s.itemStatus, s.primaryContactStatus])).toEqual([
      [2, 'Created', 'Created'],
      [3, 'Failed', 'NotStarted'],
      [4, 'Failed', 'NotStarted'],
      [5, 'Created', 'Added'],
      [6, 'Created', 'Created'],
    ]);
    expect(statuses[0]).toMatchObject({ batchType: 'Organization', fileName: 'Harbor clinics.csv', batchStatus: 'CompletedWithErrors', name: 'Harbor Clinic 1', itemError: null, pcsErrors: null, createdBy: ADMIN });
    expect(statuses[0]!.key).toMatch(/^[0-9a-f]{64}:2$/);
  });

  it('the primary contact is the organization’s Administrator with an account-creation mail in the outbox', async () => {
    const [org] = await h.orgsNamed(['harbor1']);
    const [user] = await t.handle.db.select().from(users).where(eq(users.userName, 'hana1@harbor.example.org'));
    expect(user).toMatchObject({ firstName: 'Hana', lastName: 'Harbor', passwordHash: null, phoneNumber: '5035550199' });
    const [membership] = await t.handle.db.select().from(memberships).where(eq(memberships.userId, user!.id));
    expect(membership).toMatchObject({ organizationId: org!.id, role: 'Administrator' });
    expect(await h.mailsTo('hana1@harbor.example.org')).toBe(1);
  });

  it('an existing user becomes Administrator of the new organization, without a new account', async () => {
    const [org] = await h.orgsNamed(['harbor4']);
    const [user] = await t.handle.db.select().from(users).where(eq(users.userName, 'user@riverview.example.org'));
    const roles = await t.handle.db.select().from(memberships).where(eq(memberships.userId, user!.id));
    expect(roles.find((m) => m.organizationId === org!.id)?.role).toBe('Administrator');
    expect(await h.mailsTo('user@riverview.example.org')).toBe(0);
  });

  it('a row that fails shows every message of the organization form, each with its row number', () => {
    const errors = statuses[1]!.itemError!.split('\n');
    expect(errors).toEqual(
      [
        'Name must be at least 3 characters.',
        organizationMessages.subdomainInvalid,
        organizationMessages.npiInvalid,
        organizationMessages.streetInvalid,
        'City is required.',
        'State must be a US state or territory.',
        'Zip must be 5 or 9 digits.',
        organizationMessages.phoneTollFree,
        organizationMessages.faxInvalid,
        'First name must be at least 2 characters.',
        'Last name must be at least 2 characters.',
        organizationMessages.emailInvalid,
        'Contact NPI must be at most 10 characters.',
        `Contact phone: ${organizationMessages.phoneInvalid}`,
      ].map((m) => `Row 3: ${m}`),
    );
  });

  it('a refusal of the organization service (a subdomain in use) is the row’s error; the others went on', () => {
    expect(statuses[2]).toMatchObject({ itemStatus: 'Failed', itemError: `Row 4: ${organizationMessages.subdomainInvalid}`, organizationId: null });
  });

  it('searches the status list by file name, organization name or error, and pages it', async () => {
    const search = async (q: string) => (await t.call(ADMIN, 'GET', `/api/admin/import?search=${encodeURIComponent(q)}`)).json<BatchStatusPage>();
    expect((await search('Harbor clinics')).totalCount).toBe(5);
    expect((await search('Harbor Clinic 3')).items.map((i) => i.rowNumber)).toEqual([4]);
    expect((await search('toll-free')).items.map((i) => i.rowNumber)).toEqual([3]);
    const page = (await t.call(ADMIN, 'GET', '/api/admin/import?pageNumber=2&pageSize=2')).json<BatchStatusPage>();
    expect(page).toMatchObject({ totalCount: 5 });
    expect(page.items.map((i) => i.rowNumber)).toEqual([4, 5]);
  });

  it('a re-import of the same file creates nothing twice: its rows are Skipped', async () => {
    const rows = [row(1, { 'Contact Phone': '503-555-0199', 'Primary Fax': '5035550102', NPI: '1234567893' })];
    // A new file with the first row only (another hash) would fail on the subdomain; the same content is skipped.
    const again = await h.importFile(['Harbor clinics (copy).csv', csvOf([...rows, row(2, { 'Organization Name': 'Ha', Subdomain: 'bad_sub', NPI: '1234567890', Street: 'Harbor', City: '', State: 'XX', Zip: '123', Phone: '(800) 555-0100', 'Primary Fax': '12', 'Contact First Name': 'H', 'Contact Last Name': '', 'Contact Email': 'not-an-email', 'Contact Phone': '555', 'Contact NPI': '12345678901' }), row(3, { Subdomain: 'lakeside' }), row(4, { 'Contact Email': 'user@riverview.example.org' }), row(5, { 'Organization Name': 'Harbor "North", Annex' })])], { ...META, planId });
    await h.runImports();
    const second = await h.items(again.id);
    expect(second.map((s) => s.itemStatus)).toEqual(['Skipped', 'Failed', 'Failed', 'Skipped', 'Skipped']);
    expect(second[0]!.itemError).toBe(`Row 2: ${text.alreadyImported}`);
    expect(await h.orgsNamed(['harbor1', 'harbor4', 'harbor5'])).toHaveLength(3);
    expect(await h.mailsTo('hana1@harbor.example.org')).toBe(1);
  });
});

describe('batch organization import: an XLSX file', () => {
  const t = useTestApp();
  const h = helpers(t);
  it('reads the first sheet with the same columns (header case and spacing ignored)', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Clinics');
    sheet.addRow(['ORGANIZATION NAME', 'subdomain', 'street', 'city', 'state', 'zip', 'phone', 'contact_first_name', 'Contact Last Name', 'contact email']);
    sheet.addRow(['Bayside Pediatrics', 'bayside', '9 Bay Road', 'Seattle', 'wa', 98101, 2065550100, 'Bo', 'Bay', 'bo@bayside.example.org']);
    sheet.addRow([]);
    sheet.addRow([{ richText: [{ text: 'Cove ' }, { text: 'Clinic' }] }, 'cove', '1 Cove Lane', 'Seattle', 'WA', '98101', '(206) 555-0101', 'Cy', 'Cove', { text: 'cy@cove.example.org', hyperlink: 'mailto:cy@cove.example.org' }]);
    const accepted = await h.importFile(['clinics.XLSX', Buffer.from(await workbook.xlsx.writeBuffer())]);
    expect(accepted.rows).toBe(2);
    await h.runImports();
    const statuses = await h.items(accepted.id);
    expect(statuses.map((s) => [s.rowNumber, s.itemStatus, s.primaryContactStatus])).toEqual([
      [2, 'Created', 'Created'],
      [4, 'Created', 'Created'],
    ]);
    expect((await h.orgsNamed(['bayside', 'cove'])).map((o) => [o.name, o.addressState, o.primaryPhone]).sort()).toEqual([
      ['Bayside Pediatrics', 'WA', '2065550100'],
      ['Cove Clinic', 'WA', '2065550101'],
    ]);
  });
  it('a workbook made by xlsxOf imports too (the format the e2e journey uploads)', async () => {
    const accepted = await h.importFile(['more.xlsx', await xlsxOf([row(41)])]);
    await h.runImports();
    expect((await h.items(accepted.id))[0]).toMatchObject({ itemStatus: 'Created', primaryContactStatus: 'Created' });
  });
});

describe('batch organization import: a restart mid-import', () => {
  const t = useTestApp();
  const h = helpers(t);
  const ROWS = 60;

  it('a runner stopped mid-import leaves the rest to a new runner, which creates every organization exactly once', async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => row(100 + i));
    const accepted = await h.importFile(['restart.csv', csvOf(rows)]);
    // The first runner stops at row 30 (a deploy): its run is abandoned in the middle of its first step.
    let reached!: () => void;
    const atRow30 = new Promise<void>((resolve) => (reached = resolve));
    // Never settled: a process that is gone does not come back to finish its step (releasing it here raced the check below).
    const held = new Promise<void>(() => undefined);
    const first = await startWorkers({
      db: h.db(),
      handlers: new Map([[BATCH_IMPORT_WORKFLOW, batchImportWorkflow({ ...h.deps(), beforeRow: async (n) => (n === 31 ? (reached(), held) : undefined) })]]),
      logger: quiet,
      concurrency: 1,
      stopTimeoutMs: 50,
      pollIntervalMs: 20,
    });
    await atRow30;
    await first.stop();
    const created = (await t.handle.db.select().from(batchImportItems).where(eq(batchImportItems.batchId, accepted.id))).filter((i) => i.itemStatus === 'Created');
    expect(created.length).toBe(29);
    // The process is gone: its lease runs out, and a new runner (another process) takes the workflow over.
    await t.handle.db.update(workflows).set({ lockedUntil: new Date(Date.now() - 60_000) }).where(eq(workflows.type, BATCH_IMPORT_WORKFLOW));
    expect(await h.runImports()).toBe(1);
    const statuses = await h.items(accepted.id);
    expect(statuses).toHaveLength(ROWS);
    expect(statuses.every((s) => s.itemStatus === 'Created' && s.primaryContactStatus === 'Created' && s.batchStatus === 'Completed')).toBe(true);
    const subdomains = rows.map((r) => r.Subdomain!);
    expect(await h.orgsNamed(subdomains)).toHaveLength(ROWS);
    const contacts = await t.handle.db.select().from(users).where(inArray(users.userName, rows.map((r) => r['Contact Email']!)));
    expect(contacts).toHaveLength(ROWS);
    expect((await t.handle.db.select({ n: count() }).from(mailOutbox).where(inArray(mailOutbox.toAddress, rows.map((r) => r['Contact Email']!))))[0]!.n).toBe(ROWS);
    const [workflow] = await t.handle.db.select().from(workflows).where(eq(workflows.type, BATCH_IMPORT_WORKFLOW));
    expect(workflow).toMatchObject({ status: 'Completed', attempts: 2 });
  }, 120_000);

  it('a crash between a row’s organization and its contact resumes with the contact only', async () => {
    const rows = [row(200), row(201)];
    const accepted = await h.importFile(['crash.csv', csvOf(rows)]);
    let crashed = false;
    // Row 3's organization is created and committed; the process dies before its contact (simulated by a throw).
    const handler = batchImportWorkflow({ ...h.deps(), beforeRow: async (n) => {
      if (n === 3 && !crashed) {
        crashed = true;
        const [item] = await t.handle.db.select().from(batchImportItems).where(eq(batchImportItems.batchId, accepted.id)).orderBy(batchImportItems.rowNumber);
        expect(item!.primaryContactStatus).toBe('Created');
        throw new Error('The process died.');
      }
    } });
    await runOnce({ db: h.db(), handlers: new Map([[BATCH_IMPORT_WORKFLOW, handler]]), logger: quiet });
    await t.handle.db.update(workflows).set({ runAfter: new Date(Date.now() - 1000) }).where(eq(workflows.correlationId, accepted.id));
    await runOnce({ db: h.db(), handlers: new Map([[BATCH_IMPORT_WORKFLOW, handler]]), logger: quiet });
    expect((await h.items(accepted.id)).map((s) => [s.itemStatus, s.primaryContactStatus])).toEqual([
      ['Created', 'Created'],
      ['Created', 'Created'],
    ]);
    expect(await h.orgsNamed(['harbor200', 'harbor201'])).toHaveLength(2);
    expect(await h.mailsTo('hana200@harbor.example.org')).toBe(1);
  });
});
