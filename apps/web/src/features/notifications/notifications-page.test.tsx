import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { notificationScheduleMessages as text } from '@clinicrelay/contracts/notifications.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { defaultPreferences, demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(roles: Role[]) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles }),
    preferences: { ...defaultPreferences, emailNewMessages: true, emailUnprocessedMessages: false },
    handlers: {
      'GET /api/organizationsettings/notifications': () => json(200, { dailyTime: '08:00', timeZone: 'America/New_York' }),
      'PUT /api/organizationsettings/notifications': (body) => json(200, body),
    },
  });
  uninstall = renderApp('/settings/notifications').uninstall;
  return api;
}

describe('Notifications (issue 13 §5)', { timeout: 30_000 }, () => {
  it('lets a User choose their mails, and shows them no organization schedule', async () => {
    const { calls } = start(['User']);
    const user = userEvent.setup({ delay: null });
    const mine = await screen.findByRole('region', { name: 'Email me about' });
    await waitFor(() => expect(document.title).toBe('Notifications · ClinicRelay'));
    expect(within(mine).getByRole('checkbox', { name: /New messages/ })).toHaveProperty('checked', true);
    expect(within(mine).getByRole('checkbox', { name: /Unprocessed messages/ })).toHaveProperty('checked', false);
    expect(within(mine).getAllByRole('checkbox')).toHaveLength(5);
    expect(screen.queryByRole('region', { name: 'Daily reminders and digests' })).toBeNull();

    await user.click(within(mine).getByRole('checkbox', { name: /New messages/ }));
    await user.click(within(mine).getByRole('checkbox', { name: /Unprocessed messages/ }));
    await user.click(within(mine).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'PUT /api/users/preferences')?.body).toEqual({
        emailNewMessages: false,
        emailUnprocessedMessages: true,
        emailSystemNotifications: true,
        emailUnassignedMessages: false,
        emailFailedMessagesDigest: false,
      }),
    );
    expect(await screen.findByText(text.preferencesSaved)).toBeTruthy();
    expect(calls.some((c) => c.key === 'GET /api/organizationsettings/notifications')).toBe(false);
  });

  it('lets an Administrator set the organization’s daily time and zone, checking the time first', async () => {
    const { calls } = start(['Administrator']);
    const user = userEvent.setup({ delay: null });
    const daily = await screen.findByRole('region', { name: 'Daily reminders and digests' });
    const time = await within(daily).findByLabelText(/Time/, { selector: 'input[type="time"]' });
    expect(time).toHaveProperty('value', '08:00');
    await user.clear(time);
    await user.click(within(daily).getByRole('button', { name: 'Save' }));
    expect(await within(daily).findByText(text.timeInvalid)).toBeTruthy();
    await user.type(time, '07:30');
    await user.click(within(daily).getByRole('combobox', { name: 'Time zone' }));
    await user.click(await screen.findByRole('option', { name: 'America/Chicago' }));
    await user.click(within(daily).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'PUT /api/organizationsettings/notifications')?.body).toEqual({ dailyTime: '07:30', timeZone: 'America/Chicago' }));
    expect(await screen.findByText(text.saved)).toBeTruthy();
  });
});
