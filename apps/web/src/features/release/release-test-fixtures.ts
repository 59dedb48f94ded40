import { vi } from 'vitest';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import type { OrganizationSettings } from '@clinicrelay/contracts/organization-settings.ts';
import { json } from '../../app/app-test-harness.tsx';
import { messageFixture, settingsFixture } from '../../test/fixtures.ts';

// Test data of the release area's component tests.

export const MESSAGE_ID = '33333333-3333-4333-8333-333333333333';
export const DRAFT_ID = '22222222-2222-4222-8222-222222222222';

export function releaseMessage(overrides: Partial<Message> = {}): Message {
  return messageFixture({
    id: MESSAGE_ID,
    subject: 'Referral for J. Doe',
    fromAddress: 'records@lakeside.direct.example.org',
    toAddress: '5035550202',
    messageDate: '2026-11-20T15:00:00Z',
    status: 'Delivered',
    isReadyForDeliverySummary: true,
    ...overrides,
  });
}

export const settings = (overrides: Partial<OrganizationSettings> = {}) => settingsFixture({ deliverySummaryEnableDownload: true, ...overrides });

export const composeLookups = {
  'GET /api/documentsources': () =>
    json(200, [
      { id: 's-1', address: { fullAddress: 'records@lakeside.direct.example.org', type: 'Direct' }, status: 1 },
      { id: 's-2', address: { fullAddress: '5035550100', type: 'Fax' }, status: 1 },
    ]),
  'GET /api/releasetypes': () => json(200, []),
  'GET /api/messages/classifications': () => json(200, [{ code: 'REFERRAL', name: 'Referral' }]),
  'GET /api/addresscache': () => json(200, []),
  'GET /api/organizationsettings': () => json(200, settings()),
};

/**
 * Uploads go through XMLHttpRequest (for their progress): this stand-in hands each one to the stubbed
 * fetch of stubApi, so the same handlers answer it and its call is recorded; progress reports the
 * whole file once sent.
 */
export function installUploadXhr() {
  class UploadXhr {
    status = 0;
    responseText = '';
    upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private method = 'GET';
    private url = '';
    private headers: Record<string, string> = {};
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    send(body: FormData) {
      const file = body.get('file');
      const size = file instanceof File ? file.size : 0;
      void fetch(this.url, { method: this.method, headers: this.headers, body })
        .then(async (response) => {
          this.upload.onprogress?.({ lengthComputable: true, loaded: size, total: size });
          this.status = response.status;
          this.responseText = await response.text();
          this.onload?.();
        })
        .catch(() => this.onerror?.());
    }
  }
  vi.stubGlobal('XMLHttpRequest', UploadXhr);
}

export const RELEASE_TYPE_ID = '44444444-4444-4444-8444-444444444444';
export const releaseTypes = () => json(200, [{ id: RELEASE_TYPE_ID, name: 'Referral', organizationId: null, sendType: 'Any', originAddressId: null, destinationAddress: null, classificationCode: null, trackFaxResponses: false }]);

export const patientFixture = (overrides: Partial<NonNullable<Message['patient']>> = {}): NonNullable<Message['patient']> => ({
  patientIds: [],
  firstName: 'Maria',
  lastName: 'Alvarez',
  birthDate: '1958-04-12',
  gender: 'F',
  ...overrides,
});

export const attachmentFixture = (overrides: Partial<Message['attachments'][number]> = {}): Message['attachments'][number] => ({
  id: '55555555-5555-4555-8555-555555555555',
  fileName: 'letter.pdf',
  mimeType: 'application/pdf',
  sizeInBytes: 2048,
  isPreviewAvailable: false,
  previewAvailable: 'NotApplicable',
  transformStatus: 'None',
  isSelected: true,
  isRestorable: false,
  uploadProcessId: null,
  attachmentMeta: { documentDate: '2026-11-19', documentDateType: 'selected', confidentiality: 'Normal' },
  integrationMeta: null,
  ...overrides,
});

export const deliveryFixture = (overrides: Partial<Message['deliveries'][number]> = {}): Message['deliveries'][number] => ({
  recipient: '5035550202',
  channel: 'Fax',
  status: 'Delivered',
  reason: null,
  updatedAt: '2026-11-20T15:01:00Z',
  deliveredAt: '2026-11-20T15:01:00Z',
  statusDetail: 'Delivered',
  isSimulated: false,
  timeline: [],
  ...overrides,
});
