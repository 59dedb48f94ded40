import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobs as blobRows } from '../db/schema/blobs.ts';
import { messages } from '../db/schema/messages.ts';
import { organizations } from '../db/schema/organizations.ts';
import { clamdScanner } from '../platform/antivirus/clamd.ts';
import { InfectedMessageError, ScannerUnavailableError } from '../platform/antivirus/scanner.ts';
import { createBlobStore } from '../platform/blobs/blob-store.ts';
import { createTestApp, type TestContext } from '../test/app.ts';
import { clamdMissing, EICAR, EICAR_SIGNATURE, freePort, startClamd, type RunningClamd } from '../test/clamd.ts';
import { createSandboxFaxProvider } from './fax/sandbox-fax-provider.ts';
import { localFaxLine, receiveHere, type InboundCopy, type LocalDeps } from './local.ts';

// Issue 26: every file of a received message (local delivery, fax to a number hosted here) is scanned before anything
// of it is stored; an infected one is refused whole, and with clamd down nothing is stored (the workflow retries).

const LAKESIDE_FAX = '5035550101';

describe.skipIf(clamdMissing())('received messages are scanned', () => {
  let t: TestContext;
  let clamd: RunningClamd;
  let deps: LocalDeps;
  let lakeside: string;

  beforeAll(async () => {
    [t, clamd] = await Promise.all([createTestApp(), startClamd()]);
    const blobs = createBlobStore({ db: t.handle.db, dataDir: t.config.dataDir, key: t.config.blobEncryptionKey });
    deps = { db: t.handle.db, blobs, now: () => t.clock.now, scanner: clamdScanner(clamd.tcp) };
    [{ id: lakeside }] = (await t.handle.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside'))) as [{ id: string }];
  }, 120_000);
  afterAll(async () => {
    await clamd?.stop();
    await t?.close();
  });

  const copy = (subject: string, files: { fileName: string; bytes: Uint8Array }[]): InboundCopy => ({
    organizationId: lakeside,
    sourceType: 'Direct',
    sentMessageId: null,
    recipient: 'intake@lakeside.direct.example.org',
    deliveryKey: `test:${subject}`,
    fromAddress: 'referrals@riverview.direct.example.org',
    subject,
    body: 'See attached.',
    isUrgent: false,
    patient: null,
    properties: null,
    attachments: files.map((f) => ({ ...f, mimeType: 'application/octet-stream', preview: null, previewStatus: 'NotApplicable' as const, meta: null })),
  });
  const stored = async (subject: string) => t.handle.db.select().from(messages).where(eq(messages.subject, subject));
  const blobCount = async () => (await t.handle.db.select({ id: blobRows.id }).from(blobRows)).length;

  it('local delivery: a message with the EICAR file is refused and nothing of it is stored; a clean one arrives', async () => {
    const before = await blobCount();
    const refused = await receiveHere(deps, copy('Local infected', [{ fileName: 'note.txt', bytes: Buffer.from('clean') }, { fileName: 'eicar.com', bytes: Buffer.from(EICAR) }])).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InfectedMessageError);
    expect((refused as Error).message).toBe(`Refused: the attachment eicar.com contains a virus (${EICAR_SIGNATURE}).`);
    expect(await stored('Local infected')).toHaveLength(0);
    expect(await blobCount()).toBe(before);

    await receiveHere(deps, copy('Local clean', [{ fileName: 'note.txt', bytes: Buffer.from('clean') }]));
    expect(await stored('Local clean')).toHaveLength(1);
  });

  it('local delivery with clamd down: refused as unavailable (the workflow retries), nothing stored', async () => {
    const down = { ...deps, scanner: clamdScanner({ host: '127.0.0.1', port: await freePort() }, { connectTimeoutMs: 500 }) };
    const error = await receiveHere(down, copy('Scanner down', [{ fileName: 'note.txt', bytes: Buffer.from('clean') }])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScannerUnavailableError);
    expect(await stored('Scanner down')).toHaveLength(0);
  });

  it('fax to a number hosted here: an infected fax fails the recipient with the reason and is not stored', async () => {
    const line = localFaxLine(deps);
    const result = await line({ to: LAKESIDE_FAX, from: '5035550202', pages: Buffer.from(EICAR), pageCount: 1, sentMessageId: '00000000-0000-4000-8000-000000000001' });
    expect(result).toEqual({ refused: `Refused: the attachment ${`fax-${t.clock.now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}.pdf`} contains a virus (${EICAR_SIGNATURE}).` });
    expect(await t.handle.db.select().from(messages).where(eq(messages.fromAddress, '5035550202'))).toHaveLength(0);

    // Through the sandbox provider, the recipient fails with that reason; a clean fax still arrives.
    const provider = createSandboxFaxProvider({ localLine: async (fax) => (fax.to === LAKESIDE_FAX ? { refused: 'Refused: infected' } : null) });
    const pdf = await PDFDocument.create();
    pdf.addPage();
    const pages = await pdf.save();
    const sent = await provider.send({ to: LAKESIDE_FAX, from: '5035550202', pages, pageCount: 1, idempotencyKey: 'k', sentMessageId: 'm' });
    expect(sent).toMatchObject({ status: 'Failed', detail: 'Refused: infected' });
    const clean = await line({ to: LAKESIDE_FAX, from: '5035550203', pages, pageCount: 1, sentMessageId: '00000000-0000-4000-8000-000000000002' });
    expect(typeof clean).toBe('string');
  });
});
