import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { trustAnchorMessages as text } from '@clinicrelay/contracts/trust-anchors.ts';
import { demoProfile, json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { formatInterval } from './bundles-section.tsx';

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const byHand = {
  id: 'a1',
  name: 'Partner HISP CA',
  domain: null,
  incoming: true,
  outgoing: false,
  subject: 'CN=Partner HISP CA, O=Partner',
  thumbprintSha256: 'AB'.repeat(32),
  notAfter: inDays(365),
  expired: false,
  bundleId: null,
  bundleName: null,
};
const fromBundle = { ...byHand, id: 'a2', name: 'Old Community CA', domain: 'lakeside.direct.example.org', outgoing: true, subject: 'CN=Old Community CA', notAfter: inDays(-3), expired: true, bundleId: 'b1', bundleName: 'Community' };
const urlBundle = {
  id: 'b1',
  name: 'Community',
  url: 'https://bundles.example.org/community.p7b',
  domain: null,
  incoming: true,
  outgoing: true,
  refreshIntervalMinutes: 1440,
  checksum: 'ab'.repeat(32),
  lastRefreshedAt: inDays(-1),
  lastError: 'The bundle could not be downloaded: the server answered 503 Service Unavailable.',
  anchorCount: 1,
};
const fileBundle = { ...urlBundle, id: 'b2', name: 'Partner file', url: null, lastError: null, anchorCount: 3 };
const ANCHORS = 'GET /api/configuration/anchors?pageNumber=1&pageSize=10&sortDir=asc';
const BUNDLES = 'GET /api/configuration/bundles?pageNumber=1&pageSize=10&sortDir=asc';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(url: string, handlers: ApiStubOptions['handlers'] = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: {
      [ANCHORS]: () => json(200, { items: [byHand, fromBundle], totalCount: 2 }),
      [BUNDLES]: () => json(200, { items: [urlBundle, fileBundle], totalCount: 2 }),
      ...handlers,
    },
  });
  uninstall = renderApp(url).uninstall;
  return api;
}

const sentForm = (fetchStub: ReturnType<typeof stubApi>['fetchStub']) => fetchStub.mock.calls.map(([, init]) => init?.body).find((body): body is FormData => body instanceof FormData)!;

describe('Trust anchors', { timeout: 30_000 }, () => {
  it('words refresh intervals', () => {
    expect(formatInterval(15)).toBe('Every 15 minutes');
    expect(formatInterval(60)).toBe('Every hour');
    expect(formatInterval(1440)).toBe('Every 24 hours');
    expect(formatInterval(90)).toBe('Every 90 minutes');
  });

  it('lists the anchors, with their domain, directions, expiry and source; a bundle anchor has no edit or delete', async () => {
    start('/admin/trust-anchors');
    expect(await screen.findByText('Partner HISP CA')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Trust anchors' })).toBeTruthy();
    const [, handRow, bundleRow] = screen.getAllByRole('row');
    expect(within(handRow!).getByText('All domains')).toBeTruthy();
    expect(within(handRow!).getByText('Incoming')).toBeTruthy();
    expect(within(handRow!).queryByText('Outgoing')).toBeNull();
    expect(within(handRow!).getByText('Added by hand')).toBeTruthy();
    expect(within(bundleRow!).getByText('lakeside.direct.example.org')).toBeTruthy();
    expect(within(bundleRow!).getByText('Community')).toBeTruthy();
    const expired = within(bundleRow!).getByText(new Date(fromBundle.notAfter).toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' }));
    expect(expired.getAttribute('style')).toMatch(/--mantine-color-error/);
    expect(screen.getByRole('button', { name: 'Edit Partner HISP CA' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit Old Community CA' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Old Community CA' })).toBeNull();
  });

  it('says so when there are no anchors', async () => {
    start('/admin/trust-anchors', { [ANCHORS]: () => json(200, { items: [], totalCount: 0 }) });
    expect(await screen.findByText('No trust anchors yet.')).toBeTruthy();
  });

  it('adds an anchor: the file is required, at least one direction, and the form posts name, file, domain and directions', async () => {
    const { fetchStub } = start('/admin/trust-anchors', { 'POST /api/configuration/anchors': () => json(200, byHand) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add anchor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add anchor' });
    await user.click(within(dialog).getByRole('switch', { name: 'Incoming' }));
    await user.click(within(dialog).getByRole('switch', { name: 'Outgoing' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Name is required.')).toBeTruthy();
    expect(within(dialog).getByText(text.anchorFileRequired)).toBeTruthy();
    expect(within(dialog).getByText(text.directionRequired)).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Partner HISP CA');
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['-----BEGIN CERTIFICATE-----'], 'partner.pem'));
    await user.type(within(dialog).getByRole('textbox', { name: 'Domain' }), 'lakeside.direct.example.org');
    await user.click(within(dialog).getByRole('switch', { name: 'Incoming' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(text.anchorSaved)).toBeTruthy();
    const form = sentForm(fetchStub);
    expect(Object.fromEntries([...form.entries()].filter(([key]) => key !== 'file'))).toEqual({ name: 'Partner HISP CA', domain: 'lakeside.direct.example.org', incoming: 'true', outgoing: 'false' });
    expect((form.get('file') as File).name).toBe('partner.pem');
  });

  it('edits an anchor without a file, and shows the server reason under its field', async () => {
    const refused = { message: text.domainInvalid, modelState: { domain: [text.domainInvalid] } };
    const { calls } = start('/admin/trust-anchors', { 'PUT /api/configuration/anchors/a1': () => json(400, refused) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Edit Partner HISP CA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit anchor' });
    expect(within(dialog).queryByText('File')).toBeNull();
    expect(within(dialog).getByText(byHand.subject)).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'Domain' }), 'riverview.direct.example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.domainInvalid)).toBeTruthy();
    expect(calls.find((c) => c.key === 'PUT /api/configuration/anchors/a1')?.body).toEqual({ name: 'Partner HISP CA', domain: 'riverview.direct.example.org', incoming: true, outgoing: false });
  });

  it('lists the bundles and refreshes one now, toasting the reason it failed', async () => {
    const { calls } = start('/admin/trust-anchors?tab=bundles', { 'POST /api/configuration/bundles/b1/refresh': () => json(200, urlBundle) });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText(urlBundle.url)).toBeTruthy();
    expect(screen.getByText('From a file')).toBeTruthy();
    expect(screen.getByText('Not refreshed')).toBeTruthy();
    expect(screen.getAllByText('Every 24 hours')).toHaveLength(1);
    expect(screen.getByText(urlBundle.lastError).getAttribute('style')).toMatch(/--mantine-color-error/);
    expect(screen.queryByRole('button', { name: 'Refresh now Partner file' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Refresh now Community' }));
    expect(await screen.findByText(`${text.refreshFailed}: ${urlBundle.lastError}`)).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/configuration/bundles/b1/refresh')).toBe(true);
  });

  it('adds a bundle from a file or a URL', async () => {
    const { fetchStub } = start('/admin/trust-anchors?tab=bundles', { 'POST /api/configuration/bundles': () => json(200, fileBundle) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add bundle' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add bundle' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Partner file');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.urlRequired)).toBeTruthy();
    await user.click(within(dialog).getByRole('radio', { name: 'From a file' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.bundleFileRequired)).toBeTruthy();
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File([new Uint8Array([0x30, 0x82])], 'partner.p7b'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(text.bundleSaved)).toBeTruthy();
    const form = sentForm(fetchStub);
    expect(Object.fromEntries([...form.entries()].filter(([key]) => key !== 'file'))).toEqual({ name: 'Partner file', domain: '', incoming: 'true', outgoing: 'true' });
    expect((form.get('file') as File).name).toBe('partner.p7b');
  });

  it('switching tabs starts the other list afresh', async () => {
    start('/admin/trust-anchors?search=partner', {
      [`${ANCHORS}&search=partner`]: () => json(200, { items: [byHand], totalCount: 1 }),
    });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('Partner HISP CA')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search' }).value).toBe('partner');
    await user.click(screen.getByRole('tab', { name: 'Bundles' }));
    expect(await screen.findByText(urlBundle.url)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search' }).value).toBe(''));
  });
});
