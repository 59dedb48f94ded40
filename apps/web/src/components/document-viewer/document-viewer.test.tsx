import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { DocumentViewer, type PdfLoader } from './document-viewer.tsx';
import { pdfErrorMessage, pdfViewerMessages } from './pdf-errors.ts';

// An error as PDF.js raises it: an Error whose name says which exception it is (its classes are not
// subclassed in a way `instanceof` could tell, and they cross from its worker by name).
const pdfJsError = (name: string, message: string, extra: object = {}) => Object.assign(new Error(message), { name, ...extra });

const fake = vi.hoisted(() => ({ openError: null as Error | null, renderError: null as Error | null }));

// PDF.js needs a real canvas: a fake document of two pages, failing to open or render as the test asks.
vi.mock('./pdf-document.ts', () => ({
  isRenderCancelled: () => false,
  openPdf: async () => {
    if (fake.openError) throw fake.openError;
    return {
      pageCount: 2,
      renderPage: () => ({ promise: fake.renderError ? Promise.reject(fake.renderError) : Promise.resolve({ scale: 1 }), cancel: () => {} }),
      destroy: () => {},
    };
  },
}));

const load: PdfLoader = async () => new Uint8Array([1]);

describe('DocumentViewer errors', () => {
  beforeEach(() => {
    fake.openError = null;
    fake.renderError = null;
  });

  it.each([
    ['PasswordException', 'No password given', pdfViewerMessages.passwordProtected],
    ['PasswordException', 'Incorrect Password', pdfViewerMessages.passwordProtected],
    ['InvalidPDFException', 'Invalid PDF structure.', pdfViewerMessages.damaged],
    ['MissingPDFException', 'Missing PDF "blob:x".', pdfViewerMessages.missing],
    ['UnexpectedResponseException', 'Unexpected server response (500).', pdfViewerMessages.unavailable],
  ])('shows a %s ("%s") as a sentence a person understands', async (name, raw, sentence) => {
    fake.openError = pdfJsError(name, raw);
    renderWithProviders(<DocumentViewer load={load} fileName="referral.pdf" />);
    expect((await screen.findByRole('alert')).textContent).toBe(sentence);
    expect(screen.queryByText(raw)).toBeNull();
    expect(screen.queryByText(/Page \d of/)).toBeNull();
  });

  it('shows a page that fails to draw (a damaged page) as damaged, the pages still listed', async () => {
    fake.renderError = pdfJsError('FormatError', 'Bad FCHECK in flate stream: 120, 253');
    renderWithProviders(<DocumentViewer load={load} fileName="referral.pdf" />);
    expect((await screen.findByRole('alert')).textContent).toBe(pdfViewerMessages.damaged);
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    expect(screen.queryByText(/FCHECK/)).toBeNull();
  });

  it("keeps the API's own message for a refused download", async () => {
    const refused: PdfLoader = async () => {
      throw Object.assign(new Error('A preview could not be made for this attachment.'), { status: 422 });
    };
    renderWithProviders(<DocumentViewer load={refused} fileName="referral.pdf" />);
    expect((await screen.findByRole('alert')).textContent).toBe('A preview could not be made for this attachment.');
  });
});

describe('pdfErrorMessage', () => {
  it("reads PDF.js 5's ResponseException by whether the file is missing", () => {
    expect(pdfErrorMessage(pdfJsError('ResponseException', 'Missing PDF', { status: 404, missing: true }))).toBe(pdfViewerMessages.missing);
    expect(pdfErrorMessage(pdfJsError('ResponseException', 'Unexpected server response (503)', { status: 503, missing: false }))).toBe(
      pdfViewerMessages.unavailable,
    );
  });

  it('leaves other errors alone', () => {
    expect(pdfErrorMessage(new Error('Network down'))).toBeUndefined();
    expect(pdfErrorMessage('No password given')).toBeUndefined();
    expect(pdfErrorMessage(null)).toBeUndefined();
  });
});
