import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { directoryDownloadColumns, directoryDownloadMessages as text } from '@clinicrelay/contracts/directory-downloads.ts';
import { directoryEntries } from '../../db/schema/directory.ts';
import { directoryDownloadParts } from '../../db/schema/directory-downloads.ts';
import { workflows } from '../../db/schema/workflows.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { workflowContext } from '../../platform/workflows/context.ts';
import { useTestApp, type TestContext } from '../../test/app.ts';
import { DIRECTORY_DOWNLOAD_WORKFLOW, directoryDownloadWorkflow } from './workflow.ts';

const ADMIN = 'sysadmin@example.org';
const BASE = '/api/directory/downloads';
const OTHERS = ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org'];

const person = (npi: string, lastName: string, extra: Partial<typeof directoryEntries.$inferInsert> = {}) => ({
  npi,
  entityType: 1,
  lastName,
  firstName: 'Pat',
  city: 'Salem',
  state: 'OR',
  zip: '97301',
  nameNorm: `${lastName.toLowerCase()} pat`,
  ...extra,
});

// Runs the download's workflow as a worker would (small parts, so the file has several).
async function runWorkflow(t: TestContext, downloadId: string, batchSize = 2) {
  const db = t.handle.db;
  const [workflow] = await db.select().from(workflows).where(eq(workflows.correlationId, `directory-download:${downloadId}`));
  expect(workflow?.type).toBe(DIRECTORY_DOWNLOAD_WORKFLOW);
  const blobs = createBlobStore({ db, dataDir: t.config.dataDir, key: t.config.blobEncryptionKey });
  await directoryDownloadWorkflow({ blobs, batchSize })(workflowContext({ db, workflow: workflow!, now: () => t.clock.now, signal: new AbortController().signal }));
}

const csvLines = (body: string) => body.split('\r\n').filter(Boolean);

describe('directory downloads (/api/directory/downloads)', () => {
  const t = useTestApp();

  it('makes a CSV of the provider directory in a workflow, in parts, and lists it with its file and log', async () => {
    await t.handle.db.insert(directoryEntries).values([
      person('1000000001', 'Abbott', { directAddress: 'abbott@direct.example.net', phonePrimary: '5035550001' }),
      person('1000000002', 'Baker, Jr.'),
      person('1000000003', 'Cole'),
      person('1000000004', 'Gone', { active: false }),
      { npi: '1000000005', entityType: 2, organizationName: '=Formula Clinic', nameNorm: 'formula clinic' },
    ]);
    const requested = await t.call(ADMIN, 'POST', `${BASE}/request`, { type: 'Providers', mode: 'Full' });
    expect(requested.statusCode, requested.body).toBe(200);
    const download = requested.json();
    expect(download).toMatchObject({ item: 'Providers', mode: 'Full', status: 'Pending', fileUrl: null });
    expect((await t.call(ADMIN, 'GET', `${BASE}/${download.id}/file`)).json()).toEqual({ message: text.notReady });

    await runWorkflow(t, download.id);
    const parts = await t.handle.db.select().from(directoryDownloadParts).where(eq(directoryDownloadParts.downloadId, download.id));
    // Three active providers, two a part: parts of 2 and 1 rows.
    expect(parts.map((p) => p.rowCount)).toEqual([2, 1]);

    const list = (await t.call(ADMIN, 'GET', `${BASE}?pageNumber=1&pageSize=10`)).json();
    expect(list.items[0]).toMatchObject({ id: download.id, status: 'Completed', rowCount: 3, fileUrl: `/api/directory/downloads/${download.id}/file`, hasLogMessage: true });

    const file = await t.call(ADMIN, 'GET', list.items[0].fileUrl);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.headers['content-disposition']).toMatch(/attachment; filename="directory_providers_full_/);
    const lines = csvLines(file.body);
    expect(lines[0]).toBe(directoryDownloadColumns.join(','));
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['1000000001', '1000000002', '1000000003']);
    expect(lines[1]).toContain('Provider,Abbott,Pat,,,,abbott@direct.example.net,5035550001');
    expect(lines[2]).toContain('"Baker, Jr."');

    const log = (await t.call(ADMIN, 'GET', `${BASE}/${download.id}/logmessage`)).json();
    expect(log.logMessage).toContain('Full download of providers');
    expect(log.logMessage).toContain('Wrote 3 rows in 2 parts');

    // All, full: the organization too, its formula-looking name defused.
    const all = (await t.call(ADMIN, 'POST', `${BASE}/request`, { type: 'All', mode: 'Full' })).json();
    await runWorkflow(t, all.id, 1000);
    const allLines = csvLines((await t.call(ADMIN, 'GET', `${BASE}/${all.id}/file`)).body);
    expect(allLines).toHaveLength(5);
    expect(allLines[4]).toContain("1000000005,Organization,,,,'=Formula Clinic");
  });

  it('writes only what changed since the last download of the type in incremental mode, deactivations included', async () => {
    const db = t.handle.db;
    const first = (await t.call(ADMIN, 'POST', `${BASE}/request`, { type: 'Organizations', mode: 'Incremental' })).json();
    await runWorkflow(t, first.id);
    expect((await t.call(ADMIN, 'GET', `${BASE}/${first.id}/logmessage`)).json().logMessage).toContain('No earlier Organizations download had completed');

    await db.insert(directoryEntries).values({ npi: '1000000006', entityType: 2, organizationName: 'New Clinic', nameNorm: 'new clinic' });
    await db.update(directoryEntries).set({ active: false, importedAt: new Date(Date.now() + 1000) }).where(eq(directoryEntries.npi, '1000000005'));
    await new Promise((r) => setTimeout(r, 5));
    const second = (await t.call(ADMIN, 'POST', `${BASE}/request`, { type: 'Organizations', mode: 'Incremental' })).json();
    // The deactivation is stamped a second ahead; the cut-off of this run is the database's now, so move it past.
    await db.update(directoryEntries).set({ importedAt: new Date() }).where(eq(directoryEntries.npi, '1000000005'));
    await runWorkflow(t, second.id);
    const lines = csvLines((await t.call(ADMIN, 'GET', `${BASE}/${second.id}/file`)).body);
    expect(lines.slice(1).map((l) => [l.split(',')[0], l.split(',')[15]])).toEqual([
      ['1000000005', 'N'],
      ['1000000006', 'Y'],
    ]);
  });

  it('refuses a request without type or mode', async () => {
    for (const [body, field] of [
      [{ mode: 'Full' }, 'type'],
      [{ type: 'All' }, 'mode'],
      [{ type: 'Everything', mode: 'Full' }, 'type'],
      [{ type: 'All', mode: '' }, 'mode'],
    ] as const) {
      const res = await t.call(ADMIN, 'POST', `${BASE}/request`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: text.notSent, modelState: { [field]: [field === 'type' ? text.typeRequired : text.modeRequired] } });
    }
  });

  it('searches and sorts the list', async () => {
    const byItem = (await t.call(ADMIN, 'GET', `${BASE}?search=organizations&pageSize=50`)).json();
    expect(byItem.items.length).toBeGreaterThan(0);
    expect(byItem.items.every((d: { item: string }) => d.item === 'Organizations')).toBe(true);
    const asc = (await t.call(ADMIN, 'GET', `${BASE}?sortDirection=asc&pageSize=50`)).json().items.map((d: { occurred: string }) => d.occurred);
    expect(asc).toEqual([...asc].sort());
    expect((await t.call(ADMIN, 'GET', `${BASE}/00000000-0000-4000-8000-000000000000/logmessage`)).statusCode).toBe(404);
  });

  it('answers system administrators only', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const user of OTHERS) {
      for (const [method, url, body] of [['GET', BASE], ['GET', `${BASE}/${id}/logmessage`], ['POST', `${BASE}/request`, { type: 'All', mode: 'Full' }], ['GET', `${BASE}/${id}/file`]] as const) {
        expect((await t.call(user, method, url, body)).statusCode, `${user} ${method} ${url}`).toBe(403);
      }
    }
  });
});
