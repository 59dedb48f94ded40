import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { downloadMessages as text, MAX_DOWNLOAD_FILE_BYTES } from '@clinicrelay/contracts/downloads.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { brands } from '../../db/schema/back-office.ts';
import { blobs } from '../../db/schema/blobs.ts';
import { downloads } from '../../db/schema/downloads.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { createTestApp, useTestApp, type TestContext } from '../../test/app.ts';
import { uploadDownload } from './service.ts';

const ADMIN = 'sysadmin@example.org';
const REPORTING = 'reporting@example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';

type Fields = Record<string, string>;
const installer = Buffer.from('MZ\x90\x00 ClinicRelay Desktop 2.1 installer bytes \x00\x01\x02\xff');

// POST /api/downloads/upload (or PUT …/update) as a browser's FormData sends it.
async function sendForm(t: TestContext, user: string, method: 'POST' | 'PUT', url: string, fields: Fields, file?: [string, Uint8Array]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([Buffer.from(file[1])]), file[0]);
  const request = new Response(form);
  const { accessToken } = await t.login(user);
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

const desktop: Fields = {
  displayName: 'ClinicRelay Desktop',
  downloadTag: 'desktop',
  name: 'ClinicRelayDesktop',
  description: 'Print to ClinicRelay from any Windows application.',
  'platform.os': 'Windows',
  'platform.version': '10',
  'platform.supportedVersions': '10, 11',
  isDownloadable: 'true',
  downloadOnFree: 'true',
  isVisible: 'true',
  version: '2.1.0',
};

describe('downloads (end-user §7 "Fax and other", back-office-b "Downloads")', () => {
  const t = useTestApp();
  const upload = (fields: Fields, file: [string, Uint8Array] | null = ['ClinicRelay Setup 2.1.exe', installer], user = ADMIN) => sendForm(t, user, 'POST', '/api/downloads/upload', fields, file ?? undefined);
  const published = async (user: string) => {
    const res = await t.call(user, 'GET', '/api/downloads');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ displayName: string; id: string }[]>().map((d) => d.displayName);
  };
  const created = async (fields: Fields) => {
    const res = await upload(fields);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string }>().id;
  };

  it('a system administrator uploads a file, inactive until activated; users then see and download it', async () => {
    const res = await upload(desktop);
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json();
    expect(item).toMatchObject({
      displayName: 'ClinicRelay Desktop',
      downloadTag: 'desktop',
      brandId: null,
      platform: { os: 'Windows', version: '10', supportedVersions: '10, 11' },
      isDownloadable: true,
      downloadOnFree: true,
      isVisible: true,
      isActive: false,
      version: '2.1.0',
      fileName: 'ClinicRelay Setup 2.1.exe',
      sizeInBytes: installer.length,
      contentType: 'application/vnd.microsoft.portable-executable',
      downloadUrl: `/api/downloads/${item.id}/download`,
    });
    expect(item.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.call(ADMIN, 'GET', `/api/downloads/${item.id}`)).json()).toEqual(item);

    // Not yet activated: the organization sees nothing and its download is 404, as if it did not exist.
    expect(await published(LAKESIDE_USER)).not.toContain('ClinicRelay Desktop');
    expect((await t.call(LAKESIDE_USER, 'GET', item.downloadUrl)).statusCode).toBe(404);
    // The publisher may fetch it to check it before activating.
    expect((await t.call(ADMIN, 'GET', item.downloadUrl)).rawPayload).toEqual(installer);

    const activated = await t.call(ADMIN, 'PUT', `/api/downloads/${item.id}/activate`);
    expect(activated.json()).toMatchObject({ id: item.id, isActive: true });
    expect(await published(LAKESIDE_USER)).toContain('ClinicRelay Desktop');
    const listed = (await t.call(LAKESIDE_USER, 'GET', '/api/downloads')).json<Record<string, unknown>[]>().find((d) => d.id === item.id)!;
    expect(listed).toEqual({
      id: item.id,
      displayName: 'ClinicRelay Desktop',
      name: 'ClinicRelayDesktop',
      description: 'Print to ClinicRelay from any Windows application.',
      platform: { os: 'Windows', version: '10', supportedVersions: '10, 11' },
      version: '2.1.0',
      isDownloadable: true,
      fileName: 'ClinicRelay Setup 2.1.exe',
      sizeInBytes: installer.length,
      downloadUrl: item.downloadUrl,
      modifiedDate: expect.any(String),
    });

    const file = await t.call(LAKESIDE_USER, 'GET', item.downloadUrl);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload).toEqual(installer);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="ClinicRelay Setup 2.1.exe"; filename*=UTF-8''ClinicRelay%20Setup%202.1.exe`);
    expect(file.headers['content-type']).toBe('application/vnd.microsoft.portable-executable');
    expect(file.headers['cache-control']).toBe('no-store');
    expect((await t.call(null, 'GET', item.downloadUrl)).statusCode).toBe(401);

    const deactivated = await t.call(ADMIN, 'PUT', `/api/downloads/${item.id}/deactivate`);
    expect(deactivated.json()).toMatchObject({ isActive: false });
    expect(await published(LAKESIDE_USER)).not.toContain('ClinicRelay Desktop');
    expect((await t.call(LAKESIDE_USER, 'GET', item.downloadUrl)).statusCode).toBe(404);

    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'id' = ${item.id}`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['DownloadActivated', 'DownloadCreated', 'DownloadDeactivated']);
  });

  it('shows organizations only what is visible, downloadable, of their brand and, on a free plan, offered on free', async () => {
    await t.handle.db.insert(brands).values({ id: 'partnerbrand', name: 'Partner Brand' }).onConflictDoNothing();
    const make = async (displayName: string, extra: Fields) => {
      const id = await created({ ...desktop, displayName, downloadTag: displayName, ...extra });
      expect((await t.call(ADMIN, 'PUT', `/api/downloads/${id}/activate`)).statusCode).toBe(200);
      return id;
    };
    const hidden = await make('Hidden tool', { isVisible: 'false' });
    const listedOnly = await make('Coming soon', { isDownloadable: 'false' });
    const ours = await make('Our brand driver', { brandId: 'clinicrelay' });
    const theirs = await make('Partner driver', { brandId: 'partnerbrand' });
    const paid = await make('Paid plans only', { downloadOnFree: 'false' });

    expect(await published(LAKESIDE_USER)).toEqual(expect.arrayContaining(['Coming soon', 'Our brand driver', 'Paid plans only']));
    expect(await published(LAKESIDE_USER)).not.toEqual(expect.arrayContaining(['Hidden tool']));
    expect(await published(LAKESIDE_USER)).not.toContain('Partner driver');
    for (const id of [hidden, listedOnly, theirs]) expect((await t.call(LAKESIDE_USER, 'GET', `/api/downloads/${id}/download`)).statusCode, id).toBe(404);
    for (const id of [ours, paid]) expect((await t.call(LAKESIDE_USER, 'GET', `/api/downloads/${id}/download`)).statusCode, id).toBe(200);

    // Riverview on the free plan: the paid-only file is neither listed nor downloadable.
    await t.handle.db.update(organizations).set({ planId: 'free' }).where(eq(organizations.subdomain, 'riverview'));
    expect(await published(RIVERVIEW_USER)).toContain('Our brand driver');
    expect(await published(RIVERVIEW_USER)).not.toContain('Paid plans only');
    expect((await t.call(RIVERVIEW_USER, 'GET', `/api/downloads/${paid}/download`)).statusCode).toBe(404);
    await t.handle.db.update(organizations).set({ planId: 'professional' }).where(eq(organizations.subdomain, 'riverview'));

    // Platform staff outside an organization see every published file.
    expect(await published(ADMIN)).toEqual(expect.arrayContaining(['Partner driver', 'Paid plans only']));
    expect(await published(ADMIN)).not.toContain('Hidden tool');
  });

  it('says what is wrong with an upload at its field', async () => {
    for (const [fields, message, field] of [
      [{ ...desktop, displayName: '  ' }, 'Display name is required.', 'displayName'],
      [{ ...desktop, downloadTag: '' }, 'Download tag is required.', 'downloadTag'],
      [{ ...desktop, displayName: 'x'.repeat(256) }, 'Display name must be at most 255 characters.', 'displayName'],
      [{ ...desktop, downloadTag: 'x'.repeat(256) }, 'Download tag must be at most 255 characters.', 'downloadTag'],
      [{ ...desktop, 'platform.os': 'x'.repeat(51) }, 'OS must be at most 50 characters.', 'platform.os'],
      [{ ...desktop, version: 'x'.repeat(21) }, 'Version must be at most 20 characters.', 'version'],
      [{ ...desktop, isVisible: 'maybe' }, 'This field must be true or false.', 'isVisible'],
      [{ ...desktop, brandId: 'nobrand', version: '9.9.9' }, text.brandUnknown, 'brandId'],
    ] as const) {
      const res = await upload(fields);
      expect(res.statusCode, message).toBe(400);
      expect(res.json(), message).toMatchObject({ message, modelState: { [field]: [message] } });
    }
    const { displayName: _, ...withoutName } = desktop;
    expect((await upload(withoutName)).json().message).toBe('Display name is required.');

    const noFile = await upload({ ...desktop, version: '3.0' }, null);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({ message: 'You must select a file.', modelState: { file: ['You must select a file.'] } });
    expect((await upload({ ...desktop, version: '3.0' }, ['empty.exe', new Uint8Array()])).json().message).toBe('You must select a file.');
    expect((await t.call(ADMIN, 'POST', '/api/downloads/upload', { displayName: 'JSON' })).json().message).toBe('You must select a file.');

    // The version is unique for its download tag; another tag may use it.
    await created({ ...desktop, downloadTag: 'unique-check', version: '1.0' });
    const again = await upload({ ...desktop, downloadTag: 'unique-check', version: '1.0' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: text.versionTaken, modelState: { version: [text.versionTaken] } });
    expect((await upload({ ...desktop, downloadTag: 'another-tag', version: '1.0' })).statusCode).toBe(200);

    const big = await upload({ ...desktop, downloadTag: 'big', version: '1' }, ['big.zip', new Uint8Array(MAX_DOWNLOAD_FILE_BYTES + 1)]);
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe(text.fileTooLarge);
  });

  it('updates the fields with JSON or a new file, and deletes the download with its file', async () => {
    const id = await created({ ...desktop, downloadTag: 'edit', version: '1.0' });
    const before = (await t.call(ADMIN, 'GET', `/api/downloads/${id}`)).json();
    const edited = await t.call(ADMIN, 'PUT', `/api/downloads/${id}/update`, {
      displayName: 'Print driver',
      downloadTag: 'edit',
      description: null,
      platform: { os: 'macOS', version: '14', supportedVersions: null },
      isDownloadable: false,
      downloadOnFree: false,
      isVisible: true,
      version: '1.1',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ displayName: 'Print driver', description: null, platform: { os: 'macOS', version: '14', supportedVersions: null }, isDownloadable: false, downloadOnFree: false, version: '1.1', fileName: before.fileName, sha256: before.sha256 });
    // Keeping its own version is no conflict.
    expect((await t.call(ADMIN, 'PUT', `/api/downloads/${id}/update`, { displayName: 'Print driver', downloadTag: 'edit', version: '1.1' })).statusCode).toBe(200);
    const bad = await t.call(ADMIN, 'PUT', `/api/downloads/${id}/update`, { displayName: '', downloadTag: 'edit' });
    expect(bad.json()).toMatchObject({ message: 'Display name is required.', modelState: { displayName: ['Display name is required.'] } });

    const [{ blobId: oldBlobId }] = (await t.handle.db.select({ blobId: downloads.blobId }).from(downloads).where(eq(downloads.id, id))) as [{ blobId: string }];
    const replacement = Buffer.from('%PDF-1.7 driver guide');
    const replaced = await sendForm(t, ADMIN, 'PUT', `/api/downloads/${id}/update`, { displayName: 'Print driver', downloadTag: 'edit', version: '1.2' }, ['guide.pdf', replacement]);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ fileName: 'guide.pdf', contentType: 'application/pdf', sizeInBytes: replacement.length, version: '1.2' });
    expect((await t.call(ADMIN, 'GET', `/api/downloads/${id}/download`)).rawPayload).toEqual(replacement);
    // The replaced file's blob is gone.
    expect(await t.handle.db.select().from(blobs).where(eq(blobs.id, oldBlobId))).toEqual([]);

    const [{ blobId: currentBlobId }] = (await t.handle.db.select({ blobId: downloads.blobId }).from(downloads).where(eq(downloads.id, id))) as [{ blobId: string }];
    expect((await t.call(ADMIN, 'DELETE', `/api/downloads/${id}`)).json()).toEqual({ ok: true });
    expect(await t.handle.db.select().from(blobs).where(eq(blobs.id, currentBlobId))).toEqual([]);
    for (const [method, url] of [
      ['GET', `/api/downloads/${id}`],
      ['DELETE', `/api/downloads/${id}`],
      ['PUT', `/api/downloads/${id}/activate`],
      ['PUT', `/api/downloads/${id}/deactivate`],
      ['GET', `/api/downloads/${id}/download`],
    ] as const) {
      expect((await t.call(ADMIN, method, url)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await t.call(ADMIN, 'PUT', `/api/downloads/${id}/update`, { displayName: 'Gone', downloadTag: 'edit' })).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'GET', '/api/downloads/not-an-id')).statusCode).toBe(400);
  });

  it('lists every download for the back office, searched, sorted and paged', async () => {
    for (const [displayName, tag] of [['Zeta scanner app', 'zeta'], ['alpha fax driver', 'alpha'], ['Beta viewer', 'beta']] as const) {
      t.clock.now = new Date(t.clock.now.getTime() + 60_000);
      await created({ ...desktop, displayName, downloadTag: tag, version: '5.0' });
    }
    const page = async (query: string) => {
      const res = await t.call(ADMIN, 'GET', `/api/downloads/getpaged${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ items: { displayName: string }[]; totalCount: number }>();
      return { names: body.items.map((d) => d.displayName), totalCount: body.totalCount };
    };
    expect(await page('?search=ALPHA')).toEqual({ names: ['alpha fax driver'], totalCount: 1 });
    expect((await page('?search=a&col=displayName&sortDir=asc&pageSize=100')).names.slice(0, 2)).toEqual(['alpha fax driver', 'Beta viewer']);
    expect((await page('?pageSize=2')).names).toHaveLength(2);
    expect((await page('?col=createDate&sortDir=desc&pageSize=1')).names).toEqual(['Beta viewer']);
    expect((await t.call(ADMIN, 'GET', '/api/downloads/getpaged?col=sha256')).statusCode).toBe(400);
  });

  it('refuses organization users and the reporting role on every back-office call', async () => {
    const id = await created({ ...desktop, downloadTag: 'roles', version: '1.0' });
    for (const user of [LAKESIDE_USER, LAKESIDE_ADMIN, REPORTING]) {
      for (const [method, url] of [
        ['GET', '/api/downloads/getpaged'],
        ['GET', `/api/downloads/${id}`],
        ['PUT', `/api/downloads/${id}/update`],
        ['PUT', `/api/downloads/${id}/activate`],
        ['PUT', `/api/downloads/${id}/deactivate`],
        ['DELETE', `/api/downloads/${id}`],
      ] as const) {
        const res = await t.call(user, method, url, method === 'PUT' ? { displayName: 'x', downloadTag: 'y' } : undefined);
        expect(res.statusCode, `${user} ${method} ${url}`).toBe(403);
      }
      expect((await upload({ ...desktop, downloadTag: 'roles', version: '2.0' }, null, user)).statusCode).toBe(403);
    }
    expect((await t.call(ADMIN, 'GET', `/api/downloads/${id}`)).json()).toMatchObject({ isActive: false, displayName: 'ClinicRelay Desktop' });
  });
});

describe('download uploads while the virus scanner is unavailable', () => {
  it('are refused with 503 and nothing is stored', async () => {
    // A closed loopback port: clamd is configured but does not answer.
    const t = await createTestApp({ config: { CLAMD_URL: 'tcp://127.0.0.1:9' } });
    try {
      const res = await sendForm(t, ADMIN, 'POST', '/api/downloads/upload', desktop, ['setup.exe', installer]);
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe(text.scannerUnavailable);
      expect(res.headers['retry-after']).toBe('60');
      expect((await t.call(ADMIN, 'GET', '/api/downloads/getpaged')).json().totalCount).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('download uploads the virus scanner flags', () => {
  const t = useTestApp();

  it('are refused with the signature at the file field, audited, and nothing is stored', async () => {
    const [admin] = await t.handle.db.select({ id: users.id }).from(users).where(eq(users.userName, ADMIN));
    const deps = {
      db: t.handle.db,
      now: () => t.clock.now,
      blobs: createBlobStore({ db: t.handle.db, dataDir: t.config.dataDir, key: t.config.blobEncryptionKey }),
      // The scanner interface the attachments use; clamd itself is exercised by the attachments' antivirus tests.
      scanner: { configured: true, scan: async () => ({ clean: false as const, signature: 'Eicar-Test-Signature' }), ping: async () => true },
    };
    const caller = { session: { userId: admin!.id, userName: ADMIN, sessionId: 'test', organizationId: null, roles: ['SysAdmin' as const], organizationCancelled: false }, ip: '127.0.0.1' };
    const input = { displayName: 'Infected', downloadTag: 'virus', name: null, description: null, brandId: null, platform: { os: null, version: null, supportedVersions: null }, isDownloadable: true, downloadOnFree: true, isVisible: true, version: null };
    const refused = await uploadDownload(deps, caller, input, { fileName: 'eicar.com', bytes: Buffer.from('X5O!P%@AP') }).catch((error: unknown) => error);
    const message = text.infected('Eicar-Test-Signature');
    expect(refused).toMatchObject({ statusCode: 400, message, extra: { modelState: { file: [message] } } });
    expect((await t.call(ADMIN, 'GET', '/api/downloads/getpaged?search=Infected')).json().totalCount).toBe(0);
    const audit = await t.handle.db.select({ details: auditEvents.details }).from(auditEvents).where(eq(auditEvents.eventType, 'UploadRefusedInfected'));
    expect(audit.map((a) => a.details)).toContainEqual({ area: 'downloads', signature: 'Eicar-Test-Signature', sizeInBytes: 9 });
  });
});
