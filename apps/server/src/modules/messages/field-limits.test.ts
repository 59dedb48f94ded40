import { describe, expect, it } from 'vitest';
import { attachmentMessages } from '@clinicrelay/contracts/attachments.ts';
import { uploadAttachment, useTestApp } from '../../test/app.ts';

// Issue 9: a limit answers with a sentence naming the field, keyed by that field in modelState, and as the
// message when it is the only problem (zod's "Too big: expected string to have <=256 characters" and a bare
// "The request is invalid." reached users).
describe('limits answer in sentences', () => {
  const t = useTestApp();

  it('names the user name on sign-in', async () => {
    const res = await t.call(null, 'POST', '/api/account/login', { userName: `${'a'.repeat(250)}@example.org`, password: 'whatever' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Username must be at most 256 characters.', modelState: { userName: ['Username must be at most 256 characters.'] } });
  });

  it('refuses a too-long Intake search with a sentence instead of an empty list', async () => {
    for (const url of ['/api/messages', '/api/intake']) {
      const res = await t.call('user@riverview.example.org', 'POST', url, { filter: 'x'.repeat(201) });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ message: 'Search must be at most 200 characters.', modelState: { filter: ['Search must be at most 200 characters.'] } });
    }
    expect((await t.call('user@riverview.example.org', 'POST', '/api/messages', { filter: 'x'.repeat(200) })).statusCode).toBe(200);
  });

  it('bounds an attachment’s name at 255 characters, the extension it keeps included', async () => {
    const draft = (await t.call('user@lakeside.example.org', 'PUT', '/api/messages', { subject: 'Names' })).json().id as string;
    const { accessToken } = await t.login('user@lakeside.example.org');
    const file = (await uploadAttachment(t.app, accessToken, draft, 'note.txt', new TextEncoder().encode('Office hours.'))).json().id as string;
    const rename = (fileName: string) => t.call('user@lakeside.example.org', 'PUT', `/api/messages/${draft}/attachments`, [{ id: file, fileName }]);

    const tooLong = await rename('n'.repeat(252));
    expect(tooLong.statusCode).toBe(400);
    // Keyed by the item's place in the body, whether the name is too long as typed or with its extension.
    expect(tooLong.json()).toEqual({ message: attachmentMessages.fileNameTooLong, modelState: { '0.fileName': [attachmentMessages.fileNameTooLong] } });
    expect((await rename('n'.repeat(256))).json()).toEqual({ message: attachmentMessages.fileNameTooLong, modelState: { '0.fileName': [attachmentMessages.fileNameTooLong] } });
    const fits = await rename('n'.repeat(251));
    expect(fits.statusCode, fits.body).toBe(200);
    expect(fits.json()[0].fileName).toBe(`${'n'.repeat(251)}.txt`);
  });

  it('lists several problems under the general heading, each at its field', async () => {
    const res = await t.call('user@lakeside.example.org', 'PUT', '/api/messages', { subject: 's'.repeat(256), comments: 'c'.repeat(2001) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'The request is invalid.',
      modelState: { subject: ['Subject must be at most 255 characters.'], comments: ['Comments must be at most 2000 characters.'] },
    });
  });
});
