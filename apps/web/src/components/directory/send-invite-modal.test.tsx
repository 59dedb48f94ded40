import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { invitationMessages } from '@clinicrelay/contracts/users.ts';
import { json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { SendInviteModal } from './send-invite-modal.tsx';

// end-user §2 "Send an Invite dialog", §5 "Invitation", §8.

const SEND = 'POST /api/users/sendinvitation';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const sources = () =>
  json(200, [
    { id: 's-1', address: { fullAddress: 'records@lakeside.direct.example.org', type: 'Direct' }, status: 1 },
    { id: 's-2', address: { fullAddress: '5035550100', type: 'Fax' }, status: 1 },
    { id: 's-3', address: { fullAddress: 'old@lakeside.direct.example.org', type: 'Direct' }, status: 4 },
  ]);

function open(handlers: ApiStubOptions['handlers'] = {}) {
  signIn();
  const api = stubApi({ handlers: { 'GET /api/documentsources': sources, [SEND]: () => json(200, { message: invitationMessages.sent }), ...handlers } });
  const onClose = vi.fn();
  uninstall = renderApp('/', [{ path: '/', element: <SendInviteModal opened onClose={onClose} /> }]).uninstall;
  const sent = () => api.calls.filter((call) => call.key === SEND).map((call) => call.body);
  return { sent, onClose };
}

const user = () => userEvent.setup({ delay: null });

async function fill(fullName: string, email: string) {
  const box = await screen.findByRole('dialog', { name: 'Send an Invite' });
  if (fullName) await user().type(within(box).getByRole('textbox', { name: 'Full name' }), fullName);
  if (email) await user().type(within(box).getByRole('textbox', { name: 'Email address' }), email);
  return box;
}

describe('Send an Invite', { timeout: 30_000 }, () => {
  it('names every problem at once on Send and sends nothing', async () => {
    const { sent } = open();
    const box = await fill('', '');
    await user().click(within(box).getByRole('button', { name: 'Send' }));
    expect(await within(box).findByText(invitationMessages.fullNameRequired)).toBeTruthy();
    expect(within(box).getByText(invitationMessages.emailRequired)).toBeTruthy();

    await user().type(within(box).getByRole('textbox', { name: 'Email address' }), 'rosa.diaz@harbor');
    await user().click(within(box).getByRole('button', { name: 'Send' }));
    expect(await within(box).findByText(invitationMessages.emailInvalid)).toBeTruthy();
    expect(sent()).toEqual([]);
  });

  it('sends the chosen Direct address, toasts and closes', async () => {
    const { sent, onClose } = open();
    const box = await fill('  Rosa Diaz ', 'rosa.diaz@harbor.example.org');
    await user().click(within(box).getByRole('combobox', { name: 'Direct address to share' }));
    // Only the organization's usable Direct addresses are offered.
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['records@lakeside.direct.example.org']);
    await user().click(options[0]!);
    await user().click(within(box).getByRole('button', { name: 'Send' }));

    expect(await screen.findByText(invitationMessages.sent)).toBeTruthy();
    expect(sent()).toEqual([{ fullName: 'Rosa Diaz', emailAddress: 'rosa.diaz@harbor.example.org', directAddress: 'records@lakeside.direct.example.org' }]);
    expect(onClose).toHaveBeenCalled();
  });

  it('shows the server’s reasons at their fields, with the failure toast', async () => {
    const { onClose } = open({
      [SEND]: () => json(400, { message: 'The request is invalid.', modelState: { emailAddress: ['This email address already has an account.'] } }),
    });
    const box = await fill('Rosa Diaz', 'rosa.diaz@harbor.example.org');
    await user().click(within(box).getByRole('button', { name: 'Send' }));

    expect(await screen.findByText(invitationMessages.failed)).toBeTruthy();
    expect(within(box).getByText('This email address already has an account.')).toBeTruthy();
    expect(within(box).getByRole('textbox', { name: 'Email address' }).getAttribute('aria-invalid')).toBe('true');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('toasts the failure when the server fails, and stays open to try again', async () => {
    const { sent, onClose } = open({ [SEND]: () => json(500, { message: 'An unexpected error occurred.' }) });
    const box = await fill('Rosa Diaz', 'rosa.diaz@harbor.example.org');
    await user().click(within(box).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(invitationMessages.failed)).toBeTruthy();
    await waitFor(() => expect(within(box).getByRole<HTMLButtonElement>('button', { name: 'Send' }).disabled).toBe(false));
    expect(sent()).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
  });
});
