import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { formatDuration } from './workflows-page.tsx';

const ID = '4029592b-4c66-4a9f-8490-3376cb196993';
const MESSAGE = 'f613c1f1-e689-4c6c-8ee4-7f98e1656b2d';
const step = (stepName: string, status: string) => ({
  id: `${stepName}-id`,
  stepName,
  key: 'nobody@nowhere.example.com',
  status,
  startTime: '2026-11-29T05:49:00.000Z',
  endTime: '2026-11-29T05:49:01.000Z',
  elapsed: 179,
  attempts: 1,
  lastError: status === 'Failed' ? 'No certificate found for this address' : null,
  meta: null,
});
const workflow = {
  id: ID,
  objectId: 'AkApWStMZkqfhJAzdssZaZM',
  type: 'send-message',
  kind: 'send',
  status: 'Failed',
  channel: ['Direct'],
  createdTime: '2026-11-29T05:49:00.000Z',
  duration: 583,
  hispMessageId: null,
  command: { name: 'send-message', messageId: MESSAGE },
  mailMessage: null,
  attempts: 1,
  maxAttempts: 5,
  lastError: 'deliver: No certificate found for this address',
  steps: [step('deliver', 'Completed'), step('direct-seal', 'Failed')],
};

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

describe('Workflows grid', { timeout: 30_000 }, () => {
  it('reads its filters from the dashboard’s link, opens a row’s steps and retries a step that is not Completed', async () => {
    signIn();
    const { calls } = stubApi({
      profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
      handlers: {
        'GET /api/diagnostics/messaging/workflows?category=workflows&pageNumber=1&pageSize=25&status=Failed&type=release&channel=Direct': () => json(200, { items: [workflow], totalCount: 1 }),
        [`PUT /api/workflows/${ID}`]: () => json(200, { result: 'Retried', message: 'The step will run again.', workflow }),
      },
    });
    uninstall = renderApp('/admin/dashboard/messaging/workflows?status=Failed&type=release&channel=Direct').uninstall;
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: `Show steps of workflow ${ID}` }));
    const steps = screen.getByRole('table', { name: `Steps of workflow ${ID}` });
    // Only the step that is not Completed offers Retry.
    expect(within(steps).queryByRole('button', { name: 'Retry deliver nobody@nowhere.example.com' })).toBeNull();
    await user.click(within(steps).getByRole('button', { name: 'Retry direct-seal nobody@nowhere.example.com' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === `PUT /api/workflows/${ID}`)?.body).toEqual({ type: 'send', retryStep: 'direct-seal', id: ID, key: 'nobody@nowhere.example.com' }),
    );
    expect(await screen.findByText('The step will run again.')).toBeTruthy();
  });

  it('shows durations in the unit that reads best', () => {
    expect([850, 2400, 185_000, 7_800_000, null].map(formatDuration)).toEqual(['850 ms', '2.4 s', '3 min 5 s', '2 h 10 min', '']);
  });
});
