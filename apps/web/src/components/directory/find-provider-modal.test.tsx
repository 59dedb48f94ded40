import { useState } from 'react';
import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { directoryMessages } from '@clinicrelay/contracts/directory.ts';
import { json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { directoryEntry, installIntersectionObserver, numberedProviders, searchHandler } from './directory-test-fixtures.ts';
import { FindProviderModal } from './find-provider-modal.tsx';

// end-user §2 "Find Provider dialog", §5 "Directory search", §9.

const SEARCH = 'POST /api/directory/search';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const riverview = directoryEntry({
  id: 'o-1',
  entityType: 2,
  organizationName: 'Riverview Cardiology',
  directAddress: 'referrals@riverview.direct.example.org',
  phonePrimary: '5035550101',
  fax: '5035550102',
  standardizedAddressLine1: '120 Main St',
  standardizedCity: 'Portland',
  standardizedState: 'OR',
  standardizedZip: '972011234',
  source: 'Hosted',
  hosted: true,
});
const nguyen = directoryEntry({ id: 'p-1', lastName: 'Nguyen', firstName: 'Ana', middleName: 'T', clinicName: 'Riverview Cardiology', directAddress: 'ana.nguyen@riverview.direct.example.org' });
const silva = directoryEntry({ id: 'p-2', lastName: 'Silva', firstName: 'Rui', organizationName: 'Harbor Clinic' });
const okafor = directoryEntry({ id: 'p-3', lastName: 'Okafor', firstName: 'Chidi', directAddress: 'c.okafor@harbor.direct.example.org' });

// The dialog as a page holds it: open until it asks to close.
function Harness({ onClose, onSelect }: { onClose: () => void; onSelect?: (addresses: string[]) => void }) {
  const [opened, setOpened] = useState(true);
  const close = () => {
    setOpened(false);
    onClose();
  };
  return <FindProviderModal opened={opened} onClose={close} onSelect={onSelect} />;
}

function open(handlers: ApiStubOptions['handlers'] = {}, props: { onSelect?: (addresses: string[]) => void; onClose?: () => void } = {}) {
  signIn();
  const api = stubApi({ handlers: { [SEARCH]: searchHandler([nguyen, silva, okafor], [riverview]), 'GET /api/documentsources': () => json(200, []), ...handlers } });
  uninstall = renderApp('/', [{ path: '/', element: <Harness onClose={props.onClose ?? vi.fn()} onSelect={props.onSelect} /> }]).uninstall;
  const searches = () => api.calls.filter((call) => call.key === SEARCH).map((call) => call.body);
  return { ...api, searches };
}

const user = () => userEvent.setup({ delay: null });

async function dialog() {
  return screen.findByRole('dialog', { name: 'Find Provider' });
}

describe('Find Provider: the search', { timeout: 30_000 }, () => {
  it('runs only when a field has a value, and says so otherwise', async () => {
    const { searches } = open();
    const box = await dialog();
    await user().click(within(box).getByRole('button', { name: 'Search' }));
    expect(within(box).getByRole('alert').textContent).toBe(directoryMessages.searchNeedsValue);
    // Spaces are no value.
    await user().type(within(box).getByRole('textbox', { name: 'City' }), '   ');
    await user().click(within(box).getByRole('button', { name: 'Search' }));
    expect(searches()).toEqual([]);

    await user().type(within(box).getByRole('textbox', { name: 'City' }), 'Portland ');
    await user().click(within(box).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches()).toEqual([{ city: 'Portland', providerPageStart: 0, organizationPageStart: 0, pageSize: 10 }]));
    expect(within(box).getByRole('alert').textContent).toBe('');
  });

  it('searches on Enter, with one call for both tabs’ first page', async () => {
    const { searches } = open();
    const box = await dialog();
    await user().type(within(box).getByRole('textbox', { name: 'Last name' }), 'Nguyen{Enter}');
    expect(await within(box).findByText('Nguyen, Ana T')).toBeTruthy();
    expect(searches()).toEqual([{ lastName: 'Nguyen', providerPageStart: 0, organizationPageStart: 0, pageSize: 10 }]);
  });

  it('takes the state only from the list, and the zip as digits only', async () => {
    const { searches } = open();
    const box = await dialog();
    const state = within(box).getByRole<HTMLInputElement>('combobox', { name: 'State' });
    await user().type(state, 'Narnia');
    await user().tab();
    expect(state.value).toBe('');

    await user().click(state);
    await user().type(state, 'wash');
    await user().click(await screen.findByRole('option', { name: 'WA – Washington' }));
    expect(state.value).toBe('WA – Washington');

    const zip = within(box).getByRole<HTMLInputElement>('textbox', { name: 'Zip' });
    await user().type(zip, '98a1-01 12345');
    expect(zip.value).toBe('981011234');

    await user().click(within(box).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches()).toEqual([{ state: 'WA', zip: '981011234', providerPageStart: 0, organizationPageStart: 0, pageSize: 10 }]));
  });
});

describe('Find Provider: the results', { timeout: 30_000 }, () => {
  it('counts each tab, past 99 as "99+"', async () => {
    open({ [SEARCH]: searchHandler(numberedProviders(1, 10), [riverview], { totalProvidersCount: 100 }) });
    const box = await dialog();
    await user().type(within(box).getByRole('textbox', { name: 'First name' }), 'Pat{Enter}');
    await waitFor(() => expect(within(box).getByRole('tab', { name: 'Providers 99+' })).toBeTruthy());
    expect(within(box).getByRole('tab', { name: 'Organizations 1' })).toBeTruthy();
  });

  it('loads the next 10 providers when the end of the list comes into view', async () => {
    const observer = installIntersectionObserver();
    const { searches } = open({ [SEARCH]: searchHandler(numberedProviders(1, 25), [riverview]) });
    const box = await dialog();
    await user().type(within(box).getByRole('textbox', { name: 'First name' }), 'Pat{Enter}');
    const list = await within(box).findByRole('list', { name: 'Providers' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);

    await waitFor(() => expect(observer.watching()).toBe(true));
    observer.reveal();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(20));
    expect(searches()[1]).toEqual({ firstName: 'Pat', providerPageStart: 10, organizationPageStart: 0, pageSize: 10 });

    await waitFor(() => expect(observer.watching()).toBe(true));
    observer.reveal();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(25));
    // All 25 are there: nothing more is asked for.
    await waitFor(() => expect(observer.watching()).toBe(false));
    expect(searches()).toHaveLength(3);
  });

  it('says so when a tab has no match, and shows each row’s details', async () => {
    open({ [SEARCH]: searchHandler([], [riverview]) });
    const box = await dialog();
    await user().type(within(box).getByRole('textbox', { name: 'Organization name' }), 'Riverview{Enter}');
    // The match is an organization: the dialog shows the Organizations tab, not the empty Providers tab.
    await waitFor(() => expect(within(box).getByRole('tab', { name: /^Organizations/ }).getAttribute('aria-selected')).toBe('true'));
    const list = await within(box).findByRole('list', { name: 'Organizations' });
    const row = within(list).getByRole('listitem');
    expect(within(row).getByText('Riverview Cardiology')).toBeTruthy();
    expect(within(row).getByText('Hosted here')).toBeTruthy();
    expect(within(row).getByText('referrals@riverview.direct.example.org')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Copy Direct address' })).toBeTruthy();
    expect(within(row).getByText('120 Main St, Portland, OR 97201-1234')).toBeTruthy();

    await user().hover(within(row).getByRole('button', { name: 'Phone and fax' }));
    expect(await screen.findByText('Phone: 503-555-0101')).toBeTruthy();
    expect(screen.getByText('Fax: 503-555-0102')).toBeTruthy();

    // The empty tab is still there to look at, and says so.
    await user().click(within(box).getByRole('tab', { name: /^Providers/ }));
    expect(within(box).getByRole('tab', { name: /^Providers/ }).getAttribute('aria-selected')).toBe('true');
    expect(await within(box).findByText(/^No providers match your search\./)).toBeTruthy();
  });

  it('shows the tab that has results: back to Providers when a later search matches only providers', async () => {
    let call = 0;
    open({ [SEARCH]: (request) => (++call === 1 ? searchHandler([], [riverview])(request) : searchHandler([okafor], [])(request)) });
    const box = await dialog();
    await user().type(within(box).getByRole('textbox', { name: 'Organization name' }), 'Riverview{Enter}');
    await waitFor(() => expect(within(box).getByRole('tab', { name: /^Organizations/ }).getAttribute('aria-selected')).toBe('true'));
    await user().clear(within(box).getByRole('textbox', { name: 'Organization name' }));
    await user().type(within(box).getByRole('textbox', { name: 'Last name' }), 'Okafor{Enter}');
    await waitFor(() => expect(within(box).getByRole('tab', { name: /^Providers/ }).getAttribute('aria-selected')).toBe('true'));
    expect(await within(box).findByText('Okafor, Chidi', { exact: false })).toBeTruthy();
  });
});

describe('Find Provider: choosing', { timeout: 30_000 }, () => {
  it('offers no checkbox for a row without a Direct address', async () => {
    open({}, { onSelect: vi.fn() });
    const box = await dialog();
    await user().type(within(box).getByRole('textbox', { name: 'Last name' }), 'a{Enter}');
    const list = await within(box).findByRole('list', { name: 'Providers' });
    const silvaRow = within(list).getByText('Silva, Rui').closest('li')!;
    expect(within(silvaRow).getByText(directoryMessages.noDirectAddress)).toBeTruthy();
    expect(within(silvaRow).queryByRole('checkbox')).toBeNull();
    expect(within(list).getByRole('checkbox', { name: 'Select Nguyen, Ana T' })).toBeTruthy();
  });

  it('hands the checked addresses to Select, which counts them, and closes', async () => {
    const onSelect = vi.fn();
    const onClose = vi.fn();
    open({}, { onSelect, onClose });
    const box = await dialog();
    expect(within(box).getByRole<HTMLButtonElement>('button', { name: 'Select' }).disabled).toBe(true);
    expect(within(box).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    // Only the title bar's ×.
    expect(within(box).getAllByRole('button', { name: 'Close' })).toHaveLength(1);

    await user().type(within(box).getByRole('textbox', { name: 'Last name' }), 'a{Enter}');
    await user().click(await within(box).findByRole('checkbox', { name: 'Select Nguyen, Ana T' }));
    await user().click(within(box).getByRole('checkbox', { name: 'Select Okafor, Chidi' }));
    await user().click(within(box).getByRole('tab', { name: /^Organizations/ }));
    await user().click(await within(box).findByRole('checkbox', { name: 'Select Riverview Cardiology' }));
    await user().click(within(box).getByRole('button', { name: 'Select (3)' }));

    expect(onSelect).toHaveBeenCalledWith(['ana.nguyen@riverview.direct.example.org', 'c.okafor@harbor.direct.example.org', 'referrals@riverview.direct.example.org']);
    expect(onClose).toHaveBeenCalled();
  });

  it('has only Close, and no checkboxes, when nothing is to be chosen', async () => {
    const onClose = vi.fn();
    open({}, { onClose });
    const box = await dialog();
    await user().type(within(box).getByRole('textbox', { name: 'Last name' }), 'a{Enter}');
    await within(box).findByText('Nguyen, Ana T');
    expect(within(box).queryByRole('checkbox')).toBeNull();
    expect(within(box).queryByRole('button', { name: /^Select/ })).toBeNull();
    expect(within(box).queryByRole('button', { name: 'Cancel' })).toBeNull();
    // The title bar's × and the dialog's own Close button.
    const close = within(box).getAllByRole('button', { name: 'Close' });
    expect(close).toHaveLength(2);
    await user().click(close[1]!);
    expect(onClose).toHaveBeenCalled();
  });

  it('opens Send an Invite with the name typed so far', async () => {
    open();
    const box = await dialog();
    await user().type(within(box).getByRole('textbox', { name: 'First name' }), 'Rosa');
    await user().type(within(box).getByRole('textbox', { name: 'Last name' }), 'Diaz');
    await user().click(within(box).getByRole('button', { name: directoryMessages.notFoundLink }));
    const invite = await screen.findByRole('dialog', { name: 'Send an Invite' });
    expect(within(invite).getByRole<HTMLInputElement>('textbox', { name: 'Full name' }).value).toBe('Rosa Diaz');

    // Escape leaves the invite and comes back to the search as it was.
    await user().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Send an Invite' })).toBeNull());
    expect(within(await dialog()).getByRole<HTMLInputElement>('textbox', { name: 'Last name' }).value).toBe('Diaz');
  });
});
