import userEvent from '@testing-library/user-event';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DirectoryAddressCheck } from '@clinicrelay/contracts/directory.ts';
import { json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { directoryEntry, searchHandler } from '../../components/directory/directory-test-fixtures.ts';
import { composeLookups } from './release-test-fixtures.ts';

// The To field and the directory: Find Provider adds recipients, and each Direct address says whose it is.

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const RIVERVIEW = 'referrals@riverview.direct.example.org';
const NGUYEN = 'ana.nguyen@riverview.direct.example.org';
const STRANGER = 'front.desk@elsewhere.direct.example.org';

const validatePath = (addresses: string[]) => `GET /api/directory/validate?${new URLSearchParams({ addresses: [...addresses].sort().join(';') }).toString()}`;
const check = (address: string, overrides: Partial<DirectoryAddressCheck>): DirectoryAddressCheck => ({
  address,
  status: 'Known',
  valid: true,
  hosted: false,
  name: null,
  organizationName: null,
  ...overrides,
});

function start(handlers: ApiStubOptions['handlers'] = {}) {
  signIn();
  const api = stubApi({ handlers: { ...composeLookups, ...handlers } });
  uninstall = renderApp('/release/new').uninstall;
  return api;
}

const toField = async () => (await screen.findByRole('combobox', { name: 'To' })).closest<HTMLElement>('.mantine-InputWrapper-root')!;

describe('To and the directory', { timeout: 60_000 }, () => {
  it('adds the addresses chosen in Find Provider as To tags, once each', async () => {
    const providers = [directoryEntry({ id: 'p-1', lastName: 'Nguyen', firstName: 'Ana', directAddress: NGUYEN })];
    const organizations = [directoryEntry({ id: 'o-1', entityType: 2, organizationName: 'Riverview Cardiology', directAddress: RIVERVIEW.toUpperCase() })];
    start({ 'POST /api/directory/search': searchHandler(providers, organizations) });
    const to = await screen.findByRole('combobox', { name: 'To' });
    fireEvent.paste(to, { clipboardData: { getData: () => RIVERVIEW } });
    const field = await toField();
    await within(field).findByText(RIVERVIEW);

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Find Provider' }));
    const box = await screen.findByRole('dialog', { name: 'Find Provider' });
    await user.type(within(box).getByRole('textbox', { name: 'Organization name' }), 'Riverview{Enter}');
    await user.click(await within(box).findByRole('checkbox', { name: 'Select Nguyen, Ana' }));
    await user.click(within(box).getByRole('tab', { name: /^Organizations/ }));
    await user.click(await within(box).findByRole('checkbox', { name: 'Select Riverview Cardiology' }));
    await user.click(within(box).getByRole('button', { name: 'Select (2)' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Find Provider' })).toBeNull());
    expect(within(field).getByText(NGUYEN)).toBeTruthy();
    // The organization's address was already there (in other letters): still one tag.
    expect(within(field).getAllByText(RIVERVIEW)).toHaveLength(1);
  });

  it('notes whose each Direct address is, from one check of them all; an unknown one is only noted', async () => {
    const { calls } = start({
      [validatePath([RIVERVIEW, STRANGER])]: () =>
        json(200, [
          check(RIVERVIEW, { status: 'Hosted', hosted: true, name: 'Riverview Cardiology', organizationName: 'Riverview Cardiology' }),
          check(STRANGER, { status: 'Unknown' }),
        ]),
    });
    const to = await screen.findByRole('combobox', { name: 'To' });
    fireEvent.paste(to, { clipboardData: { getData: () => `${RIVERVIEW}; 503-555-0101; ${STRANGER}` } });

    const notes = await screen.findByRole('list', { name: 'Notes on the To addresses' });
    // The fax number is no Direct address: not asked about, not noted.
    await waitFor(() =>
      expect(within(notes).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
        `${RIVERVIEW}— Riverview Cardiology (hosted here)`,
        `${STRANGER}— not in the directory`,
      ]),
    );
    expect(calls.filter((call) => call.key.startsWith('GET /api/directory/validate'))).toHaveLength(1);

    const field = await toField();
    expect(within(field).getByText(RIVERVIEW).closest('[title]')?.getAttribute('title')).toBe('Riverview Cardiology (hosted here)');
    // Not an error: the sender may know an address the directory does not.
    expect(to.getAttribute('aria-invalid')).not.toBe('true');
  });
});
