import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
import { ensureFreshToken } from '../../api/client.ts';
import { readTokens } from '../../api/tokens.ts';
import { notifyError } from '../../components/notify.ts';

// Print (end-user §7 "Realtime", §8): a print page in a new window receives the token and ids by
// postMessage, never in its URL, and prints the renditions.

export const PRINT_PATH = '/intake/print';
/** How long the opener waits for the print page to say it is ready. */
const READY_TIMEOUT_MS = 30_000;

export interface PrintReady {
  type: 'printReady';
}
/** An attachment to print: its PDF rendition, or a structured file (C-CDA, HL7) printed as readable text. */
export interface PrintAttachment {
  id: string;
  fileName: string;
  structured: boolean;
}
export interface PrintRequest {
  type: 'print';
  token: string;
  messageId: string;
  attachments: PrintAttachment[];
}

export const isPrintReady = (data: unknown): data is PrintReady => typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'printReady';

function isPrintAttachment(data: unknown): data is PrintAttachment {
  if (typeof data !== 'object' || data === null) return false;
  const value = data as Partial<Record<keyof PrintAttachment, unknown>>;
  return typeof value.id === 'string' && typeof value.fileName === 'string' && typeof value.structured === 'boolean';
}

export function isPrintRequest(data: unknown): data is PrintRequest {
  if (typeof data !== 'object' || data === null) return false;
  const value = data as Partial<PrintRequest>;
  return (
    value.type === 'print' &&
    typeof value.token === 'string' &&
    typeof value.messageId === 'string' &&
    Array.isArray(value.attachments) &&
    (value.attachments as unknown[]).every(isPrintAttachment)
  );
}

/** Opens the print page (called from a click, so the browser allows the window) and hands it the job. */
export function printAttachments(messageId: string, attachments: PrintAttachment[]): void {
  const printWindow = window.open(PRINT_PATH, '_blank');
  if (!printWindow) {
    notifyError(intakeMessages.printFailed);
    return;
  }
  const origin = window.location.origin;
  const onMessage = (event: MessageEvent) => {
    if (event.origin !== origin || event.source !== printWindow || !isPrintReady(event.data)) return;
    stop();
    void ensureFreshToken().then(() => {
      const token = readTokens().accessToken;
      if (token === null) {
        notifyError(intakeMessages.printFailed);
        return;
      }
      printWindow.postMessage({ type: 'print', token, messageId, attachments } satisfies PrintRequest, origin);
    });
  };
  const timer = setTimeout(() => stop(), READY_TIMEOUT_MS);
  function stop() {
    clearTimeout(timer);
    window.removeEventListener('message', onMessage);
  }
  window.addEventListener('message', onMessage);
}
