import { screen, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { activityTime } from '../../components/format.ts';
import { activityTexts, typeWords } from './dashboard-activity.tsx';
import { recentActivityPath } from './dashboard-api.ts';
import { emptyHandlers } from './dashboard-test-fixtures.ts';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(handlers: Record<string, () => Response> = {}) {
  signIn();
  const api = stubApi({ profile: demoProfile({ roles: ['Administrator'] }), handlers: { ...emptyHandlers(), ...handlers } });
  uninstall = renderApp('/account/dashboard').uninstall;
  return api;
}

describe('the dashboard’s recent activity (issue 13 §1)', { timeout: 30_000 }, () => {
  it('asks for 30 events over the last 14 days and shows today’s by time, earlier ones by day, with type names', async () => {
    const now = new Date();
    const earlier = dayjs().subtract(3, 'day').hour(9).minute(0).toDate().toISOString();
    const api = start({
      [`GET ${recentActivityPath()}`]: () =>
        json(200, {
          items: [
            { id: 'e1', messageId: 'm1', subject: 'Referral for Maria', eventType: 'MessageSent', createdBy: 'Laura Lake', createdOn: now.toISOString() },
            { id: 'e2', messageId: 'm2', subject: '', eventType: 'MessageRead', createdBy: null, createdOn: earlier },
          ],
        }),
    });
    const table = await screen.findByRole('table', { name: activityTexts.title });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText(dayjs(now).format('h:mm A'))).toBeTruthy();
    expect(within(rows[1]!).getByText('Message sent')).toBeTruthy();
    expect(within(rows[1]!).getByText('Referral for Maria')).toBeTruthy();
    expect(within(rows[1]!).getByText('Laura Lake')).toBeTruthy();
    expect(within(rows[2]!).getByText(dayjs(earlier).format('MMM DD'))).toBeTruthy();
    // A type the server does not name reads as words.
    expect(within(rows[2]!).getByText('Message read')).toBeTruthy();
    expect(within(rows[2]!).getByText(activityTexts.noSubject)).toBeTruthy();

    const path = recentActivityPath();
    expect(api.calls.some((c) => c.key === `GET ${path}`)).toBe(true);
    const params = new URL(path, 'http://x').searchParams;
    expect(params.get('pageSize')).toBe('30');
    expect(dayjs().diff(dayjs(params.get('start')), 'day')).toBe(13);
  });

  it('says so when nothing happened', async () => {
    start();
    expect(await screen.findByText(activityTexts.empty)).toBeTruthy();
    expect(activityTexts.empty).toBe('No message activity in the last 14 days.');
  });

  it('names unnamed types in words', () => {
    expect(typeWords('DraftCreated')).toBe('Draft created');
    expect(typeWords('FailedAcknowledged')).toBe('Failed acknowledged');
  });

  it('formats times as h:mm A today and MMM DD before', () => {
    const now = dayjs('2026-11-24T15:00:00');
    expect(activityTime('2026-11-24T08:05:00', now)).toBe('8:05 AM');
    expect(activityTime('2026-11-20T08:05:00', now)).toBe('Nov 20');
  });
});
