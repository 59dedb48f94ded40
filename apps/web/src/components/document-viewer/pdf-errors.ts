import { errorDetails } from '../error-details.ts';

// PDF.js rejects with its own exceptions, whose messages ("No password given", "Invalid PDF structure.") mean
// nothing to a clinic's staff. The upload refuses such files, but one stored before that check can still reach
// the viewer: it says what is wrong in a sentence instead. Matched by name, as PDF.js's exceptions cross from
// its worker as plain errors and this module must not load the library.
export const pdfViewerMessages = {
  passwordProtected: 'This PDF is password-protected and cannot be shown.',
  damaged: 'This file is damaged and cannot be shown.',
  missing: 'This file could not be found.',
  unavailable: 'This file could not be loaded. Try again.',
} as const;

const BY_NAME: Record<string, string> = {
  PasswordException: pdfViewerMessages.passwordProtected,
  InvalidPDFException: pdfViewerMessages.damaged,
  // Raised while a damaged page is parsed (bad streams, fonts, cross-references).
  FormatError: pdfViewerMessages.damaged,
  UnknownErrorException: pdfViewerMessages.damaged,
  MissingPDFException: pdfViewerMessages.missing,
  UnexpectedResponseException: pdfViewerMessages.unavailable,
};

/** The viewer's sentence for a PDF.js error; undefined for any other error (an API refusal keeps its own message). */
export function pdfErrorMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { name, missing } = error as { name?: unknown; missing?: unknown };
  if (typeof name !== 'string') return undefined;
  // PDF.js 5 folded Missing/UnexpectedResponseException into ResponseException, with `missing` for a 404.
  if (name === 'ResponseException') return missing ? pdfViewerMessages.missing : pdfViewerMessages.unavailable;
  return BY_NAME[name];
}

/** What the viewer shows for a failed load or render. */
export const viewerErrorMessage = (error: unknown): string => pdfErrorMessage(error) ?? errorDetails(error).message;
