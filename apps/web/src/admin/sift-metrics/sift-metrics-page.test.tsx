import userEvent from '@testing-library/user-event';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { todayIsoDate } from '@clinicrelay/contracts/dates.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const end = todayIsoDate();
const monthAgo = new Date();
monthAgo.setMonth(monthAgo.getMonth() - 1);
const start = todayIsoDate(monthAgo);
const url = (col: string, dir: string, from = start, to = end) => `GET /api/diagnostics/siftmetrics?start=${from}&end=${to}&col=${col}&sortDir=${dir}`;
const row = (id: string, organizationId: string, count: number) => ({
  id, organizationId, count, elapsed: 812.4, noText: 10, error: 0, noMatch: 5, conflicts: 2.5, perfectMatch: 60, confidenceIsVeryHigh: 40, first: 90, middle: 20, last: 85, dob: 75, gender: 70,
});
const lakeside = row('Lakeside Family Medicine', '7d1f0a3e-0000-4000-8000-000000000001', 40);
const riverview = row('Riverview Cardiology', '7d1f0a3e-0000-4000-8000-000000000002', 12);

describe('Sift metrics (/admin/siftmetrics)', { timeout: 30_000 }, () => {
  it('shows each tenant with count, average elapsed and percentages, sorts by count and searches a typed range', async () => {
    signIn();
    const api = stubApi({
      profile: demoProfile({ roles: ['SysAdminReporting'], organizationId: null, organizationName: null, organizations: [] }),
      handlers: {
        [url('tenant', 'asc')]: () => json(200, [lakeside, riverview]),
        [url('count', 'asc')]: () => json(200, [riverview, lakeside]),
        [url('count', 'asc', '2026-01-01', '2026-01-31')]: () => json(200, []),
      },
    });
    uninstall = renderApp('/admin/siftmetrics').uninstall;
    expect(await screen.findByRole('heading', { name: 'Sift metrics' })).toBeTruthy();
    const first = (await screen.findByText('Lakeside Family Medicine')).closest('tr')!;
    for (const cell of ['40', '812', '10.0%', '60.0%', '40.0%', '90.0%', '85.0%']) expect(within(first).getAllByText(cell).length).toBeGreaterThan(0);

    await userEvent.click(screen.getByRole('button', { name: /Count/ }));
    await screen.findByText('Riverview Cardiology');
    const names = () => screen.getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell')[0]!.textContent);
    await expect.poll(names).toEqual(['Riverview Cardiology', 'Lakeside Family Medicine']);

    const startBox = screen.getByRole('textbox', { name: 'Start Date' });
    const endBox = screen.getByRole('textbox', { name: 'End Date' });
    await userEvent.clear(startBox);
    await userEvent.type(startBox, '01/31/2026');
    await userEvent.clear(endBox);
    await userEvent.type(endBox, '01/01/2026');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Start Date must be smaller or equal than End Date.')).toBeTruthy();
    await userEvent.clear(startBox);
    await userEvent.type(startBox, '01/01/2026');
    await userEvent.clear(endBox);
    await userEvent.type(endBox, '01/31/2026');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('There are no results matching your criteria.')).toBeTruthy();
    expect(api.calls.map((c) => c.key)).toContain(url('count', 'asc', '2026-01-01', '2026-01-31'));
  });
});
