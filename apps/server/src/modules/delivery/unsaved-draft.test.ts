import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { nonPhiFaxMessages, releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { messages } from '../../db/schema/messages.ts';
import { uploadAttachment, useTestApp } from '../../test/app.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const LAKESIDE_FAX = '5035550101';

// Issue 9, junk drafts: a draft exists only when the user saved it or attached a file. Compose's Send and the
// non-PHI fax modal save with beforeSend: true first; when that send is refused, the draft the save made goes.
describe('a refused send of a message nobody saved leaves no draft', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const save = async (body: object, id?: string) => {
    const res = await t.call(LAKESIDE_USER, 'PUT', id ? `/api/messages/${id}` : '/api/messages', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  const send = (id: string) => t.call(LAKESIDE_USER, 'POST', `/api/messages/${id}/send`);
  const drafts = async () => ((await t.call(LAKESIDE_USER, 'GET', '/api/messages?isDraft=true&pageSize=100')).json().items as { id: string }[]).map((m) => m.id);
  const exists = async (id: string) => (await db().select({ id: messages.id }).from(messages).where(eq(messages.id, id))).length === 1;

  it('discards the draft an empty send made, says so, and audits it', async () => {
    const id = await save({ beforeSend: true });
    // Until the send answers, the half-made draft is not among the user's drafts.
    expect(await drafts()).not.toContain(id);

    const res = await send(id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: releaseMessages.fixErrorsHeading, draftDiscarded: true, modelState: { toAddress: [releaseMessages.toRequired] } });
    expect(await exists(id)).toBe(false);
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).statusCode).toBe(404);
    const audit = await db().select().from(auditEvents).where(and(eq(auditEvents.correlationId, id), eq(auditEvents.eventType, 'DraftDiscarded')));
    expect(audit).toEqual([expect.objectContaining({ organizationId: expect.any(String), details: { reason: 'SendRefused' } })]);
  });

  it('keeps a draft the user saved, before or after a send’s save, whatever the send answers', async () => {
    const saved = await save({ subject: 'Saved with Save' });
    await save({ subject: 'Saved with Save', beforeSend: true }, saved);
    const refused = await send(saved);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().draftDiscarded).toBeUndefined();
    expect(await drafts()).toContain(saved);

    const savedLater = await save({ subject: 'Send, then Save', beforeSend: true });
    await save({ subject: 'Send, then Save' }, savedLater);
    expect((await send(savedLater)).statusCode).toBe(400);
    expect(await drafts()).toContain(savedLater);
  });

  it('keeps a draft a file was attached to', async () => {
    const id = await save({ subject: 'With a file', beforeSend: true });
    const { accessToken } = await t.login(LAKESIDE_USER);
    const upload = await uploadAttachment(t.app, accessToken, id, 'note.txt', new TextEncoder().encode('Office hours change on Monday.'));
    expect(upload.statusCode, upload.body).toBe(200);
    expect(await drafts()).toContain(id);
    expect((await send(id)).json().draftDiscarded).toBeUndefined();
    expect(await exists(id)).toBe(true);
  });

  it('discards a refused forward made by Send though it carries the original’s files', async () => {
    const original = await save({ subject: 'Original with a file' });
    const { accessToken } = await t.login(LAKESIDE_USER);
    const file = (await uploadAttachment(t.app, accessToken, original, 'note.txt', new TextEncoder().encode('Lab results attached.'))).json().id as string;
    const forward = await save({ subject: 'FW: Original with a file', originalObjectId: original, attachments: [{ id: file }], beforeSend: true });
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${forward}`)).json().attachments).toHaveLength(1);

    const res = await t.call(LAKESIDE_USER, 'POST', `/api/messages/${forward}/forward`);
    expect(res.statusCode).toBe(400);
    expect(res.json().draftDiscarded).toBe(true);
    expect(await exists(forward)).toBe(false);
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${original}`)).json().attachments).toHaveLength(1);
  });

  it('leaves nothing of a non-PHI fax whose file was refused', async () => {
    const id = await save({ isNonPatient: true, beforeSend: true, toAddress: '5035550202', fromAddress: LAKESIDE_FAX, subject: 'Office hours' });
    const { accessToken } = await t.login(LAKESIDE_USER);
    const refusedFile = await uploadAttachment(t.app, accessToken, id, 'setup.exe', new Uint8Array([0x4d, 0x5a, 0x90, 0x00]));
    expect(refusedFile.statusCode).toBe(400);
    expect(await drafts()).not.toContain(id);

    const res = await send(id);
    expect(res.json()).toMatchObject({ draftDiscarded: true, modelState: { attachments: [nonPhiFaxMessages.attachmentMissing] } });
    expect(await exists(id)).toBe(false);
  });
});
