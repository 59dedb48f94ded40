import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { importColumns } from '@clinicrelay/contracts/batch-imports.ts';
import { adminUserCreate } from '@clinicrelay/contracts/admin-users.ts';
import { organizationInput } from '@clinicrelay/contracts/organizations.ts';
import type { Database } from '../apps/server/src/db/client.ts';
import { users } from '../apps/server/src/db/schema/users.ts';
import { createBlobStore } from '../apps/server/src/platform/blobs/blob-store.ts';
import type { AdminCaller } from '../apps/server/src/platform/auth/guard.ts';
import { batchImportDeps } from '../apps/server/src/platform/workflows/registry.ts';
import { runOnce } from '../apps/server/src/platform/workflows/runner.ts';
import { createUser } from '../apps/server/src/modules/admin-users/service.ts';
import { createOrganization } from '../apps/server/src/modules/organizations/service.ts';
import { BATCH_IMPORT_WORKFLOW, type ImportSettings, organizationInputOf } from '../apps/server/src/modules/batch-imports/service.ts';
import { batchImportWorkflow } from '../apps/server/src/modules/batch-imports/workflow.ts';
import { benchApp, benchPostgresUrl, PASSWORD } from './bench-app.ts';
import { sized } from './size.ts';

// Issue 29 §2: "a 1,000-row file imports in under a minute". The file goes through POST /api/admin/import/organization
// (read and checked in a file worker) and the import workflow; the baseline creates the same number of organizations
// and their Administrators through the plain services (the organization form's and the user form's calls), in the
// same process on the same database. BENCH_IMPORT_ROWS sets the size (default 1,000; 20 under BENCH_TINY).
const ROWS = Number(process.env.BENCH_IMPORT_ROWS) || sized(1000, 20);
const TARGET_MS = 60_000;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

const cells = (prefix: string, n: number): Record<string, string> => ({
  name: `Bench Clinic ${prefix} ${n}`,
  subdomain: `bench${prefix}${n}`,
  street: `${n} Bench Street`,
  city: 'Portland',
  state: 'OR',
  zip: '97201',
  primaryPhone: '(503) 555-0100',
  primaryContactFirstName: 'Bea',
  primaryContactLastName: 'Bench',
  primaryContactEmail: `bea.${prefix}${n}@bench.example.org`,
});

function csvOf(prefix: string, rows: number) {
  const header = importColumns.map((c) => c.header);
  const lines = [header.join(',')];
  for (let n = 1; n <= rows; n++) {
    const values = cells(prefix, n);
    lines.push(importColumns.map((c) => values[c.key] ?? '').join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export async function batchImportBenchmarks(): Promise<string[]> {
  const databaseUrl = await benchPostgresUrl();
  const { app, handle, config, close } = await benchApp({ databaseUrl });
  const lines: string[] = [];
  try {
    const login = await app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: 'sysadmin@example.org', password: PASSWORD } });
    const { accessToken } = login.json<{ accessToken: string }>();
    const metadata = { hispProviderId: 1, brandId: 'clinicrelay', planId: null, resellerId: null, specialty: 2, type: 1 };
    const form = new FormData();
    form.append('metadata', JSON.stringify(metadata));
    form.append('file', new Blob([csvOf('f', ROWS)]), 'bench.csv');
    const request = new Response(form);
    const body = Buffer.from(await request.arrayBuffer());

    const t0 = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/import/organization',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': request.headers.get('content-type')! },
      payload: body,
    });
    if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
    const uploaded = performance.now() - t0;
    const deps = batchImportDeps({ config, db: handle.db, now: () => new Date() }, createBlobStore({ db: handle.db, dataDir: config.dataDir, key: config.blobEncryptionKey }));
    await runOnce({ db: handle.db, handlers: new Map([[BATCH_IMPORT_WORKFLOW, batchImportWorkflow(deps)]]), logger: quiet });
    const total = performance.now() - t0;
    const statuses = await app.inject({ method: 'GET', url: `/api/admin/import?pageSize=1&search=${encodeURIComponent('bench.csv')}`, headers: { authorization: `Bearer ${accessToken}` } });
    const page = statuses.json<{ totalCount: number; items: { batchStatus: string }[] }>();
    if (page.totalCount !== ROWS || page.items[0]?.batchStatus !== 'Completed') throw new Error(`import did not complete: ${statuses.body}`);

    // Baseline: the same organizations and Administrators through the plain services, one after another.
    const caller: AdminCaller = { session: { userId: await sysAdminId(handle), userName: 'sysadmin@example.org', sessionId: '', organizationId: null, roles: ['SysAdmin'], organizationCancelled: false } };
    const settings: ImportSettings = { hispProviderId: 1, brandId: 'clinicrelay', planId: null, affiliateResellerId: null, licensingResellerId: null, organizationSpecialtyId: 2, organizationTypeId: 1 };
    const b0 = performance.now();
    for (let n = 1; n <= ROWS; n++) {
      const input = organizationInput.parse(organizationInputOf(cells('p', n), settings));
      const org = await createOrganization(deps.organizations, caller, input);
      await createUser(
        deps.adminUsers,
        caller,
        adminUserCreate.parse({ userDetails: { userName: input.primaryContactEmail, firstName: 'Bea', lastName: 'Bench', roleName: 'Administrator', primaryJobFunction: { id: 1 } }, organizationId: org.id, emailCreatePassword: true }),
      );
    }
    const baseline = performance.now() - b0;
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    lines.push(
      `batch-import: ${ROWS.toLocaleString('en-US')} rows on ${handle.kind}: uploaded and read in ${uploaded.toFixed(0)} ms, imported (organizations + Administrators + account mails) in ${s(total)} (target under a minute${ROWS === 1000 ? `: ${total < TARGET_MS ? 'met' : 'NOT met'}` : ' for 1,000 rows'}), ${((total / ROWS) * 1000).toFixed(0)} µs/row`,
    );
    lines.push(`batch-import: baseline, the same ${ROWS.toLocaleString('en-US')} organizations and Administrators through the plain services: ${s(baseline)} (import / baseline = ${(total / baseline).toFixed(2)})`);
  } finally {
    await close();
  }
  return lines;
}

async function sysAdminId(handle: { db: Database }) {
  const [row] = await handle.db.select({ id: users.id }).from(users).where(eq(users.userName, 'sysadmin@example.org'));
  return row!.id;
}
