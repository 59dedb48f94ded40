import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachmentToasts, previewMessages } from '@clinicrelay/contracts/attachments.ts';
import { saveTokens } from '../../api/tokens.ts';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { AttachmentViewer, type ViewedAttachment } from './attachment-viewer.tsx';

// PDF.js needs a real canvas: a fake document whose page count is the first byte of the file.
const rendered: number[] = [];
vi.mock('./pdf-document.ts', () => ({
  isRenderCancelled: () => false,
  openPdf: async (bytes: Uint8Array) => ({
    pageCount: bytes[0],
    renderPage: (pageNumber: number) => {
      rendered.push(pageNumber);
      return { promise: Promise.resolve({ scale: 1 }), cancel: () => {} };
    },
    destroy: () => {},
  }),
}));

const MESSAGE_ID = '11111111-1111-4111-8111-111111111111';
const ATTACHMENT_ID = '22222222-2222-4222-8222-222222222222';
const FILE_PATH = `/api/messages/${MESSAGE_ID}/attachments/${ATTACHMENT_ID}`;

interface Call {
  method: string;
  url: string;
  authorization: string | null;
  body: unknown;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const summary = (pages: number) => ({
  id: ATTACHMENT_ID,
  fileName: 'referral.pdf',
  mimeType: 'application/pdf',
  sizeInBytes: pages,
  isPreviewAvailable: true,
  previewAvailable: 'Available',
  transformStatus: 'None',
  isSelected: true,
  isRestorable: true,
  uploadProcessId: null,
  attachmentMeta: null,
  integrationMeta: null,
});

/** A fake attachment server: a PDF of `pages` pages, transforms and restore as the API answers them. */
function stubServer(options: { pages?: number; pending?: number; text?: string; restoreFails?: boolean; transformFails?: boolean } = {}) {
  const original = options.pages ?? 3;
  let pages = original;
  let pending = options.pending ?? 0;
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      calls.push({ method, url, authorization: new Headers(init?.headers).get('Authorization'), body });
      if (method === 'GET' && url === FILE_PATH) {
        if (pending > 0) {
          pending -= 1;
          return new Response(JSON.stringify({ message: previewMessages.processing, previewAvailable: 'Processing' }), {
            status: 202,
            headers: { 'Content-Type': 'application/json', 'Retry-After': '1' },
          });
        }
        if (options.text !== undefined) return new Response(options.text, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
        return new Response(new Uint8Array([pages]), { status: 200, headers: { 'Content-Type': 'application/pdf' } });
      }
      if (method === 'PUT' && url === `${FILE_PATH}/transforms`) {
        if (options.transformFails) return json(500, { message: 'The PDF could not be changed.' });
        pages -= (body as { deletions: number[] }).deletions.length;
        return json(200, summary(pages));
      }
      if (method === 'PUT' && url === `${FILE_PATH}/restore`) {
        if (options.restoreFails) return json(500, { message: 'An error has occurred.' });
        pages = original;
        return json(200, { message: attachmentToasts.restored });
      }
      return json(404, { message: 'Not found.' });
    }),
  );
  return calls;
}

const attachment = (overrides: Partial<ViewedAttachment> = {}): ViewedAttachment => ({
  id: ATTACHMENT_ID,
  fileName: 'referral.pdf',
  previewAvailable: 'Available',
  isRestorable: true,
  ...overrides,
});

const toolNames = ['Rotate page', 'Remove page', 'Restore original', 'Print', 'Download'];
const shownTools = () => toolNames.filter((name) => screen.queryByRole('button', { name }) !== null);
const fileGets = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url === FILE_PATH);

describe('AttachmentViewer', () => {
  beforeEach(() => {
    rendered.length = 0;
    saveTokens({ accessToken: 'access-1', tokenType: 'Bearer', expiresIn: 900, refreshToken: 'refresh-1' });
  });
  afterEach(() => {
    act(() => notifications.clean());
    vi.useRealTimers();
  });

  it('in view mode shows the pages with no rotate, remove, restore, print or download', async () => {
    const calls = stubServer({ pages: 3 });
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment()} mode="view" />);
    await screen.findByText('Page 1 of 3');
    expect(shownTools()).toEqual([]);
    // The page counter can show before the canvas draw is called (seen at load in CI): wait for the draw itself.
    await waitFor(() => expect(rendered).toEqual([1]));

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('Page 2 of 3');
    await waitFor(() => expect(rendered.at(-1)).toBe(2));
    // The bearer goes in the header, never in the URL.
    expect(fileGets(calls)).toEqual([{ method: 'GET', url: FILE_PATH, authorization: 'Bearer access-1', body: undefined }]);
  });

  it('in edit mode shows every tool, and Restore original only once the file differs from the upload', async () => {
    stubServer();
    const { rerender } = renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment({ isRestorable: false })} mode="edit" />);
    await screen.findByText('Page 1 of 3');
    expect(shownTools()).toEqual(toolNames);
    expect(screen.getByRole('button', { name: 'Restore original' }).hasAttribute('disabled')).toBe(true);
    rerender(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment({ isRestorable: true })} mode="edit" />);
    expect(screen.getByRole('button', { name: 'Restore original' }).hasAttribute('disabled')).toBe(false);
  });

  it('rotates the shown page 90° clockwise, then loads the new rendition on the same page', async () => {
    const calls = stubServer({ pages: 3 });
    const onChanged = vi.fn();
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment()} mode="edit" onChanged={onChanged} />);
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('Page 2 of 3');

    fireEvent.click(screen.getByRole('button', { name: 'Rotate page' }));
    await waitFor(() => expect(fileGets(calls)).toHaveLength(2));
    await screen.findByText('Page 2 of 3');
    const transform = calls.find((c) => c.url === `${FILE_PATH}/transforms`);
    expect(transform).toEqual({
      method: 'PUT',
      url: `${FILE_PATH}/transforms`,
      authorization: 'Bearer access-1',
      body: { rotations: [{ page: 2, degrees: 90 }], deletions: [] },
    });
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('turns pages from the keyboard while the page frame has the focus, and announces the page', async () => {
    stubServer({ pages: 4 });
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment()} mode="view" />);
    await screen.findByText('Page 1 of 4');
    const frame = screen.getByRole('region', { name: 'Pages of referral.pdf' });
    expect(frame.tabIndex).toBe(0);
    // The page line is a polite live region: a screen reader hears each new page.
    expect(screen.getByText('Page 1 of 4').getAttribute('aria-live')).toBe('polite');
    fireEvent.keyDown(frame, { key: 'PageDown' });
    await screen.findByText('Page 2 of 4');
    fireEvent.keyDown(frame, { key: 'ArrowRight' });
    await screen.findByText('Page 3 of 4');
    fireEvent.keyDown(frame, { key: 'End' });
    await screen.findByText('Page 4 of 4');
    fireEvent.keyDown(frame, { key: 'PageDown' });
    await screen.findByText('Page 4 of 4');
    fireEvent.keyDown(frame, { key: 'PageUp' });
    await screen.findByText('Page 3 of 4');
    fireEvent.keyDown(frame, { key: 'Home' });
    await screen.findByText('Page 1 of 4');
    expect(screen.getByRole('img', { name: 'referral.pdf, page 1' })).toBeTruthy();
  });

  it('with confirmSaves, says each page change was saved', async () => {
    stubServer({ pages: 3 });
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment()} mode="edit" confirmSaves />);
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Rotate page' }));
    expect(await screen.findByText('Page 1 rotated and saved.')).toBeTruthy();
    // The viewer reloads the rotated file before its page tools work again: a click sooner is ignored (failed under CI load).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove page' }).hasAttribute('disabled')).toBe(false));
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Remove page' }));
    expect(await screen.findByText('Page 1 removed and saved.')).toBeTruthy();
  });

  it('with confirmSaves, a refused rotation says it was not saved', async () => {
    stubServer({ pages: 3, transformFails: true });
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment()} mode="edit" confirmSaves />);
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Rotate page' }));
    expect(await screen.findByText('The page change was not saved: The PDF could not be changed.')).toBeTruthy();
    expect(screen.queryByText('Page 1 rotated and saved.')).toBeNull();
  });

  it('removes the shown page; the last page cannot be removed', async () => {
    const calls = stubServer({ pages: 2 });
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment()} mode="edit" />);
    await screen.findByText('Page 1 of 2');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('Page 2 of 2');

    fireEvent.click(screen.getByRole('button', { name: 'Remove page' }));
    await screen.findByText('Page 1 of 1');
    expect(calls.find((c) => c.url === `${FILE_PATH}/transforms`)?.body).toEqual({ rotations: [], deletions: [2] });
    expect(screen.getByRole('button', { name: 'Remove page' }).hasAttribute('disabled')).toBe(true);
  });

  it("restores the original with 'Original attachment restored.' and shows its pages again", async () => {
    const calls = stubServer({ pages: 3 });
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment()} mode="edit" />);
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Remove page' }));
    await screen.findByText('Page 1 of 2');

    fireEvent.click(screen.getByRole('button', { name: 'Restore original' }));
    await screen.findByText('Original attachment restored.');
    await screen.findByText('Page 1 of 3');
    expect(calls.filter((c) => c.url === `${FILE_PATH}/restore`)).toEqual([
      { method: 'PUT', url: `${FILE_PATH}/restore`, authorization: 'Bearer access-1', body: undefined },
    ]);
  });

  it("says 'Error restoring attachment.' when the restore fails", async () => {
    stubServer({ restoreFails: true });
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment()} mode="edit" />);
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Restore original' }));
    await screen.findByText('Error restoring attachment.');
    expect(screen.queryByText('Original attachment restored.')).toBeNull();
  });

  it('shows Processing while the server answers 202 + Retry-After, asking again every 0.5 s', async () => {
    const calls = stubServer({ pages: 4, pending: 2 });
    const started = Date.now();
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment()} mode="view" />);
    await screen.findByText('Processing');
    await screen.findByText('Page 1 of 4');
    expect(fileGets(calls)).toHaveLength(3);
    // Two waits of 0.5 s, not the header's 1 s each.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(1_900);
  });

  it('shows a structured file as read-only text in a <pre>, with no tools', async () => {
    const xml = '<ClinicalDocument>\n  <title>Continuity of Care</title>\n</ClinicalDocument>';
    const calls = stubServer({ text: xml });
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment({ fileName: 'ccd.xml', previewAvailable: 'NotApplicable' })} mode="edit" />);
    const contents = await screen.findByLabelText('Contents of ccd.xml');
    expect(contents.tagName).toBe('PRE');
    expect(contents.textContent).toBe(xml);
    expect(shownTools()).toEqual([]);
    expect(screen.queryByText(/^Page \d/)).toBeNull();
    // The same call answers the file itself when there is no rendition.
    expect(fileGets(calls)).toHaveLength(1);
  });

  it('shows the failure text when no preview could be made', () => {
    stubServer();
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment({ previewAvailable: 'Failed' })} mode="edit" />);
    expect(screen.getByText(previewMessages.failed)).toBeTruthy();
    expect(shownTools()).toEqual([]);
  });

  it('while the preview is Processing asks for its status every 2 s, 15 times, then says to try again', () => {
    vi.useFakeTimers();
    const calls = stubServer();
    const onPollStatus = vi.fn();
    renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment({ previewAvailable: 'Processing' })} mode="edit" onPollStatus={onPollStatus} />);
    const processing = screen.getByText('Processing');
    expect(within(processing.parentElement!).getByText(previewMessages.processing)).toBeTruthy();

    act(() => {
      vi.advanceTimersByTime(1_999);
    });
    expect(onPollStatus).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onPollStatus).toHaveBeenCalledTimes(1);
    act(() => {
      vi.advanceTimersByTime(28_000);
    });
    expect(onPollStatus).toHaveBeenCalledTimes(15);
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(onPollStatus).toHaveBeenCalledTimes(15);
    expect(screen.getByText(attachmentToasts.timedOut)).toBeTruthy();
    // No rendition is asked for until the status says it exists.
    expect(fileGets(calls)).toHaveLength(0);
  });

  it('loads the rendition once the polled status turns Available', async () => {
    stubServer({ pages: 2 });
    const { rerender } = renderWithProviders(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment({ previewAvailable: 'Processing' })} mode="view" />);
    expect(screen.getByText('Processing')).toBeTruthy();
    rerender(<AttachmentViewer messageId={MESSAGE_ID} attachment={attachment({ previewAvailable: 'Available' })} mode="view" />);
    await screen.findByText('Page 1 of 2');
  });
});
