import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiCaptureRecord } from '@clinicrelay/contracts/api-capture.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

const START = '2026-11-28T10:00';
const END = '2026-11-29T10:00';
const range = `start=${encodeURIComponent(new Date(START).toISOString())}&end=${encodeURIComponent(new Date(END).toISOString())}`;
const LIST = `GET /api/diagnostics/apicapture?${range}&pageNumber=1&pageSize=20&sortDir=1`;

const signInRecord: ApiCaptureRecord = {
  id: 'c1',
  tenantid: 'o1',
  tenantName: 'Lakeside Family Medicine',
  networkid: 'n1',
  networkName: 'Northwest Health Network',
  userId: 'u1',
  userName: 'user@lakeside.example.org',
  tokenHash: 'ab'.repeat(32),
  date: '2026-11-29T09:30:00.000Z',
  userIdSourceType: 'IssuedToken',
  durationMs: 12.5,
  value: {
    request: { url: '/api/account/login', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"userName":"user@lakeside.example.org","password":"[REDACTED]"}', bodyBytes: 69, bodyTruncated: false },
    response: { status: 200, headers: { 'set-cookie': '[REDACTED]' }, body: '{"accessToken":"[REDACTED]"}', bodyBytes: 391, bodyTruncated: false },
  },
};

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

describe('API capture', { timeout: 30_000 }, () => {
  it('lists captured calls and expands one to its redacted request and response', async () => {
    signIn();
    const api = stubApi({
      profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
      handlers: {
        [LIST]: () => json(200, { items: [signInRecord], totalCount: 1 }),
        [`GET /api/diagnostics/apicapture?${range}&pageNumber=1&pageSize=20&sortDir=1&method=POST`]: () => json(200, { items: [], totalCount: 0 }),
      },
    });
    uninstall = renderApp(`/admin/apicapture?start=${START}&end=${END}`).uninstall;
    const row = (await screen.findByRole('cell', { name: '/api/account/login' })).closest('tr')!;
    expect(within(row).getByText('Lakeside Family Medicine')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Show request and response of POST /api/account/login' }));
    expect(await screen.findByText('Request')).toBeTruthy();
    expect(screen.getByText(/"password": "\[REDACTED\]"/)).toBeTruthy();
    expect(screen.getByText('User from: IssuedToken')).toBeTruthy();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Method' }), 'POST');
    expect(await screen.findByText('There are no results matching your criteria.')).toBeTruthy();
    await waitFor(() => expect(api.calls.map((c) => c.key)).toContain(`GET /api/diagnostics/apicapture?${range}&pageNumber=1&pageSize=20&sortDir=1&method=POST`));
  });
});
