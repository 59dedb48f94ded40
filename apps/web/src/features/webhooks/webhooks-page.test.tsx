import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookEventNames, webhookEventTypes, webhookMessages as text } from '@clinicrelay/contracts/webhooks.ts';
import { demoProfile, json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';

const WH1 = '11111111-1111-4111-8111-111111111111';
const emr = {
  id: WH1,
  url: 'https://emr.lakeside.example/hooks',
  events: ['message.received'],
  authenticationType: 'HmacSha256',
  isEnabled: true,
  disabledReason: null,
  lastDeliveryStatus: 'Delivered',
  lastDeliveryAt: '2026-03-02T15:04:00.000Z',
  consecutiveFailures: 0,
  pausedUntil: null,
  createdAt: '2026-03-01T10:00:00.000Z',
};
const old = {
  ...emr,
  id: '22222222-2222-4222-8222-222222222222',
  url: 'https://old.lakeside.example/hooks',
  events: ['message.received'],
  authenticationType: 'Bearer',
  isEnabled: false,
  disabledReason: text.disabledAfterFailures,
  lastDeliveryStatus: 'Failed',
};
const events = webhookEventTypes.map((value) => ({ value, name: webhookEventNames[value] }));
const authenticationTypes = [
  { value: 'HmacSha256', name: 'HMAC-SHA256 signature' },
  { value: 'Bearer', name: 'Bearer token' },
  { value: 'Basic', name: 'Basic authentication' },
];

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(handlers: ApiStubOptions['handlers'] = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['Administrator'] }),
    handlers: {
      'GET /api/webhooks/': () => json(200, [emr, old]),
      'GET /api/webhooks/events': () => json(200, events),
      'GET /api/webhooks/authenticationtypes': () => json(200, authenticationTypes),
      ...handlers,
    },
  });
  uninstall = renderApp('/settings/webhooks').uninstall;
  return api;
}

describe('Webhooks', { timeout: 30_000 }, () => {
  it('lists the organization’s webhooks with their events, authentication, state and last delivery', async () => {
    start();
    expect(await screen.findByText(emr.url)).toBeTruthy();
    expect(screen.getAllByText('Message received')).toHaveLength(2);
    expect(screen.getByText('HMAC-SHA256 signature')).toBeTruthy();
    expect(screen.getByText('Bearer token')).toBeTruthy();
    const emrRow = screen.getByText(emr.url).closest('tr')!;
    expect(within(emrRow).getByText('Enabled')).toBeTruthy();
    const oldRow = screen.getByText(old.url).closest('tr')!;
    expect(within(oldRow).getByText('Disabled')).toBeTruthy();
    expect(within(emrRow).getByText('Delivered')).toBeTruthy();
    expect(within(oldRow).getByText('Failed')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Webhooks' })).toBeTruthy();
  });

  it('shows a webhook paused after failed tries in a row, and until when', async () => {
    const pausedUntil = new Date(Date.now() + 10 * 60_000).toISOString();
    start({ 'GET /api/webhooks/': () => json(200, [{ ...emr, lastDeliveryStatus: 'Failed', consecutiveFailures: 5, pausedUntil }]) });
    const row = (await screen.findByText(emr.url)).closest('tr')!;
    expect(within(row).getByText('Paused')).toBeTruthy();
    expect(within(row).queryByText('Enabled')).toBeNull();
  });

  it('adds a webhook and shows its secret once', async () => {
    const secret = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    const { calls } = start({ 'PUT /api/webhooks/': (body) => json(200, { ...emr, id: '33333333-3333-4333-8333-333333333333', url: (body as { url: string }).url, lastDeliveryStatus: null, lastDeliveryAt: null, secret }) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook' });
    const url = within(dialog).getByRole('textbox', { name: 'URL' });
    await user.type(url, 'http://emr.lakeside.example/hooks');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.urlInvalid)).toBeTruthy();
    // An IP address inside a private network is refused in the form too.
    await user.clear(url);
    await user.type(url, 'https://169.254.169.254/latest');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.urlPrivate)).toBeTruthy();
    await user.clear(url);
    await user.type(url, 'https://new.lakeside.example/hooks');
    // Every event the product emits is offered, by name.
    for (const name of ['Message received', 'Message delivered', 'Delivery failed', 'Message processed']) {
      expect(await within(dialog).findByRole('checkbox', { name })).toBeTruthy();
    }
    await user.click(within(dialog).getByRole('checkbox', { name: 'Delivery failed' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const secretDialog = await screen.findByRole('dialog', { name: 'Signing secret' });
    expect(within(secretDialog).getByText(secret)).toBeTruthy();
    expect(within(secretDialog).getByText(text.secretOnce)).toBeTruthy();
    expect(calls.find((c) => c.key === 'PUT /api/webhooks/')?.body).toEqual({
      url: 'https://new.lakeside.example/hooks',
      events: ['message.received', 'message.deliveryFailed'],
      authenticationType: 'HmacSha256',
      isEnabled: true,
      token: '',
      userName: '',
      password: '',
    });
    await user.click(within(secretDialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(secret)).toBeNull());
  });

  it('edits a webhook to Basic authentication without showing stored credentials', async () => {
    const { calls } = start({ 'PUT /api/webhooks/': (body) => json(200, { ...emr, ...(body as object) }) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: `Edit ${emr.url}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit webhook' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Authentication' }));
    await user.click(await screen.findByRole('option', { name: 'Basic authentication' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.userNameRequired)).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'User name' }), 'emr');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(text.saved)).toBeTruthy();
    expect(calls.find((c) => c.key === 'PUT /api/webhooks/')?.body).toMatchObject({ id: WH1, authenticationType: 'Basic', userName: 'emr', password: '' });
    expect(screen.queryByText(/whsec_/)).toBeNull();
  });

  it('shows a webhook’s recent attempts', async () => {
    start({
      [`GET /api/webhooks/${WH1}`]: () =>
        json(200, {
          ...emr,
          userName: null,
          attempts: [
            {
              id: 'a3',
              eventId: 'e2e2e2e2-0000-4000-8000-000000000000',
              eventType: 'message.deliveryFailed',
              attempt: 1,
              attemptedAt: '2026-03-02T15:05:00.000Z',
              statusCode: null,
              error: 'Not sent: emr.lakeside.example resolves to 10.0.0.5, an address in a private network.',
              durationMs: 3,
            },
            { id: 'a2', eventId: 'e1e1e1e1-0000-4000-8000-000000000000', eventType: 'message.received', attempt: 2, attemptedAt: '2026-03-02T15:04:00.000Z', statusCode: 200, error: null, durationMs: 40 },
            { id: 'a1', eventId: 'e1e1e1e1-0000-4000-8000-000000000000', eventType: 'message.received', attempt: 1, attemptedAt: '2026-03-02T15:03:30.000Z', statusCode: 500, error: 'The receiver answered 500.', durationMs: 35 },
          ],
        }),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: `Deliveries to ${emr.url}` }));
    const table = await screen.findByRole('table', { name: 'Recent deliveries' });
    expect(within(table).getByText('500')).toBeTruthy();
    expect(within(table).getByText('The receiver answered 500.')).toBeTruthy();
    expect(within(table).getByText('200')).toBeTruthy();
    expect(within(table).getAllByText('Message received')).toHaveLength(2);
    // A try that never left (refused, or no answer) says so, with the reason.
    const refused = within(table).getByText('Delivery failed').closest('tr')!;
    expect(within(refused).getByText('Not delivered')).toBeTruthy();
    expect(within(refused).getByText(/resolves to 10\.0\.0\.5/)).toBeTruthy();
  });

  it('deletes a webhook after confirmation', async () => {
    const { calls } = start({ [`DELETE /api/webhooks/${WH1}`]: () => json(200, { ok: true }) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: `Delete ${emr.url}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete webhook' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(text.deleted)).toBeTruthy();
    expect(calls.some((c) => c.key === `DELETE /api/webhooks/${WH1}`)).toBe(true);
  });
});
