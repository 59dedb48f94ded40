import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CurrentSubscription } from '@clinicrelay/contracts/subscriptions.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from './app-test-harness.tsx';

let uninstall: (() => void) | undefined;

beforeEach(() => {
  signIn();
});

afterEach(() => {
  uninstall?.();
});

function start(url: string) {
  const app = renderApp(url);
  uninstall = app.uninstall;
  return app;
}

const oakwood = { organizationId: 'org-oakwood', organizationName: 'Oakwood Clinic' };
const subscription: CurrentSubscription = {
  organizationId: 'org-oakwood',
  organizationName: 'Oakwood Clinic',
  planId: 'professional',
  subscriptionReference: 'SUB-OAKWOOD-2025-0042',
  status: 'Cancelled',
  cancelledAt: '2026-02-10T15:00:00.000Z',
  gracePeriodEndDate: null,
  reactivationRequestedAt: null,
  plans: [],
  userCount: 2,
  lastPayment: null,
  paymentProvider: 'sandbox',
};
const reactivatedAnswer = {
  message: 'Organization successfully reactivated.',
  payment: { reference: 'ORD-1', provider: 'sandbox', planId: 'professional', status: 'Completed', amountCents: 9900, cardLast4: '4242', declineReason: null, createdAt: '2026-03-02T10:00:00.000Z', completedAt: '2026-03-02T10:00:00.000Z' },
};

describe('organization status (end-user §4)', () => {
  it('shows a user of a canceled organization the canceled modal instead of the page, then logs off', async () => {
    const { calls } = stubApi({ profile: demoProfile({ ...oakwood, roles: ['User'], orgIsCancelled: true, subscriptionReference: 'SUB-1' }) });
    const { router } = start('/intake');
    const dialog = await screen.findByRole('dialog', { name: 'Organization is currently canceled' });
    expect(within(dialog).getByText(/canceled by an administrator or for non-payment/)).toBeTruthy();
    expect(within(dialog).getByText(/Only an administrator of your organization can reactivate it/)).toBeTruthy();
    // Nothing of the organization's data is asked for, and nothing but Logout leads on.
    expect(screen.queryByRole('heading', { level: 1, name: 'Intake' })).toBeNull();
    expect(calls.some((c) => c.key.includes('/api/intake') || c.key.includes('/api/messages'))).toBe(false);
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();

    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Logout' }));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/account/login');
    expect(calls.some((c) => c.key === 'POST /api/account/logout')).toBe(true);
  });

  it('shows an administrator without a subscription reference the canceled modal too', async () => {
    stubApi({ profile: demoProfile({ ...oakwood, roles: ['Administrator'], isAdmin: true, orgIsCancelled: true, subscriptionReference: null }) });
    start('/account/dashboard');
    await screen.findByRole('dialog', { name: 'Organization is currently canceled' });
  });

  it('offers an administrator with a subscription reference to reactivate, says it is reactivated and refreshes the profile', async () => {
    const { calls } = stubApi({
      profile: demoProfile({ ...oakwood, roles: ['Administrator'], isAdmin: true, orgIsCancelled: true, subscriptionReference: 'SUB-OAKWOOD-2025-0042' }),
      handlers: {
        'GET /api/subscriptionplans/subscriptions': () => json(200, subscription),
        'POST /api/subscriptionplans/reactivate': () => json(200, reactivatedAnswer),
      },
    });
    start('/account/dashboard');
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate your organization' });
    expect(within(dialog).getByText(/Oakwood Clinic is currently canceled/)).toBeTruthy();
    expect(within(dialog).getByText('Subscription SUB-OAKWOOD-2025-0042, canceled on 02/10/2026')).toBeTruthy();
    // One organization: no switcher.
    expect(within(dialog).queryByRole('combobox', { name: 'Organization' })).toBeNull();

    const request = within(dialog).getByRole('button', { name: 'Request Reactivation' });
    await userEvent.setup().click(request);
    expect(await screen.findByText('Organization successfully reactivated.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/subscriptionplans/reactivate')?.body).toEqual({ planId: 'professional' });
    await waitFor(() => expect(request).toHaveProperty('disabled', true));
    // end-user §4: the profile is asked for again after the reactivation.
    await waitFor(() => expect(calls.filter((c) => c.key === 'GET /api/users/profiledata').length).toBeGreaterThan(1));
  });

  it('shows the organization switcher to a user of several organizations', async () => {
    stubApi({
      profile: demoProfile({
        ...oakwood,
        roles: ['Administrator'],
        isAdmin: true,
        orgIsCancelled: true,
        subscriptionReference: 'SUB-OAKWOOD-2025-0042',
        organizations: [
          { id: 'org-oakwood', subDomain: 'oakwood', name: 'Oakwood Clinic' },
          { id: 'org-lakeside', subDomain: 'lakeside', name: 'Lakeside Clinic' },
        ],
      }),
      handlers: { 'GET /api/subscriptionplans/subscriptions': () => json(200, subscription) },
    });
    start('/account/dashboard');
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate your organization' });
    expect(within(dialog).getByRole('button', { name: 'Request Reactivation' })).toHaveProperty('disabled', false);
    expect(within(dialog).getByRole('combobox', { name: 'Organization' })).toBeTruthy();
  });

  it('opens the reactivation modal without a plan when the plan cannot be had, and Cancel Reactivation logs off', async () => {
    const { calls } = stubApi({
      profile: demoProfile({ ...oakwood, roles: ['Administrator'], isAdmin: true, orgIsCancelled: true, subscriptionReference: 'SUB-OAKWOOD-2025-0042' }),
      handlers: { 'GET /api/subscriptionplans/subscriptions': () => json(500, { message: 'An unexpected error occurred.' }) },
    });
    const { router } = start('/account/dashboard');
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate your organization' });
    expect(within(dialog).queryByText(/^Subscription /)).toBeNull();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Cancel Reactivation' }));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/account/login');
    expect(calls.some((c) => c.key === 'POST /api/account/logout')).toBe(true);
  });

  it('shows the grace period modal over the page with the final date; Ok logs off', async () => {
    const { calls } = stubApi({
      profile: demoProfile({ ...oakwood, orgIsInGracePeriod: true, orgGracePeriodEndDate: '2026-04-30T12:00:00.000Z' }),
    });
    start('/intake');
    const dialog = await screen.findByRole('dialog', { name: 'Subscription has been canceled' });
    expect(within(dialog).getByText(/The subscription of Oakwood Clinic has been canceled. You can use it until 04\/30\/2026/)).toBeTruthy();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Ok' }));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(calls.some((c) => c.key === 'POST /api/account/logout')).toBe(true);
  });

  it('shows nothing for an organization in good standing', async () => {
    stubApi({ profile: demoProfile() });
    start('/intake');
    await screen.findByRole('heading', { level: 1, name: 'Intake' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
