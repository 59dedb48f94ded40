import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import type { Profile } from '@clinicrelay/contracts/session.ts';
import { demoProfile, json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { formatDateTime } from '../../components/format.ts';
import { deliveryFixture, MESSAGE_ID, releaseMessage, settings } from './release-test-fixtures.ts';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

interface Options {
  message?: Partial<Message>;
  download?: boolean;
  roles?: Profile['roles'];
  handlers?: ApiStubOptions['handlers'];
}

async function view({ message = {}, download = true, roles = ['User'], handlers = {} }: Options = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles }),
    handlers: {
      [`GET /api/messages/${MESSAGE_ID}`]: () => json(200, releaseMessage(message)),
      'GET /api/organizationsettings': () => json(200, settings({ deliverySummaryEnableDownload: download })),
      ...handlers,
    },
  });
  const app = renderApp(`/release/${MESSAGE_ID}`);
  uninstall = app.uninstall;
  await screen.findByRole('heading', { level: 1, name: (message.subject ?? 'Referral for J. Doe') || '(no subject)' });
  return { ...api, router: app.router };
}

const button = (name: string) => screen.queryByRole('button', { name });

describe('release view actions (end-user §2 release screens)', () => {
  it('offers the delivery summary download only when the organization allows it and the message is ready', async () => {
    await view();
    expect(await screen.findByRole('button', { name: 'Download Delivery Summary' })).toBeTruthy();
    uninstall?.();
    cleanup();

    await view({ download: false });
    await screen.findByRole('button', { name: 'Send Delivery Summary to Intake' });
    expect(button('Download Delivery Summary')).toBeNull();
  });

  it('offers neither summary action while recipients are pending', async () => {
    await view({ message: { isReadyForDeliverySummary: false } });
    await screen.findByRole('link', { name: 'Forward' });
    expect(button('Download Delivery Summary')).toBeNull();
    expect(button('Send Delivery Summary to Intake')).toBeNull();
  });

  it('downloads the PDF as a file, and toasts the server’s reason when it cannot', async () => {
    const createObjectURL = vi.fn(() => 'blob:summary');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    let status = 200;
    await view({
      handlers: {
        [`GET /api/messages/${MESSAGE_ID}/deliverysummary`]: () =>
          status === 200
            ? new Response('%PDF-1.7', { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="delivery-summary.pdf"' } })
            : json(409, { message: 'The delivery summary is not ready yet: some recipients are still pending.' }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Download Delivery Summary' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('delivery-summary.pdf');
    expect(createObjectURL).toHaveBeenCalled();

    status = 409;
    fireEvent.click(screen.getByRole('button', { name: 'Download Delivery Summary' }));
    expect(await screen.findByText('The delivery summary is not ready yet: some recipients are still pending.')).toBeTruthy();
  });

  it('sends the delivery summary to Intake after confirming', async () => {
    const { calls } = await view({
      handlers: { [`POST /api/messages/${MESSAGE_ID}/deliverysummary/sendtointake`]: () => json(200, { message: 'Queued.' }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Send Delivery Summary to Intake' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Delivery Summary to Intake' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Your Delivery Summary is being generated. To view the document, go to My Intake.')).toBeTruthy();
    expect(calls.some((call) => call.key === `POST /api/messages/${MESSAGE_ID}/deliverysummary/sendtointake`)).toBe(true);
  });

  it('leads from the summary toast to My Intake, the Intake messages assigned to the user, where the server puts it (issue 9, point 6)', async () => {
    const { router } = await view({
      handlers: { [`POST /api/messages/${MESSAGE_ID}/deliverysummary/sendtointake`]: () => json(200, { message: 'Queued.' }) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Send Delivery Summary to Intake' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Delivery Summary to Intake' });
    expect(within(dialog).getByText(/added to My Intake/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Open My Intake' }));
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/intake?assign=mine'));
  });

  it('toasts the failure text when the summary cannot be sent to Intake', async () => {
    await view({ handlers: { [`POST /api/messages/${MESSAGE_ID}/deliverysummary/sendtointake`]: () => json(500, { message: 'boom' }) } });
    fireEvent.click(await screen.findByRole('button', { name: 'Send Delivery Summary to Intake' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Delivery Summary to Intake' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('The system encountered an error while generating the delivery summary.')).toBeTruthy();
  });

  it('says per recipient what the server says of its delivery, sandbox included (issue 9, point 7)', async () => {
    await view({
      message: {
        toAddress: '5035550202;records@elsewhere.example.com',
        deliveries: [
          deliveryFixture({ statusDetail: 'Delivered (sandbox: no real fax was sent)', reason: 'Delivered by the sandbox fax provider (no real fax was sent)', isSimulated: true }),
          deliveryFixture({
            recipient: 'records@elsewhere.example.com',
            channel: 'Direct',
            status: 'Pending',
            deliveredAt: null,
            statusDetail: 'Waiting: Direct delivery to addresses outside this installation is not available yet',
          }),
        ],
      },
    });
    const fax = screen.getByRole('row', { name: /503-555-0202/ });
    expect(within(fax).getByText('Delivered (sandbox: no real fax was sent)')).toBeTruthy();
    expect(within(fax).getByText('Sandbox')).toBeTruthy();
    const direct = screen.getByRole('row', { name: /records@elsewhere/ });
    expect(within(direct).getByText('Waiting: Direct delivery to addresses outside this installation is not available yet')).toBeTruthy();
  });

  it('shows each Direct recipient’s timeline under its status: stages with time and detail, the current one marked, a failure in words (issue 12 §4)', async () => {
    const delivered = 'referrals@riverview.example.net';
    const failed = 'records@elsewhere.example.com';
    await view({
      message: {
        toAddress: `${delivered};${failed};5035550202`,
        deliveries: [
          deliveryFixture({
            recipient: delivered,
            channel: 'Direct',
            statusDetail: 'Delivered to the recipient (Direct delivery notification received)',
            timeline: [
              { stage: 'Queued', at: '2026-11-20T15:00:00Z', detail: null },
              { stage: 'Sent', at: '2026-11-20T15:01:00Z', detail: '250 2.0.0 Ok: queued as 4F2A1' },
              { stage: 'Processed', at: '2026-11-20T15:02:00Z', detail: null },
              { stage: 'Dispatched', at: '2026-11-20T15:03:00Z', detail: null },
            ],
          }),
          deliveryFixture({
            recipient: failed,
            channel: 'Direct',
            status: 'Failed',
            deliveredAt: null,
            statusDetail: 'Failed: No delivery notification received',
            timeline: [
              { stage: 'Queued', at: '2026-11-20T15:00:00Z', detail: null },
              { stage: 'Sent', at: '2026-11-20T15:01:00Z', detail: null },
              { stage: 'Failed', at: '2026-11-20T16:01:00Z', detail: 'No delivery notification received' },
            ],
          }),
          deliveryFixture(),
        ],
      },
    });
    const stages = (recipient: string) =>
      within(screen.getByRole('list', { name: `Delivery timeline of ${recipient}` }))
        .getAllByRole('listitem')
        .map((item) => ({ text: item.textContent, current: item.getAttribute('aria-current') }));

    const row = screen.getByRole('row', { name: new RegExp(delivered) });
    expect(within(row).getByRole('list', { name: `Delivery timeline of ${delivered}` })).toBeTruthy();
    expect(stages(delivered)).toEqual([
      { text: `Queued · ${formatDateTime('2026-11-20T15:00:00Z')}`, current: null },
      { text: `Sent to the recipient’s mail server · ${formatDateTime('2026-11-20T15:01:00Z')} · 250 2.0.0 Ok: queued as 4F2A1`, current: null },
      { text: `Processed by the recipient’s HISP · ${formatDateTime('2026-11-20T15:02:00Z')}`, current: null },
      { text: `Delivered to the recipient · ${formatDateTime('2026-11-20T15:03:00Z')}`, current: 'step' },
    ]);
    expect(stages(failed).at(-1)).toEqual({ text: `Failed · ${formatDateTime('2026-11-20T16:01:00Z')} · No delivery notification received`, current: 'step' });
    const failedTimeline = screen.getByRole('list', { name: `Delivery timeline of ${failed}` });
    expect(within(failedTimeline).getByText('Failed').style.color).toBe('var(--mantine-color-red-8)');
    expect(within(failedTimeline).getByText('· No delivery notification received', { exact: false }).style.color).toBe('var(--mantine-color-red-8)');
    expect(formatDateTime('2026-11-20T16:01:00Z')).toMatch(/^11\/20\/2026 \d{1,2}:01 (AM|PM)$/);

    // A fax recipient has no SMTP timeline; its row stays as it was.
    const fax = screen.getByRole('row', { name: /503-555-0202/ });
    expect(within(fax).queryByRole('list')).toBeNull();
  });

  it('names the browser tab after the message’s subject (issue 9, point 9)', async () => {
    await view();
    await waitFor(() => expect(document.title).toBe('Referral for J. Doe · ClinicRelay'));
  });

  it('shows Activity to Administrators only', async () => {
    await view({ roles: ['User'] });
    await screen.findByRole('link', { name: 'Forward' });
    expect(button('Activity')).toBeNull();
  });

  it('lists the message’s activity for an Administrator, filtered by type, with the spec’s empty text', async () => {
    const { calls } = await view({
      roles: ['Administrator'],
      handlers: {
        'GET /api/audit/types': () => json(200, [{ eventType: 'MessageSent', name: 'Message sent' }, { eventType: 'MessageViewed', name: 'Message viewed' }]),
        [`GET /api/audit/message/${MESSAGE_ID}?pageStart=1&pageSize=10`]: () =>
          json(200, { items: [{ id: 'e-1', createdBy: 'Alex Morgan', eventType: 'MessageSent', createdOn: '2026-11-20T15:00:00Z' }], totalCount: 1 }),
        [`GET /api/audit/message/${MESSAGE_ID}?pageStart=1&pageSize=10&eventTypes=MessageViewed`]: () => json(200, { items: [], totalCount: 0 }),
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Activity' }));
    const dialog = await screen.findByRole('dialog', { name: 'Message Activity' });
    const row = await within(dialog).findByRole('row', { name: /Alex Morgan/ });
    expect(within(row).getByText('Message sent')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('combobox', { name: 'Activity type' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Message viewed' }));
    expect(await within(dialog).findByText('There are no results matching your criteria.')).toBeTruthy();
    expect(calls.some((call) => call.key.endsWith('eventTypes=MessageViewed'))).toBe(true);
  });

  it('lets the sender choose a tracked referral’s outcome once', async () => {
    const { calls } = await view({
      message: { conversation: { conversationId: 'c-1', type: 'TrackedReferral', conversationStatus: 'Draft' } },
      handlers: { 'POST /api/conversations/c-1/respond': () => json(200, { conversationId: 'c-1' }) },
    });
    expect(await screen.findByText('Referral status: Draft')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Accepted' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Note (optional)' }), { target: { value: 'Seen on 12/02' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save outcome' }));

    expect(await screen.findByText('Referral status: Accepted')).toBeTruthy();
    expect(screen.getByText('The referral outcome has been saved.')).toBeTruthy();
    expect(button('Save outcome')).toBeNull();
    expect(screen.queryByRole('radio', { name: 'Accepted' })).toBeNull();
    expect(calls.find((call) => call.key === 'POST /api/conversations/c-1/respond')?.body).toEqual({
      responseToMessageId: MESSAGE_ID,
      responseType: 'Accepted',
      responseAction: 'Seen on 12/02',
    });
  });

  it('shows a referral that already has its outcome without the chooser', async () => {
    await view({ message: { conversation: { conversationId: 'c-1', type: 'TrackedReferral', conversationStatus: 'Declined' } } });
    expect(await screen.findByText('Referral status: Declined')).toBeTruthy();
    expect(button('Save outcome')).toBeNull();
  });
});
