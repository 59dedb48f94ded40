import { createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { attachmentFixture, composeLookups, DRAFT_ID, installUploadXhr, releaseMessage } from './release-test-fixtures.ts';

// Attaching several files at once, by drop or by the button (issue 9, points 4 and 10).

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const draft = (attachments: Message['attachments'] = []) =>
  releaseMessage({ id: DRAFT_ID, isDraft: true, status: 'Draft', subject: '', toAddress: '', fromAddress: null, attachments });

function start(attached: Message['attachments'] = []) {
  signIn();
  installUploadXhr();
  const api = stubApi({
    handlers: {
      ...composeLookups,
      'PUT /api/messages': () => json(200, draft()),
      [`GET /api/messages/${DRAFT_ID}`]: () => json(200, draft(attached)),
      [`POST /api/messages/${DRAFT_ID}/attachments`]: () => json(200, attachmentFixture()),
    },
  });
  uninstall = renderApp('/release/new').uninstall;
  return api;
}

const pdf = (name: string) => new File(['%PDF-1.4 a letter'], name, { type: 'application/pdf' });

// What a browser hands over when files are dropped on the page.
function drop(files: File[]) {
  const dataTransfer = { types: ['Files'], files };
  fireEvent(document, Object.assign(createEvent.dragEnter(document), { dataTransfer }));
  const event = Object.assign(createEvent.drop(document), { dataTransfer });
  fireEvent(document, event);
  return event;
}

describe('attaching files (points 4 and 10)', { timeout: 60_000 }, () => {
  it('takes two files dropped on the page at once, uploads each with its own progress, and attaches both', async () => {
    const { calls } = start([attachmentFixture({ fileName: 'referral.pdf' }), attachmentFixture({ id: '66666666-6666-4666-8666-666666666666', fileName: 'labs.pdf' })]);
    await screen.findByRole('heading', { level: 1, name: 'New message' });
    const event = drop([pdf('referral.pdf'), pdf('labs.pdf')]);
    expect(event.defaultPrevented).toBe(true);

    const dialog = await screen.findByRole('dialog', { name: 'Attach a new file' });
    const list = within(dialog).getByRole('table', { name: 'Files to attach' });
    expect(within(list).getByText('referral.pdf')).toBeTruthy();
    expect(within(list).getByText('labs.pdf')).toBeTruthy();
    // Sensible defaults: one click attaches them.
    expect(within(dialog).getByRole<HTMLInputElement>('combobox', { name: 'Confidentiality' }).value).toBe('Normal');
    expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: 'Original file date' }).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Attach' }));

    // Two uploads and the draft's first save: more than findByText's 1 s on a loaded 2-core machine.
    expect(await screen.findByText('2 files were attached.', {}, { timeout: 10_000 })).toBeTruthy();
    expect(calls.filter((call) => call.key === 'PUT /api/messages')).toHaveLength(1);
    expect(calls.filter((call) => call.key === `POST /api/messages/${DRAFT_ID}/attachments`)).toHaveLength(2);
    // The draft now lists both.
    expect(await screen.findByRole('button', { name: 'labs.pdf' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'referral.pdf' })).toBeTruthy();
  });

  it('shows each file’s progress and keeps a refused one in the list with its reason', async () => {
    signIn();
    installUploadXhr();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    stubApi({
      handlers: {
        ...composeLookups,
        'PUT /api/messages': () => json(200, draft()),
        [`GET /api/messages/${DRAFT_ID}`]: () => json(200, draft()),
        [`POST /api/messages/${DRAFT_ID}/attachments`]: async () => {
          await held;
          return json(400, { message: 'FileType is not supported for upload' });
        },
      },
    });
    uninstall = renderApp('/release/new').uninstall;
    fireEvent.click(await screen.findByRole('button', { name: 'Attach a new file' }));
    const dialog = await screen.findByRole('dialog', { name: 'Attach a new file' });
    fireEvent.change(dialog.querySelector('input[type="file"]')!, { target: { files: [pdf('scan.pdf')] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Attach' }));

    expect(await within(dialog).findByRole('progressbar', { name: 'Uploading scan.pdf' })).toBeTruthy();
    release();
    expect(await within(dialog).findByText('FileType is not supported for upload')).toBeTruthy();
    expect(await screen.findByText("An error occurred while uploading 'scan.pdf'. Unsupported file type")).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Attach a new file' })).toBeTruthy();
  });

  it('shows a 300-character name cut to 60 with the whole name on hover, and refuses it before sending anything', async () => {
    const { calls } = start();
    await screen.findByRole('heading', { level: 1, name: 'New message' });
    const long = `${'a'.repeat(296)}.pdf`;
    drop([pdf(long)]);
    const dialog = await screen.findByRole('dialog', { name: 'Attach a new file' });
    const shown = within(dialog).getByText(`${'a'.repeat(60)}…`);
    fireEvent.mouseEnter(shown);
    expect((await screen.findByRole('tooltip')).textContent).toBe(long);
    expect(within(dialog).getByText('File names may be at most 255 characters.')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Attach' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: `Remove ${long}` })).toBeTruthy());
    expect(calls.some((call) => call.key.startsWith('PUT /api/messages') || call.key.startsWith('POST'))).toBe(false);
    // Notes are bounded as the spec says, with the count of what is left.
    expect(within(dialog).getByRole('textbox', { name: 'Notes' }).getAttribute('maxlength')).toBe('255');
    expect(within(dialog).getByText('Characters remaining: 255')).toBeTruthy();
  });
});
