import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, stubApi } from '../../app/app-test-harness.tsx';
import { fixtureText, itWithFixtures } from '../../test/shared-fixtures.ts';
import { ATTACHMENT_ID, MESSAGE_ID } from './intake-test-fixtures.ts';

// happy-dom has no canvas: PDF.js is replaced by a two-page document.
vi.mock('../../components/document-viewer/pdf-document.ts', () => ({
  openPdf: vi.fn(() =>
    Promise.resolve({ pageCount: 2, renderPage: () => ({ promise: Promise.resolve({ scale: 1 }), cancel: () => {} }), destroy: () => {} }),
  ),
}));

let uninstall: (() => void) | undefined;
let opener: { postMessage: ReturnType<typeof vi.fn> };
beforeEach(() => {
  opener = { postMessage: vi.fn() };
  Object.defineProperty(window, 'opener', { value: opener, configurable: true, writable: true });
});
afterEach(() => {
  uninstall?.();
  Object.defineProperty(window, 'opener', { value: null, configurable: true, writable: true });
});

const CCD_ID = '66666666-6666-4666-8666-666666666666';
const job = { type: 'print', token: 'posted-token', messageId: MESSAGE_ID, attachments: [{ id: ATTACHMENT_ID, fileName: 'referral.pdf', structured: false }] };
const post = (data: unknown, origin: string, source: unknown) =>
  window.dispatchEvent(new MessageEvent('message', { data, origin, source: source as Window }));

function openPrintPage(status = 200, ccd?: string) {
  const api = stubApi({
    handlers: {
      [`GET /api/messages/${MESSAGE_ID}/attachments/${CCD_ID}`]: () => new Response(ccd ?? '', { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),
      [`GET /api/messages/${MESSAGE_ID}/attachments/${ATTACHMENT_ID}`]: () =>
        new Response(status === 200 ? '%PDF-1.7' : '{"message":"no"}', { status, headers: { 'Content-Type': status === 200 ? 'application/pdf' : 'application/json' } }),
    },
  });
  uninstall = renderApp('/intake/print').uninstall;
  return api;
}

describe('print page (end-user §7 "Realtime": token and ids by postMessage)', () => {
  it('asks its opener for the job, ignores messages from elsewhere, and prints with the posted token', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const { fetchStub } = openPrintPage();
    await waitFor(() => expect(opener.postMessage).toHaveBeenCalledWith({ type: 'printReady' }, window.location.origin));

    post(job, 'https://evil.example', opener);
    post(job, window.location.origin, {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchStub).not.toHaveBeenCalled();

    post(job, window.location.origin, opener);
    await waitFor(() => expect(print).toHaveBeenCalled());
    const [url, init] = fetchStub.mock.calls[0]!;
    expect(url).toBe(`/api/messages/${MESSAGE_ID}/attachments/${ATTACHMENT_ID}`);
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer posted-token');
    expect(window.location.search).toBe('');
    expect(screen.getAllByRole('img', { name: /^Page \d$/ })).toHaveLength(2);
  });

  itWithFixtures('prints a C-CDA attachment readable, as the CDA Explorer shows it, after the PDF pages', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    openPrintPage(200, fixtureText('cda/referral-note.xml'));
    await waitFor(() => expect(opener.postMessage).toHaveBeenCalled());
    post({ ...job, attachments: [...job.attachments, { id: CCD_ID, fileName: 'referral-note.xml', structured: true }] }, window.location.origin, opener);
    await waitFor(() => expect(print).toHaveBeenCalled());
    expect(screen.getAllByRole('img', { name: /^Page \d$/ })).toHaveLength(2);
    const note = screen.getByRole('article', { name: 'referral-note.xml' });
    expect(within(note).getByRole('heading', { level: 2, name: 'Referral Note' })).toBeTruthy();
    expect(within(note).getByRole('heading', { name: 'REASON FOR REFERRAL' })).toBeTruthy();
    expect(within(note).getByText('Eve Betterhalf')).toBeTruthy();
  });

  it('refuses a job that does not say what each attachment is', async () => {
    const { fetchStub } = openPrintPage();
    await waitFor(() => expect(opener.postMessage).toHaveBeenCalled());
    post({ ...job, attachments: [{ id: ATTACHMENT_ID }] }, window.location.origin, opener);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it('says so when the rendition cannot be fetched', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    openPrintPage(500);
    await waitFor(() => expect(opener.postMessage).toHaveBeenCalled());
    post(job, window.location.origin, opener);
    expect(await screen.findByText('An error occurred while attempting to print. Please try again.')).toBeTruthy();
  });
});
