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
