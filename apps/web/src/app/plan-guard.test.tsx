import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CurrentSubscription } from '@clinicrelay/contracts/subscriptions.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from './app-test-harness.tsx';

let uninstall: (() => void) | undefined;
beforeEach(() => signIn());
afterEach(() => uninstall?.());

function start(url: string) {
  const app = renderApp(url);
  uninstall = app.uninstall;
  return app;
}

const stayConnected = { planId: 'stay-connected' };
const subscription: CurrentSubscription = {
  organizationId: 'org-1',
  organizationName: 'Lakeside Family Medicine',
  planId: 'stay-connected',
  subscriptionReference: null,
  status: 'Active',
  cancelledAt: null,
  gracePeriodEndDate: null,
  reactivationRequestedAt: null,
  plans: [
    { id: 'stay-connected', name: 'Stay Connected', allowedUsers: 5, allowedUsersDescription: 'Up to 5 users', isFree: false, priceCents: 2900 },
    { id: 'professional', name: 'Professional', allowedUsers: 25, allowedUsersDescription: 'Up to 25 users', isFree: false, priceCents: 9900 },
  ],
  userCount: 3,
  lastPayment: null,
  paymentProvider: 'sandbox',
};

describe('the plan-upgrade guard (end-user §2, §6)', () => {
  it('shows a User of a Stay Connected organization the upgrade prompt instead of Release, and sends the request', async () => {
    const { calls } = stubApi({
      profile: demoProfile({ ...stayConnected, roles: ['User'], isAdmin: false }),
      handlers: { 'POST /api/subscriptionplans/upgraderequest': () => json(200, { message: 'Your plan upgrade request has been sent.' }) },
    });
    start('/release');
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade Subscription Plan' });
    expect(within(dialog).getByText(/Send a request to your organization's administrators/)).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: 'Release' })).toBeNull();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Send Request' }));
    expect(await screen.findByText('Your plan upgrade request has been sent.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/subscriptionplans/upgraderequest')?.body).toEqual({ feature: 'Release' });
  });

  it('sends an Administrator’s Send Request to the plan page; Not Now leaves for Intake on a first navigation', async () => {
    stubApi({
      profile: demoProfile({ ...stayConnected, roles: ['Administrator'], isAdmin: true }),
      handlers: { 'GET /api/subscriptionplans/subscriptions': () => json(200, subscription) },
    });
    const { router } = start('/release');
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade Subscription Plan' });
    expect(within(dialog).getByText(/Upgrade the subscription plan to use it/)).toBeTruthy();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Send Request' }));
    await screen.findByRole('heading', { level: 1, name: 'Subscription' });
    expect(router.state.location.pathname).toBe('/settings/subscription');
    expect(await screen.findByRole('heading', { name: 'Current plan: Stay Connected' })).toBeTruthy();
  });

  it('Not Now closes the prompt and goes to Intake', async () => {
    stubApi({ profile: demoProfile({ ...stayConnected, roles: ['User'], isAdmin: false }) });
    const { router } = start('/release/new');
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade Subscription Plan' });
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Not Now' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/intake'));
  });

  it('lets other plans into Release', async () => {
    stubApi({ profile: demoProfile({ planId: 'professional', roles: ['User'] }) });
    start('/release');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Upgrade Subscription Plan' })).toBeNull());
  });
});

describe('the subscription page', () => {
  it('changes the plan with the sandbox card form, showing the provider’s decline first', async () => {
    let declined = false;
    const { calls } = stubApi({
      profile: demoProfile({ ...stayConnected, roles: ['Administrator'], isAdmin: true }),
      handlers: {
        'GET /api/subscriptionplans/subscriptions': () => json(200, subscription),
        'POST /api/subscriptionplans/subscriptions': () => {
          if (!declined) {
            declined = true;
            return json(400, { message: 'Your card was declined.', modelState: { card: ['Your card was declined.'] } });
          }
          return json(200, { message: 'Your subscription plan is now Professional.', payment: null });
        },
      },
    });
    start('/settings/subscription');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Choose Professional' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change to Professional' });
    expect(within(dialog).getByText(/Sandbox \(test mode\)/)).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'Card number' }), '4000 0000 0000 0002');
    await user.type(within(dialog).getByRole('textbox', { name: 'Expiry (MM/YY)' }), '12/30');
    await user.type(within(dialog).getByRole('textbox', { name: 'Security code' }), '123');
    await user.click(within(dialog).getByRole('button', { name: /Pay \$99\.00 and change plan/ }));
    expect(await within(dialog).findByText('Your card was declined.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/subscriptionplans/subscriptions')?.body).toEqual({
      planId: 'professional',
      organizationId: 'org-1',
      card: { number: '4000 0000 0000 0002', expiryMonth: 12, expiryYear: 2030, cvc: '123', nameOnCard: null },
    });
    await user.click(within(dialog).getByRole('button', { name: /Pay \$99\.00 and change plan/ }));
    expect(await screen.findByText('Your subscription plan is now Professional.')).toBeTruthy();
  });

  it('asks for a reason and a confirmation before canceling', async () => {
    const { calls } = stubApi({
      profile: demoProfile({ roles: ['Administrator'], isAdmin: true }),
      handlers: {
        'GET /api/subscriptionplans/subscriptions': () => json(200, { ...subscription, planId: 'professional' }),
        'POST /api/subscriptionplans/cancel': () => json(200, { message: 'Your subscription has been canceled. Your organization can use it until 04/15/2026.', gracePeriodEndDate: '2026-04-15T00:00:00.000Z' }),
      },
    });
    start('/settings/subscription');
    const user = userEvent.setup();
    const cancelButton = await screen.findByRole('button', { name: 'Cancel subscription' });
    await user.click(cancelButton);
    expect(await screen.findByText('Tell us why you are canceling.')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /Why are you canceling\?/ }), 'Closing the practice');
    await user.click(cancelButton);
    const confirm = await screen.findByRole('dialog', { name: 'Cancel the subscription?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel subscription' }));
    expect(await screen.findByText(/Your subscription has been canceled/)).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/subscriptionplans/cancel')?.body).toEqual({ cancelReason: 'Closing the practice' });
  });
});
