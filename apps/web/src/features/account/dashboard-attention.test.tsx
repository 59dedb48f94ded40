import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { attentionTexts, UNASSIGNED_INTAKE_PATH } from './dashboard-attention.tsx';
import { emptyHandlers, statisticsFixture } from './dashboard-test-fixtures.ts';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const FAILED = [
  { id: 'f1', subject: 'Lab results for Maria', fromAddress: 'lab@elsewhere.direct.example.com', toAddress: 'intake@lakeside.direct.example.org', receivedOn: '2026-11-20T15:00:00Z' },
  { id: 'f2', subject: 'Discharge summary', fromAddress: '5035550199', toAddress: '5035550101', receivedOn: '2026-11-21T15:00:00Z' },
];

function start(handlers: Record<string, (body: unknown) => Response> = {}) {
  signIn();
  const api = stubApi({ profile: demoProfile({ roles: ['Administrator'] }), handlers: { ...emptyHandlers(), ...handlers } });
  const view = renderApp('/account/dashboard');
  uninstall = view.uninstall;
  return { ...api, router: view.router };
}

const region = () => screen.findByRole('region', { name: attentionTexts.title });

describe('what needs the Administrator’s attention (issue 13 §1)', { timeout: 30_000 }, () => {
  it('acknowledges a failed message on its own, and then lists what the server still has', async () => {
    let failed = FAILED;
    const api = start({
      'GET /api/failedmessages': () => json(200, { items: failed, totalCount: failed.length }),
      'PUT /api/failedmessages/f1/acknowledge': () => {
        failed = FAILED.slice(1);
        return json(200, { acknowledged: 1 });
      },
    });
    const table = await within(await region()).findByRole('table', { name: attentionTexts.failedTitle });
    expect(within(table).getByRole('link', { name: 'Lab results for Maria' }).getAttribute('href')).toBe('/intake/f1');
    fireEvent.click(within(table).getByRole('button', { name: 'Acknowledge Lab results for Maria' }));
    expect(await screen.findByText(attentionTexts.acknowledged)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Lab results for Maria' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Discharge summary' })).toBeTruthy();
    expect(api.calls.filter((c) => c.key === 'PUT /api/failedmessages/f1/acknowledge')).toHaveLength(1);
  });

  it('acknowledges them all after a confirmation, then says nothing is left', async () => {
    let failed = FAILED;
    const api = start({
      'GET /api/failedmessages': () => json(200, { items: failed, totalCount: failed.length }),
      'POST /api/failedmessages/acknowledgeall': () => {
        failed = [];
        return json(200, { acknowledged: 2 });
      },
    });
    fireEvent.click(await within(await region()).findByRole('button', { name: attentionTexts.acknowledgeAll }));
    const dialog = await screen.findByRole('dialog', { name: attentionTexts.acknowledgeAllTitle });
    expect(within(dialog).getByText(attentionTexts.acknowledgeAllMessage(2))).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: attentionTexts.acknowledgeAll }));
    expect(await screen.findByText('2 failed messages have been acknowledged.')).toBeTruthy();
    expect(await screen.findByText(attentionTexts.failedEmpty)).toBeTruthy();
    expect(screen.queryByRole('button', { name: attentionTexts.acknowledgeAll })).toBeNull();
    expect(api.calls.filter((c) => c.key === 'POST /api/failedmessages/acknowledgeall')).toHaveLength(1);
  });

  it('counts the unassigned messages with a way to Intake’s Unassigned view, and names who never signed in', async () => {
    start({
      'GET /api/messages/statistics': () => json(200, statisticsFixture({ unassigned: 4 })),
      'GET /api/users/neversignedin': () =>
        json(200, { items: [{ id: 'u2', userName: 'user@lakeside.example.org', fullName: 'Leo Shore', createdOn: '2026-11-01T12:00:00Z' }], totalCount: 3 }),
    });
    const attention = await region();
    expect(await within(attention).findByText(attentionTexts.unassigned(4))).toBeTruthy();
    expect(within(attention).getByRole('link', { name: attentionTexts.openIntake }).getAttribute('href')).toBe(UNASSIGNED_INTAKE_PATH);
    const users = await within(attention).findByRole('list', { name: attentionTexts.neverSignedInTitle });
    expect(users.textContent).toContain('Leo Shore (user@lakeside.example.org)');
    expect(users.textContent).toContain('added 11/01/2026');
    expect(within(users).getByText(attentionTexts.more(2))).toBeTruthy();
  });

  it('says plainly when nothing needs attention', async () => {
    start();
    const attention = await region();
    expect(await within(attention).findByText(attentionTexts.failedEmpty)).toBeTruthy();
    expect(await within(attention).findByText(attentionTexts.unassignedEmpty)).toBeTruthy();
    expect(await within(attention).findByText(attentionTexts.neverSignedInEmpty)).toBeTruthy();
  });
});
