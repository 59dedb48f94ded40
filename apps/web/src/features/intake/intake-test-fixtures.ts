import type { IntakeListItem } from '@clinicrelay/contracts/intake.ts';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { messageFixture, settingsFixture } from '../../test/fixtures.ts';

// Test data and a fake hub socket for the Intake component tests.

export const MESSAGE_ID = '44444444-4444-4444-8444-444444444444';
export const ATTACHMENT_ID = '55555555-5555-4555-8555-555555555555';

export function listItem(overrides: Partial<IntakeListItem> = {}): IntakeListItem {
  return {
    id: MESSAGE_ID,
    subject: 'Referral for Maria Alvarez',
    fromAddress: 'intake@lakeside.direct.example.org',
    toAddress: 'referrals@riverview.direct.example.org',
    messageDate: '2026-11-20T15:00:00Z',
    systemReceivedDate: '2026-11-20T15:01:00Z',
    updatedDate: '2026-11-20T15:01:00Z',
    isUrgent: false,
    isProcessed: false,
    processedType: null,
    sourceType: 'Direct',
    patientName: 'Alvarez, Maria',
    status: 'Received',
    statusNumber: 1,
    attachmentCount: 1,
    faxPageCount: null,
    isRead: false,
    ...overrides,
  };
}

export function intakeMessage(overrides: Partial<Message> = {}): Message {
  return messageFixture({
    id: MESSAGE_ID,
    subject: 'Referral for Maria Alvarez',
    fromAddress: 'intake@lakeside.direct.example.org',
    toAddress: 'referrals@riverview.direct.example.org',
    body: 'Please see Ms. Alvarez.',
    messageDate: '2026-11-20T15:00:00Z',
    systemReceivedDate: '2026-11-20T15:01:00Z',
    createdDate: '2026-11-20T15:01:00Z',
    updatedDate: '2026-11-20T15:01:00Z',
    status: 'Received',
    sourceType: 'Direct',
    attachments: [
      {
        id: ATTACHMENT_ID,
        fileName: 'referral.pdf',
        mimeType: 'application/pdf',
        sizeInBytes: 2048,
        isPreviewAvailable: true,
        // Failed: the viewer shows its alert instead of loading PDF.js, which happy-dom cannot run.
        previewAvailable: 'Failed',
        transformStatus: 'None',
        isSelected: true,
        isRestorable: false,
        uploadProcessId: null,
        attachmentMeta: null,
        integrationMeta: null,
      },
    ],
    ...overrides,
  });
}

/** GET /api/organizationsettings: the server's defaults (export mode, no folder option) unless overridden. */
export const organizationSettings = settingsFixture;

/** A WebSocket the test drives: it opens on the next tick and records what the page sends. */
export class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];

  readyState = FakeWebSocket.CONNECTING;
  readonly sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
    setTimeout(() => {
      if (this.readyState !== FakeWebSocket.CONNECTING) return;
      this.readyState = FakeWebSocket.OPEN;
      this.onopen?.();
    }, 0);
  }

  send(data: string) {
    this.sent.push(JSON.parse(data) as unknown);
  }

  close() {
    this.readyState = FakeWebSocket.CLOSED;
  }

  /** The server says something. */
  receive(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  static latest(): FakeWebSocket {
    const socket = FakeWebSocket.instances.at(-1);
    if (!socket) throw new Error('No hub socket was opened.');
    return socket;
  }
}
