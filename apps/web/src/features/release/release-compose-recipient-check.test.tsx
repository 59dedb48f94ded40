import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { recipientCheckTexts, type RecipientCheck } from '@clinicrelay/contracts/delivery.ts';
import { json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { composeLookups } from './release-test-fixtures.ts';

// The To field asks the server, once typing settles, what each address is: the sender sees "no certificate
// found" before pressing Send instead of an opaque failure after it (issue 12 §4).

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const RIVERVIEW = 'referrals@riverview.direct.example.org';
const STRANGER = 'front.desk@elsewhere.direct.example.org';
const FAX = '5035550101';
const CHECK = 'POST /api/messages/recipients/check';
// Past the field's 600 ms wait, with room for a slow machine.
const SETTLED = { timeout: 4000 };

const answer = (address: string, status: RecipientCheck['status'], deliverable: boolean): RecipientCheck => ({
  address,
  status,
  text: recipientCheckTexts[status],
  deliverable,
});

function start(handlers: ApiStubOptions['handlers'] = {}) {
  signIn();
  const api = stubApi({ handlers: { ...composeLookups, ...handlers } });
  uninstall = renderApp('/release/new').uninstall;
  return api;
}

async function paste(text: string) {
  const to = await screen.findByRole('combobox', { name: 'To' });
  fireEvent.paste(to, { clipboardData: { getData: () => text } });
  return to;
}

const noteTexts = (list: HTMLElement) => within(list).getAllByRole('listitem').map((item) => item.textContent);

describe('To: the delivery check of each recipient', { timeout: 60_000 }, () => {
  it('says “Checking…” until the server answers, then its words per recipient, from one call for all of them', async () => {
    let reply: (response: Response) => void = () => undefined;
    const { calls } = start({ [CHECK]: () => new Promise<Response>((resolve) => (reply = resolve)) });
    const to = await paste(`${RIVERVIEW}; 503-555-0101; ${STRANGER}`);

    const notes = await screen.findByRole('list', { name: 'Notes on the To addresses' });
    expect(within(notes).getAllByText('Checking…')).toHaveLength(3);
    await waitFor(() => expect(calls.filter((call) => call.key === CHECK)).toHaveLength(1), SETTLED);
    // Asked as the tags are stored, sorted: the query key does not depend on the order they were typed in.
    expect(calls.find((call) => call.key === CHECK)?.body).toEqual({ addresses: [FAX, STRANGER, RIVERVIEW] });
    expect(within(notes).getAllByText('Checking…')).toHaveLength(3);

    reply(
      json(200, {
        recipients: [answer(FAX, 'Fax', true), answer(STRANGER, 'NoCertificate', false), answer(RIVERVIEW, 'Hosted', true)],
      }),
    );
    await waitFor(() =>
      expect(noteTexts(screen.getByRole('list', { name: 'Notes on the To addresses' }))).toEqual([
        `${RIVERVIEW}Hosted on this installation`,
        `${FAX}Fax number`,
        `${STRANGER}No certificate found for this address (DNS and LDAP tried)`,
      ]),
    );
    expect(screen.queryByText('Checking…')).toBeNull();

    // The address nothing can reach is marked in the field too; the field itself stays valid (Send decides).
    const field = to.closest<HTMLElement>('.mantine-InputWrapper-root')!;
    expect(within(field).getByText(STRANGER).closest('[title]')?.getAttribute('title')).toBe(recipientCheckTexts.NoCertificate);
    expect(within(field).getByText(RIVERVIEW).closest('[title]')?.getAttribute('title')).toBe(recipientCheckTexts.Hosted);
    expect(to.getAttribute('aria-invalid')).not.toBe('true');
    expect(calls.filter((call) => call.key === CHECK)).toHaveLength(1);
  });

  it('checks again when To changes, keeping the answers it has while the new address is checked', async () => {
    const { calls } = start({
      [CHECK]: (body) => {
        const { addresses } = body as { addresses: string[] };
        return json(200, { recipients: addresses.map((address) => (address === RIVERVIEW ? answer(address, 'Hosted', true) : answer(address, 'Untrusted', false))) });
      },
    });
    await paste(RIVERVIEW);
    const notes = await screen.findByRole('list', { name: 'Notes on the To addresses' });
    await within(notes).findByText('Hosted on this installation', undefined, SETTLED);

    await paste(STRANGER);
    await waitFor(() => expect(noteTexts(notes)).toEqual([`${RIVERVIEW}Hosted on this installation`, `${STRANGER}Checking…`]));
    await waitFor(() => expect(noteTexts(notes)).toEqual([`${RIVERVIEW}Hosted on this installation`, `${STRANGER}${recipientCheckTexts.Untrusted}`]), SETTLED);
    expect(calls.filter((call) => call.key === CHECK).map((call) => call.body)).toEqual([{ addresses: [RIVERVIEW] }, { addresses: [STRANGER, RIVERVIEW] }]);
  });

  it('shows nothing when the check fails: no false warning, and no lasting “Checking…”', async () => {
    const { calls } = start({ [CHECK]: () => json(500, { message: 'The server encountered an error.' }) });
    const to = await paste(`${STRANGER}; 503-555-0101`);
    expect(await screen.findAllByText('Checking…')).toHaveLength(2);

    await waitFor(() => expect(calls.some((call) => call.key === CHECK)).toBe(true), SETTLED);
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Notes on the To addresses' })).toBeNull());
    expect(screen.queryByText('Checking…')).toBeNull();
    expect(screen.queryByText(recipientCheckTexts.NoCertificate)).toBeNull();
    const field = to.closest<HTMLElement>('.mantine-InputWrapper-root')!;
    expect(within(field).getByText(STRANGER).closest('[title]')).toBeNull();
  });

  it('asks nothing while To is empty', async () => {
    const { calls } = start();
    await screen.findByRole('combobox', { name: 'To' });
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(calls.some((call) => call.key === CHECK)).toBe(false);
    expect(screen.queryByRole('list', { name: 'Notes on the To addresses' })).toBeNull();
  });
});
