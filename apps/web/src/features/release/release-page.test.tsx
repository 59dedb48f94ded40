import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { deliveryFixture, MESSAGE_ID } from './release-test-fixtures.ts';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const LONG_SUBJECT = `Referral ${'x'.repeat(246)}`;

function start() {
  signIn();
  stubApi({
    handlers: {
      'GET /api/organizationsettings': () => json(200, {}),
      'GET /api/messages?pageStart=1&pageSize=25': () =>
        json(200, {
          totalCount: 1,
          items: [
            {
              id: MESSAGE_ID,
              subject: LONG_SUBJECT,
              fromAddress: '5035550100',
              toAddress: '5035550202',
              toAddresses: ['5035550202'],
              createdDate: '2026-11-20T15:00:00Z',
              updatedDate: '2026-11-20T15:00:00Z',
              messageDate: '2026-11-20T15:00:00Z',
              isDraft: false,
              isUrgent: false,
              status: 'Delivered',
              patientName: 'Alvarez, Maria',
              attachmentCount: 1,
              deliveries: [deliveryFixture({ statusDetail: 'Delivered (sandbox: no real fax was sent)', isSimulated: true })],
            },
          ],
        }),
    },
  });
  uninstall = renderApp('/release').uninstall;
}

describe('the Release list (issue 9)', { timeout: 30_000 }, () => {
  it('names the tab, cuts a long subject to 80 characters keeping the whole one as the link’s name, and marks a sandbox delivery', async () => {
    start();
    const link = await screen.findByRole('link', { name: LONG_SUBJECT });
    expect(link.textContent).toBe(`${LONG_SUBJECT.slice(0, 80)}…`);
    expect(screen.getByText('Delivered (sandbox)')).toBeTruthy();
    expect(screen.getByText('Delivered (sandbox: no real fax was sent)')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Release · ClinicRelay'));
  });
});
