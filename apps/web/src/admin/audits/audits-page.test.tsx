import userEvent from '@testing-library/user-event';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const entry = {
  id: 'a1',
  eventType: 'MessageViewed',
  eventData: '{"list":"Intake"}',
  createdBy: 'user@lakeside.example.org',
  organizationId: 'o1',
  ip: '10.0.0.1',
  timestamp: '2026-03-01T10:00:00.000Z',
  createdOn: '2026-03-01T10:00:00.000Z',
};

describe('Audits (back office /admin/audits)', { timeout: 30_000 }, () => {
  it('searches by start, end and user name, 25 a page', async () => {
    signIn();
    const api = stubApi({
      profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
      handlers: { 'POST /api/admin/audits': () => json(200, { items: [entry], totalCount: 1 }) },
    });
    uninstall = renderApp('/admin/audits?from=2026-03-01&to=2026-03-31').uninstall;
    expect(await screen.findByRole('heading', { name: 'Audits' })).toBeTruthy();
    expect(await screen.findByText('MessageViewed')).toBeTruthy();
    for (const header of ['Event Type', 'Event Data', 'Created By', 'Timestamp']) expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    expect(api.calls[api.calls.length - 1]!.body).toEqual({ startDate: '2026-03-01', endDate: '2026-03-31', username: null, pageStart: 1, pageSize: 25 });

    await userEvent.type(screen.getByRole('searchbox', { name: 'Username' }), 'lakeside');
    await waitFor(() => expect(api.calls[api.calls.length - 1]!.body).toMatchObject({ username: 'lakeside', pageStart: 1 }));
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });
});
