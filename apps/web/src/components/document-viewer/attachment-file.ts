import { attachmentToasts, type TransformsBody } from '@clinicrelay/contracts/attachments.ts';
import { RETRY_AFTER_POLL_MS } from '@clinicrelay/contracts/constants.ts';
import { attachmentSummary } from '@clinicrelay/contracts/messages.ts';
import { z } from 'zod';
import { ApiError, apiFetch, apiResponse } from '../../api/client.ts';

// The attachment calls of the viewer (end-user §7 "Attachments"), shared by Intake and Release.

// Same limit as a pending transform (end-user §4): after 20 s the user is told to try again.
const RETRY_AFTER_LIMIT_MS = 20_000;

const attachmentPath = (messageId: string, attachmentId: string) =>
  `/api/messages/${encodeURIComponent(messageId)}/attachments/${encodeURIComponent(attachmentId)}`;

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });

export interface FetchFileOptions {
  signal?: AbortSignal;
  /** Called on each 202: the server is still making the PDF rendition. */
  onProcessing?: () => void;
  /** The file itself in its own type (native export), not its PDF rendition. */
  native?: boolean;
}

/**
 * GET /api/messages/{id}/attachments/{attachmentId}: the PDF rendition, or for a structured file
 * (previewStatus NotApplicable) the file itself as text. The bearer goes in the header, never the URL;
 * a 202 with Retry-After is asked again every 0.5 s (end-user §4).
 */
export async function fetchAttachmentFile(messageId: string, attachmentId: string, options: FetchFileOptions = {}): Promise<Response> {
  const started = Date.now();
  for (;;) {
    const response = await apiResponse(`${attachmentPath(messageId, attachmentId)}${options.native ? '?native=true' : ''}`, {
      accept: options.native ? '*/*' : 'application/pdf, text/plain',
      signal: options.signal,
    });
    if (response.status !== 202 && !response.headers.has('retry-after')) return response;
    if (Date.now() - started >= RETRY_AFTER_LIMIT_MS) throw new ApiError(0, { message: attachmentToasts.timedOut });
    options.onProcessing?.();
    await response.body?.cancel();
    await wait(RETRY_AFTER_POLL_MS, options.signal);
  }
}

export async function fetchAttachmentPdf(messageId: string, attachmentId: string, options: FetchFileOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  const response = await fetchAttachmentFile(messageId, attachmentId, options);
  return new Uint8Array(await response.arrayBuffer());
}

export async function fetchAttachmentText(messageId: string, attachmentId: string, options: FetchFileOptions = {}): Promise<string> {
  const response = await fetchAttachmentFile(messageId, attachmentId, options);
  return response.text();
}

/** PUT .../transforms: pages are 1-based, rotations clockwise in degrees. */
export const transformAttachment = (messageId: string, attachmentId: string, body: TransformsBody) =>
  apiFetch(`${attachmentPath(messageId, attachmentId)}/transforms`, { method: 'PUT', body, schema: attachmentSummary });

/** PUT .../restore: back to the uploaded file, keeping its meta data. */
export const restoreAttachment = (messageId: string, attachmentId: string) =>
  apiFetch(`${attachmentPath(messageId, attachmentId)}/restore`, { method: 'PUT', schema: z.object({ message: z.string() }) });
