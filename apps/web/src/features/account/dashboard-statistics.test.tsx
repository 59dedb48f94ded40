import { screen, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { statisticsTexts } from './dashboard-statistics.tsx';
import { emptyHandlers, statisticsFixture, today } from './dashboard-test-fixtures.ts';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(handlers: Record<string, () => Response> = {}) {
  signIn();
  stubApi({ profile: demoProfile({ roles: ['Administrator'] }), handlers: { ...emptyHandlers(), ...handlers } });
  uninstall = renderApp('/account/dashboard').uninstall;
}

const section = async () => screen.findByRole('region', { name: statisticsTexts.title });

describe('the dashboard’s message statistics (issue 13 §1)', { timeout: 30_000 }, () => {
  it('shows the 30 days’ totals and, for screen readers too, received and sent per day', async () => {
    start({ 'GET /api/messages/statistics': () => json(200, statisticsFixture()) });
    const region = await section();
    for (const [label, n] of [['Received', 12], ['Sent', 7], ['Failed', 2], ['Unprocessed', 5], ['Unassigned', 4]] as const) {
      expect(await within(region).findByLabelText(`${label}: ${n}`)).toBeTruthy();
    }
    const table = within(region).getByRole('table', { name: statisticsTexts.perDay, hidden: true });
    const rows = within(table).getAllByRole('row', { hidden: true });
    expect(rows).toHaveLength(31);
    expect(within(rows[30]!).getAllByRole('cell', { hidden: true }).map((c) => c.textContent)).toEqual([dayjs(today()).format('MMM DD'), '3', '2']);
    expect(within(region).queryByText(statisticsTexts.empty)).toBeNull();
  });

  it('says when nothing was received or sent, and shows a loader until the figures arrive', async () => {
    let answer: (r: Response) => void = () => {};
    const pending = new Promise<Response>((resolve) => (answer = resolve));
    start({ 'GET /api/messages/statistics': () => pending as unknown as Response });
    const region = await section();
    expect(within(region).getByLabelText('Loading message statistics')).toBeTruthy();
    answer(emptyHandlers()['GET /api/messages/statistics']());
    expect(await within(region).findByText(statisticsTexts.empty)).toBeTruthy();
    expect(within(region).getByLabelText('Received: 0')).toBeTruthy();
    expect(within(region).queryByRole('table', { hidden: true })).toBeNull();
  });

  it('shows the server’s message when the figures cannot be read', async () => {
    start({ 'GET /api/messages/statistics': () => json(500, { message: 'An error has occurred.' }) });
    expect(await within(await section()).findByText('An error has occurred.')).toBeTruthy();
  });
});
