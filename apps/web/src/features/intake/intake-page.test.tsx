import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IntakeListItem } from '@clinicrelay/contracts/intake.ts';
import type { Profile } from '@clinicrelay/contracts/session.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { defaultStartDate } from './intake-filter-state.ts';
import { FakeWebSocket, listItem } from './intake-test-fixtures.ts';

let uninstall: (() => void) | undefined;
beforeEach(() => {
  FakeWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
});
afterEach(() => uninstall?.());

interface Options {
  items?: IntakeListItem[];
  answer?: Record<string, unknown>;
  roles?: Profile['roles'];
}

async function open({ items = [listItem()], answer = {}, roles = ['User'] }: Options = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles }),
    handlers: {
      'POST /api/messages': () => json(200, { items, totalCount: items.length, ...answer }),
      'GET /api/documentsources': () => json(200, [{ id: 's-1', address: { fullAddress: 'referrals@riverview.direct.example.org', type: 'Direct' }, status: 1 }]),
    },
  });
  const app = renderApp('/intake');
  uninstall = app.uninstall;
  await screen.findByRole('heading', { level: 1, name: 'Intake' });
  return { ...api, router: app.router };
}

const rowOf = async (subject: string | RegExp) => (await screen.findByRole('link', { name: subject })).closest('tr')!;

describe('Intake list (end-user §2 "Intake screens")', () => {
  it('asks for the default filter: 30 days back from UTC midnight, newest received first, 30 a page', async () => {
    const { calls } = await open();
    await rowOf('Referral for Maria Alvarez');
    const body = calls.find((c) => c.key === 'POST /api/messages')?.body;
    expect(body).toMatchObject({ pageStart: 1, pageSize: 30, orderBy: 'receiveDate', orderDir: 'desc', startDate: defaultStartDate(), isAll: true });
    expect(defaultStartDate(new Date('2026-11-22T23:30:00-05:00'))).toBe('2026-10-24');
  });

  it('filters the From column and sends it as a column filter, kept in the URL', async () => {
    const { calls, router } = await open();
    await rowOf('Referral for Maria Alvarez');
    fireEvent.click(screen.getByRole('button', { name: 'Filter From' }));
    fireEvent.change(await screen.findByLabelText('Operator'), { target: { value: 'equals' } });
    fireEvent.change(screen.getByLabelText('Value'), { target: { value: ' Lab@Quest.example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.key === 'POST /api/messages').at(-1)?.body).toMatchObject({
        pageStart: 1,
        columnFilters: { fromAddress: { value: 'Lab@Quest.example.com', operator: 'equals' } },
      }),
    );
    const body = calls.filter((c) => c.key === 'POST /api/messages').at(-1)?.body as { columnFilters: object };
    expect(Object.keys(body.columnFilters)).toEqual(['fromAddress']);
    expect(new URLSearchParams(router.state.location.search).get('filter_fromAddress')).toBe('equals: Lab@Quest.example.com ');
  });

  it('shows each column: attachments, subject cut at 80 characters (the full text on hover), from over to with fax numbers dashed, patient, status pill, doc status saying how it was processed, fax pages', async () => {
    const long = `${'A'.repeat(79)}BCDEFGHIJ`;
    await open({
      items: [
        listItem({ id: '11111111-1111-4111-8111-111111111111', subject: long, attachmentCount: 3, status: 'AttachmentRead', isRead: true, faxPageCount: 7, isUrgent: true }),
        listItem({ id: '22222222-2222-4222-8222-222222222222', subject: 'Processed one', isProcessed: true, processedType: 'Printed', status: 'Processed' }),
        listItem({
          id: '33333333-3333-4333-8333-333333333333',
          subject: 'A fax',
          sourceType: 'Fax',
          fromAddress: '503-555-0101',
          toAddress: '5035550202',
          isProcessed: true,
          processedType: 'PDFExport',
          status: 'Processed',
        }),
        listItem({ id: '55555555-5555-4555-8555-555555555555', subject: 'Waiting one' }),
      ],
    });
    const first = await rowOf(`${'A'.repeat(79)}B…`);
    fireEvent.mouseEnter(within(first).getByRole('link'));
    expect((await screen.findByRole('tooltip')).textContent).toBe(long);
    expect(within(first).getByLabelText('3 attachments')).toBeTruthy();
    expect(within(first).getByText('Read')).toBeTruthy();
    expect(within(first).queryByText('AttachmentRead')).toBeNull();
    expect(within(first).getByText('Urgent')).toBeTruthy();
    expect(within(first).getByText('7')).toBeTruthy();
    expect(within(first).getByText('intake@lakeside.direct.example.org')).toBeTruthy();
    expect(within(first).getByText('referrals@riverview.direct.example.org')).toBeTruthy();
    expect(within(first).getByText('Alvarez, Maria')).toBeTruthy();

    // One badge per state: the doc status says how it was processed, and no pill repeats "Processed".
    const second = await rowOf('Processed one');
    expect(within(second).getByText('Printed')).toBeTruthy();
    expect(within(second).queryByText('Processed')).toBeNull();

    // Every fax number with dashes (end-user §5), whichever way it was stored.
    const fax = await rowOf('A fax');
    expect(within(fax).getByText('503-555-0101')).toBeTruthy();
    expect(within(fax).getByText('503-555-0202')).toBeTruthy();
    expect(within(fax).queryByText('5035550202')).toBeNull();
    fireEvent.mouseEnter(within(fax).getByText('Exported').parentElement!);
    expect((await screen.findByText('Exported as PDF')).closest('[role="tooltip"]')).toBeTruthy();

    expect(within(await rowOf('Waiting one')).getByText('Not processed')).toBeTruthy();
  });

  it('names the browser tab "Intake"', async () => {
    await open();
    await waitFor(() => expect(document.title).toBe('Intake · ClinicRelay'));
  });

  it('cannot clear the sort by choosing its current option', async () => {
    const { calls } = await open();
    await rowOf('Referral for Maria Alvarez');
    const sort = screen.getByRole<HTMLInputElement>('combobox', { name: 'Sort' });
    expect(sort.value).toBe('Received date, newest on top');
    fireEvent.click(sort);
    fireEvent.click(await screen.findByRole('option', { name: 'Received date, newest on top' }));
    expect(sort.value).toBe('Received date, newest on top');
    fireEvent.click(sort);
    fireEvent.click(await screen.findByRole('option', { name: 'Updated date, oldest on top' }));
    await waitFor(() => expect(calls.filter((c) => c.key === 'POST /api/messages').at(-1)?.body).toMatchObject({ orderBy: 'updatedDate', orderDir: 'asc' }));
  });

  it('selects rows with a tri-state select-all checkbox', async () => {
    await open({ items: [listItem(), listItem({ id: '66666666-6666-4666-8666-666666666666', subject: 'Second' })] });
    const all = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select all' });
    await rowOf('Second');
    expect(all.checked).toBe(false);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Second' }));
    await waitFor(() => expect(all.getAttribute('data-indeterminate')).toBe('true'));
    expect(all.checked).toBe(false);
    fireEvent.click(all);
    await waitFor(() => expect(all.checked).toBe(true));
    expect(all.getAttribute('data-indeterminate')).toBeNull();
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select Referral for Maria Alvarez' }).checked).toBe(true);
    fireEvent.click(all);
    await waitFor(() => expect(all.checked).toBe(false));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select Second' }).checked).toBe(false);
  });

  it('offers Reply unless the message came from Triage, and Activity to Administrators only', async () => {
    await open({ items: [listItem(), listItem({ id: '77777777-7777-4777-8777-777777777777', subject: 'Triaged one', sourceType: 'Triage' })] });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Referral for Maria Alvarez' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Reply' }).getAttribute('href')).toBe('/release/reply/44444444-4444-4444-8444-444444444444');
    expect(within(menu).getByRole('menuitem', { name: 'Forward' }).getAttribute('href')).toBe('/release/forward/44444444-4444-4444-8444-444444444444');
    expect(within(menu).getByRole('menuitem', { name: 'Triage' })).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: 'Delete' })).toBeTruthy();
    expect(within(menu).queryByRole('menuitem', { name: 'Activity' })).toBeNull();
    fireEvent.keyDown(menu, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Actions for Triaged one' }));
    const triaged = await screen.findByRole('menu');
    expect(within(triaged).queryByRole('menuitem', { name: 'Reply' })).toBeNull();
    expect(within(triaged).getByRole('menuitem', { name: 'Forward' })).toBeTruthy();
  });

  it('shows Activity in the row menu of an Administrator', async () => {
    await open({ roles: ['Administrator'] });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Referral for Maria Alvarez' }));
    expect(await screen.findByRole('menuitem', { name: 'Activity' })).toBeTruthy();
  });

  it('shows the counts beside the assignment filter, capped as "N+"', async () => {
    await open({ answer: { counts: { all: 150, unassigned: 4, assignedToSelf: 99, unread: 0, failed: 0 } } });
    expect(await screen.findByText('All (99+)')).toBeTruthy();
    expect(screen.getByText('Unassigned (4)')).toBeTruthy();
    expect(screen.getByText('Assigned to me (99)')).toBeTruthy();
  });

  it('shows a total the server stopped counting as "N+"', async () => {
    await open({ answer: { totalCount: 1000, totalCountCapped: true } });
    expect(await screen.findByText('1–1 of 1,000+')).toBeTruthy();
    uninstall?.();
    cleanup();
    await open({ answer: { totalCount: 1 } });
    expect(await screen.findByText('1–1 of 1')).toBeTruthy();
  });

  it('says who can help when nothing is assigned to the user, naming the rules, and the plain empty text otherwise', async () => {
    await open({ items: [], answer: { nothingAssigned: true, administrators: ['Dana Reyes', 'Sam Ortiz'], ruleNames: ['To Records (Sample)'] } });
    expect(
      await screen.findByText(
        'No intake rules are assigned to you yet, so no messages reach your Intake. Ask an administrator of your organization (Dana Reyes, Sam Ortiz) to assign them. An administrator can add you to an intake rule such as “To Records (Sample)”.',
      ),
    ).toBeTruthy();
    uninstall?.();
    cleanup();
    await open({ items: [], answer: { ruleNames: ['Faxes', 'Labs'] } });
    expect(await screen.findByText('There are no messages matching your criteria. Your Intake shows the messages your intake rules bring: “Faxes”, “Labs”.')).toBeTruthy();
    uninstall?.();
    cleanup();
    await open({ items: [] });
    expect(await screen.findByText('There are no messages matching your criteria.')).toBeTruthy();
  });

  it('refreshes on the hub’s sync and marks rows someone else has open', async () => {
    const { calls } = await open();
    await rowOf('Referral for Maria Alvarez');
    const socket = FakeWebSocket.latest();
    await waitFor(() => expect(socket.sent).toContainEqual({ type: 'authenticate', token: 'access-1' }));
    expect(socket.url).toMatch(/\/api\/hub$/);
    act(() => socket.receive({ type: 'authenticated' }));
    const before = calls.filter((c) => c.key === 'POST /api/messages').length;
    act(() => socket.receive({ type: 'sync' }));
    await waitFor(() => expect(calls.filter((c) => c.key === 'POST /api/messages').length).toBe(before + 1));

    act(() => socket.receive({ type: 'openMessage', messageId: '44444444-4444-4444-8444-444444444444', userId: 'u-2', fullName: 'Dana Reyes' }));
    expect(await screen.findByLabelText('Open by Dana Reyes')).toBeTruthy();
    act(() => socket.receive({ type: 'closeMessage', messageId: '44444444-4444-4444-8444-444444444444', userId: 'u-2', fullName: 'Dana Reyes' }));
    await waitFor(() => expect(screen.queryByLabelText('Open by Dana Reyes')).toBeNull());
  });
});
